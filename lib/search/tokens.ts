/**
 * Words for search. Latin, Cyrillic and the like are split at anything that is not a letter
 * or digit. Chinese, Japanese and Korean have no spaces between words: their runs are indexed
 * as overlapping pairs of characters (bigrams), plus each run's last character, so a phrase of
 * any length is found by its pairs and one character by the pairs it begins.
 */

const PIECES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[\p{L}\p{N}\p{M}_]+/gu;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Longer "words" (hashes, base64) are cut: nobody types them whole. */
const MAX_WORD = 32;

export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

export function isCjk(piece: string): boolean {
  return CJK.test(piece);
}

/** The terms a text is indexed under (repeats included; the index keeps each once). */
export function indexTerms(text: string, out: Set<string> = new Set()): Set<string> {
  for (const [piece] of normalise(text).matchAll(PIECES)) {
    if (!isCjk(piece)) {
      out.add(piece.length > MAX_WORD ? piece.slice(0, MAX_WORD) : piece);
      continue;
    }
    const chars = [...piece];
    for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
    out.add(chars.at(-1)!);
  }
  return out;
}

/** One thing a query asks for: a term, or any term beginning with it. */
export interface QueryTerm {
  text: string;
  prefix: boolean;
}

/**
 * What a query asks for, every part required. Words match as prefixes (results come as you
 * type); a CJK phrase matches by its pairs, a single CJK character as a prefix.
 */
export function queryTerms(query: string): QueryTerm[] {
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  const add = (text: string, prefix: boolean): void => {
    const key = `${prefix ? '*' : ''}${text}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ text, prefix });
  };
  for (const [piece] of normalise(query).matchAll(PIECES)) {
    if (!isCjk(piece)) {
      add(piece.slice(0, MAX_WORD), true);
      continue;
    }
    const chars = [...piece];
    if (chars.length === 1) add(chars[0]!, true);
    for (let i = 0; i + 1 < chars.length; i++) add(chars[i]! + chars[i + 1]!, false);
  }
  return out;
}

/** The pieces of the query as the user wrote them, for highlighting (longest first). */
export function highlightNeedles(query: string): string[] {
  const pieces = [...normalise(query).matchAll(PIECES)].map(([p]) => p);
  return [...new Set(pieces)].sort((a, b) => b.length - a.length);
}

export interface Snippet {
  text: string;
  /** [start, end) of each highlighted part in `text`. */
  marks: [number, number][];
}

/**
 * The part of `text` around the first match, with every match in it marked. A word matches
 * at the start of a word (as it is searched: by prefix); a CJK piece anywhere.
 */
export function snippet(text: string, query: string, width = 140): Snippet | undefined {
  const needles = highlightNeedles(query);
  if (needles.length === 0) return undefined;
  const lower = normalise(text);
  // NFKC can change lengths (ligatures, full-width forms): mark on the original only when it did not.
  const haystack = lower.length === text.length ? lower : text.toLowerCase();
  const marks: [number, number][] = [];
  for (const needle of needles) {
    const cjk = isCjk(needle);
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
      if (!cjk && at > 0 && /[\p{L}\p{N}\p{M}_]/u.test(haystack[at - 1]!)) continue;
      if (marks.some(([s, e]) => at < e && at + needle.length > s)) continue;
      marks.push([at, at + needle.length]);
    }
  }
  if (marks.length === 0) return undefined;
  marks.sort((a, b) => a[0] - b[0]);
  const first = marks[0]![0];
  let start = Math.max(0, first - Math.floor(width / 3));
  // Start at a word or line boundary when one is near.
  const space = text.lastIndexOf(' ', first);
  if (start > 0 && space > start && space < first) start = space + 1;
  const end = Math.min(text.length, start + width);
  const body = text.slice(start, end).replace(/\s/g, ' ');
  const lead = start > 0 ? '…' : '';
  const tail = end < text.length ? '…' : '';
  return {
    text: `${lead}${body}${tail}`,
    marks: marks.filter(([s, e]) => s >= start && e <= end).map(([s, e]) => [s - start + lead.length, e - start + lead.length]),
  };
}

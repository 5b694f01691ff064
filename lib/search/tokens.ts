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
  /** How many of the query's pieces occur in the whole text (the best message has the most). */
  matched: number;
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;

/** Where `needle` next occurs in `haystack` from `from` as the search finds it: a word at a word's start, CJK anywhere. */
function nextMatch(haystack: string, needle: string, from: number, cjk: boolean): number {
  for (let at = haystack.indexOf(needle, from); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    if (cjk || at === 0 || !WORD_CHAR.test(haystack[at - 1]!)) return at;
  }
  return -1;
}

/**
 * The part of `text` around the first match, with every match in it marked. A word matches
 * at the start of a word (as it is searched: by prefix); a CJK piece anywhere. Linear in the
 * text: only the first match of each piece is looked for outside the shown part.
 */
export function snippet(text: string, query: string, width = 140): Snippet | undefined {
  return snippetIn(searchable(text), highlightNeedles(query), width);
}

/** A text ready to be searched for snippets again and again (as search results are typed). */
export interface Searchable {
  text: string;
  /** The text as searched: lower case, and normalised when that kept its length. */
  haystack: string;
}

export function searchable(text: string): Searchable {
  const lower = normalise(text);
  // NFKC can change lengths (ligatures, full-width forms): mark on the original only when it did not.
  return { text, haystack: lower.length === text.length ? lower : text.toLowerCase() };
}

/** How many of the query's pieces a prepared text holds, and where the first of them is (-1: none). */
export function matchesIn({ haystack }: Searchable, needles: readonly string[]): { matched: number; first: number } {
  let first = -1;
  let matched = 0;
  for (const needle of needles) {
    const at = nextMatch(haystack, needle, 0, isCjk(needle));
    if (at === -1) continue;
    matched++;
    if (first === -1 || at < first) first = at;
  }
  return { matched, first };
}

/** `snippet` for a prepared text and the query's pieces (`highlightNeedles`). */
export function snippetIn(prepared: Searchable, needles: readonly string[], width = 140): Snippet | undefined {
  if (needles.length === 0) return undefined;
  const { text, haystack } = prepared;
  const { matched, first } = matchesIn(prepared, needles);
  if (first === -1) return undefined;
  let start = Math.max(0, first - Math.floor(width / 3));
  // Start at a word or line boundary when one is near.
  const space = text.lastIndexOf(' ', first);
  if (start > 0 && space > start && space < first) start = space + 1;
  const end = Math.min(text.length, start + width);
  // Longest pieces first, so a shorter one inside a longer one's mark is not marked again.
  const marks: [number, number][] = [];
  for (const needle of needles) {
    const cjk = isCjk(needle);
    for (let at = nextMatch(haystack, needle, start, cjk); at !== -1 && at + needle.length <= end; at = nextMatch(haystack, needle, at + needle.length, cjk)) {
      if (!marks.some(([s, e]) => at < e && at + needle.length > s)) marks.push([at, at + needle.length]);
    }
  }
  marks.sort((a, b) => a[0] - b[0]);
  const body = text.slice(start, end).replace(/\s/g, ' ');
  const lead = start > 0 ? '…' : '';
  const tail = end < text.length ? '…' : '';
  return {
    text: `${lead}${body}${tail}`,
    marks: marks.map(([s, e]) => [s - start + lead.length, e - start + lead.length]),
    matched,
  };
}

/**
 * A file's text cut to a token budget, at a page (PDF) or line boundary, the cut recorded so the
 * chip, the message's card and the request all say where it fell.
 */
import { prepareSelection } from '../actions/large-selection';
import { estimateTokens } from '../actions/tokens';
import { countLines } from './text';
import type { AttachedFile } from './types';

/**
 * Pages of an extracted PDF's text: each begins with its `[Page n]` line, numbered 1, 2, 3… (a
 * line that only looks like a marker, inside a page's text, is part of that page).
 */
function pagesOf(text: string): { n: number; text: string }[] {
  const pages: { n: number; text: string }[] = [];
  const marker = /^\[Page (\d+)\]$/gm;
  let last: { n: number; start: number } | undefined;
  for (const match of text.matchAll(marker)) {
    if (Number(match[1]) !== (last?.n ?? 0) + 1) continue;
    if (last !== undefined) pages.push({ n: last.n, text: text.slice(last.start, match.index).replace(/\n+$/, '') });
    last = { n: Number(match[1]), start: match.index };
  }
  if (last !== undefined) pages.push({ n: last.n, text: text.slice(last.start) });
  return pages;
}

/** `lines` kept to fit `budget`: whole lines, or, when not even the first fits, its head cut at a sentence. */
function headOf(lines: readonly string[], budget: number): { text: string; lines: number } {
  const kept = fittingLines(lines, budget);
  if (kept > 0) return { text: lines.slice(0, kept).join('\n'), lines: kept };
  const head = prepareSelection(lines[0] ?? '', budget).text;
  return { text: head, lines: head === '' ? 0 : 1 };
}

/** The longest head of `lines` whose estimate fits `budget` (at least nothing). */
function fittingLines(lines: readonly string[], budget: number): number {
  let used = 0;
  let kept = 0;
  for (const line of lines) {
    // +1: the newline joining it.
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) break;
    used += cost;
    kept++;
  }
  return kept;
}

/** `file` as it fits in `budget` tokens: whole, or cut at a boundary (a page where it can, else a line). */
export function fitFile(file: AttachedFile, budget: number): AttachedFile {
  if (file.tokens <= budget) return file;
  const whole = file.tokens;
  let text: string;
  let cut: NonNullable<AttachedFile['cut']>;
  const pages = file.kind === 'pdf' ? pagesOf(file.text) : [];
  if (pages.length > 0) {
    let used = 0;
    let kept = 0;
    for (const page of pages) {
      const cost = estimateTokens(page.text) + 2;
      if (used + cost > budget) break;
      used += cost;
      kept++;
    }
    if (kept > 0) {
      text = pages.slice(0, kept).map((p) => p.text).join('\n\n');
      cut = { reason: 'tokens', page: pages[kept - 1]!.n, tokens: whole };
    } else {
      // Not even the first page fits: its lines, as many as fit (the marker line is not one of the page's).
      const lines = pages[0]!.text.split('\n');
      const head = headOf(lines.slice(1), budget - estimateTokens(lines[0] ?? '') - 1);
      text = `${lines[0] ?? ''}\n${head.text}`;
      cut = { reason: 'tokens', page: pages[0]!.n, line: Math.max(1, head.lines), tokens: whole };
    }
  } else {
    const head = headOf(file.text.split('\n'), budget);
    text = head.text;
    cut = { reason: 'tokens', line: Math.max(1, head.lines), tokens: whole };
  }
  // A cut file is no longer the file: it goes as its text, never as itself.
  const { data: _whole, ...rest } = file;
  return { ...rest, text, lines: countLines(text), tokens: estimateTokens(text), cut };
}

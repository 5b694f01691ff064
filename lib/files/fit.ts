/**
 * A file's text cut to a token budget, at a page (PDF) or line boundary, the cut recorded so the
 * chip, the message's card and the request all say where it fell.
 */
import { estimateTokens } from '../actions/large-selection';
import { countLines } from './text';
import type { AttachedFile } from './types';

/** Pages of an extracted PDF's text: each begins with its `[Page n]` line. */
function pagesOf(text: string): { n: number; text: string }[] {
  const pages: { n: number; text: string }[] = [];
  const marker = /^\[Page (\d+)\]$/gm;
  let last: { n: number; start: number } | undefined;
  for (const match of text.matchAll(marker)) {
    if (last !== undefined) pages.push({ n: last.n, text: text.slice(last.start, match.index).replace(/\n+$/, '') });
    last = { n: Number(match[1]), start: match.index };
  }
  if (last !== undefined) pages.push({ n: last.n, text: text.slice(last.start) });
  return pages;
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
      // Not even the first page fits: its lines, as many as fit.
      const lines = pages[0]!.text.split('\n');
      text = lines.slice(0, fittingLines(lines, budget)).join('\n');
      cut = { reason: 'tokens', page: pages[0]!.n, line: countLines(text), tokens: whole };
    }
  } else {
    const lines = file.text.split('\n');
    const kept = fittingLines(lines, budget);
    text = lines.slice(0, kept).join('\n');
    cut = { reason: 'tokens', line: kept, tokens: whole };
  }
  // A cut file is no longer the file: it goes as its text, never as itself.
  const { data: _whole, ...rest } = file;
  return { ...rest, text, lines: countLines(text), tokens: estimateTokens(text), cut };
}

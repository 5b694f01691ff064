/**
 * TeX math in replies, laid out by KaTeX: `$…$` and `\(…\)` inline, `$$…$$` and `\[…\]` displayed
 * (as a block of their own, or within a line, a list item or a table cell).
 *
 * Dollars follow Pandoc's rule so that prices stay text: an opening `$` is followed by a
 * non-space, a closing `$` is preceded by a non-space and not followed by a digit ("$5 and $10"
 * is text, "$x$" is math); `\$` is a dollar. A formula whose closing delimiter has not arrived
 * yet (a reply still streaming) is not matched and shows as its source until it closes.
 *
 * KaTeX writes HTML for the eye and MathML for screen readers (its annotation holds the
 * source). Model output is untrusted: KaTeX's commands that link or load (`\href`, `\url`,
 * `\includegraphics`) or set classes, ids, styles and data (`\htmlClass`, …) are refused (the
 * formula shows as an error saying so), and the result goes through the sanitiser's KaTeX
 * allow-list. An invalid formula shows its source and KaTeX's message, never KaTeX's red text.
 */
import katex from 'katex';
import type { Env, MarkdownIt, StateBlock, StateInline, Token } from 'markdown-it';
import { fill, type RenderLabels } from './labels';
import { sanitizeRendered } from './sanitize';

/** What the plugin reads from and writes to markdown-it's render environment. */
export type MathEnv = {
  /** The caller's words (for a refused command's message). */
  labels?: Partial<RenderLabels>;
  /** Set when the render laid out a formula with KaTeX: the page must load KaTeX's CSS (`loadMathStyles`). */
  mathStylesNeeded?: boolean;
};

/** Commands that would make a formula link, load an image, or carry markup chosen by the model. */
const REFUSED = ['\\href', '\\url', '\\includegraphics', '\\htmlClass', '\\htmlId', '\\htmlStyle', '\\htmlData'];

class RefusedCommand extends Error {
  constructor(readonly command: string) {
    super(command);
  }
}

/**
 * Each refused command as a macro that throws, so it fails however it is reached (`\def`, `\let`,
 * inside `\text{}`), before KaTeX's own `trust: false` would draw it as red text. A fresh object
 * per formula: KaTeX writes a formula's `\gdef`s into it.
 */
function refusingMacros(): Record<string, () => never> {
  const macros: Record<string, () => never> = {};
  for (const command of REFUSED) {
    macros[command] = () => {
      throw new RefusedCommand(command);
    };
  }
  return macros;
}

type Layout = { html: string } | { message: string } | { refused: string } | { tooLong: number };

/**
 * KaTeX writes about 200 bytes of HTML per character of TeX: a longer formula (a model looping,
 * say) would hold the worker for seconds and the page for a long task when set, so it stays source.
 */
export const MAX_FORMULA_CHARS = 5000;

/** Formulas already laid out: a streaming block is rendered again every frame with the same formulas in it. */
const layouts = new Map<string, Layout>();
const LAYOUTS_KEPT = 500;

function layout(tex: string, displayMode: boolean): Layout {
  const key = `${displayMode ? 'D' : 'I'}${tex}`;
  const known = layouts.get(key);
  if (known !== undefined) {
    layouts.delete(key);
    layouts.set(key, known);
    return known;
  }
  let result: Layout;
  if (tex.length > MAX_FORMULA_CHARS) return { tooLong: tex.length };
  try {
    const html = katex.renderToString(tex, {
      displayMode,
      output: 'htmlAndMathml',
      throwOnError: true,
      trust: false,
      strict: 'ignore',
      // A formula cannot draw boxes larger than this (em) nor expand macros without end.
      maxSize: 20,
      maxExpand: 1000,
      macros: refusingMacros(),
    });
    result = { html: sanitizeRendered(html) };
  } catch (error) {
    if (error instanceof RefusedCommand) result = { refused: error.command };
    else if (error instanceof katex.ParseError) result = { message: error.rawMessage };
    else throw error;
  }
  layouts.set(key, result);
  if (layouts.size > LAYOUTS_KEPT) layouts.delete(layouts.keys().next().value!);
  return result;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** A formula's markup: `element` is `div` for a display block, `span` within a line. */
function formulaHtml(tex: string, displayMode: boolean, element: 'div' | 'span', env: MathEnv): string {
  const result = layout(tex, displayMode);
  const source = escapeHtml(tex);
  const kind = displayMode ? 'math-display' : 'math-inline';
  if ('html' in result) {
    env.mathStylesNeeded = true;
    // Focusable as it comes (its menu opens with Enter): set by the page instead, it would be taken
    // away and set again on each frame a growing block is morphed (a restyle of the formula each time).
    return `<${element} class="math ${kind}" data-tex="${source}" tabindex="0">${result.html}</${element}>`;
  }
  const message =
    'refused' in result
      ? fill(env.labels?.formulaBlocked ?? '{command}', { command: result.refused })
      : 'tooLong' in result
        ? fill(env.labels?.formulaTooLong ?? '{chars}', { chars: result.tooLong })
        : result.message;
  return `<${element} class="math math-error${displayMode ? ' math-display' : ''}" data-tex="${source}" tabindex="0"><code>${source}</code> <span class="math-message">${escapeHtml(message)}</span></${element}>`;
}

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || Number.isNaN(code);
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Where `close` next occurs in `src` from `from` (before `max`), skipping backslash escapes; -1 when it does not. */
function findClose(src: string, from: number, max: number, close: string): number {
  for (let i = from; i < max; ) {
    if (src.startsWith(close, i) && i + close.length <= max) return i;
    i += src.charCodeAt(i) === BACKSLASH ? 2 : 1;
  }
  return -1;
}

/** Pandoc's closing `$`: after a non-space, not before a digit. -1 when there is none. */
function findClosingDollar(src: string, from: number, max: number): number {
  for (let i = from; i < max; ) {
    const found = findClose(src, i, max, '$');
    if (found === -1) return -1;
    if (!isBlank(src.charCodeAt(found - 1)) && !isDigit(src.charCodeAt(found + 1))) return found;
    i = found + 1;
  }
  return -1;
}

/**
 * The first closing delimiter at or after `from`, remembered per inline run: the first closer
 * after a position never depends on where the opener was, so a line of unclosed openers
 * ("$5, $6, $7…", or a formula still streaming) is read once, not once per opener.
 */
const inlineClosers = new WeakMap<StateInline, Map<string, { from: number; at: number }>>();

function closeAfter(state: StateInline, from: number, close: string): number {
  let known = inlineClosers.get(state);
  if (known === undefined) inlineClosers.set(state, (known = new Map()));
  const last = known.get(close);
  let at: number;
  if (last !== undefined && last.from <= from && (last.at === -1 || last.at >= from)) at = last.at;
  else {
    at = close === '$' ? findClosingDollar(state.src, from, state.src.length) : findClose(state.src, from, state.src.length, close);
    known.set(close, { from, at });
  }
  // Inside a link's text the run ends earlier than the source.
  return at !== -1 && at + close.length <= state.posMax ? at : -1;
}

function pushFormula(state: StateInline, type: 'math_inline' | 'math_inline_display', tex: string, markup: string): void {
  const token = state.push(type, 'math', 0);
  token.content = tex;
  token.markup = markup;
}

function mathInline(state: StateInline, silent: boolean): boolean {
  const { src, posMax: max } = state;
  const start = state.pos;
  const first = src.charCodeAt(start);
  if (first !== DOLLAR && first !== BACKSLASH) return false;
  const second = src.charCodeAt(start + 1);

  if (first === BACKSLASH) {
    if (second !== 0x28 && second !== 0x5b) return false; // \( or \[
    const close = second === 0x28 ? '\\)' : '\\]';
    const end = closeAfter(state, start + 2, close);
    const tex = end === -1 ? '' : src.slice(start + 2, end).trim();
    if (tex === '') {
      // Not closed (yet): the delimiter stays as written rather than losing its backslash to markdown.
      if (!silent) state.pending += src.slice(start, start + 2);
      state.pos = start + 2;
      return true;
    }
    if (!silent) pushFormula(state, second === 0x28 ? 'math_inline' : 'math_inline_display', tex, src.slice(start, start + 2));
    state.pos = end + 2;
    return true;
  }

  if (second === DOLLAR) {
    const end = closeAfter(state, start + 2, '$$');
    const tex = end === -1 ? '' : src.slice(start + 2, end).trim();
    if (tex === '') {
      // Both dollars are text: the second must not open an inline formula of its own.
      if (!silent) state.pending += '$$';
      state.pos = start + 2;
      return true;
    }
    if (!silent) pushFormula(state, 'math_inline_display', tex, '$$');
    state.pos = end + 2;
    return true;
  }

  if (start + 1 >= max || isBlank(second)) return false;
  const end = closeAfter(state, start + 1, '$');
  if (end === -1) return false;
  if (!silent) pushFormula(state, 'math_inline', src.slice(start + 1, end), '$');
  state.pos = end + 1;
  return true;
}

interface LineScan {
  from: number;
  /** The closing line, or where the search stopped (a line left of the container, or the end). */
  stop: number;
  closed: boolean;
  /** Where the stop line starts (a quote or list item reads its lines from further in). */
  stopMark: number;
}

/**
 * The line that closes a display formula opened above `from`, or -1. Remembered, as for inline
 * formulas: lines opening with `$$` that never close are each read once, not once per opener.
 */
const blockClosers = new WeakMap<StateBlock, Map<string, LineScan>>();

function closingLine(state: StateBlock, from: number, endLine: number, close: string): number {
  const key = `${close} ${state.blkIndent} ${endLine}`;
  let known = blockClosers.get(state);
  if (known === undefined) blockClosers.set(state, (known = new Map()));
  const mark = (line: number) => (line < endLine ? state.bMarks[line]! + state.tShift[line]! : -1);
  const last = known.get(key);
  if (last !== undefined && last.from <= from && from <= last.stop && mark(last.stop) === last.stopMark) return last.closed ? last.stop : -1;
  let line = from;
  let closed = false;
  for (; line < endLine; line++) {
    const lineStart = state.bMarks[line]! + state.tShift[line]!;
    const lineEnd = state.eMarks[line]!;
    // A line less indented than the container (a list item) ends it.
    if (lineStart < lineEnd && state.sCount[line]! < state.blkIndent) break;
    if (state.src.slice(lineStart, lineEnd).trimEnd().endsWith(close)) {
      closed = true;
      break;
    }
  }
  known.set(key, { from, stop: line, closed, stopMark: mark(line) });
  return closed ? line : -1;
}

/** `$$` or `\[` opening a line, closed at the end of the same or a later line: a display formula of its own. */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const { src } = state;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  const close = src.startsWith('$$', start) ? '$$' : src.startsWith('\\[', start) ? '\\]' : undefined;
  if (close === undefined) return false;
  const first = src.slice(start + 2, state.eMarks[startLine]).trimEnd();
  const last = first.endsWith(close) && first.length >= close.length ? startLine : closingLine(state, startLine + 1, endLine, close);
  if (last === -1) return false;
  const lines = [first];
  for (let line = startLine + 1; line <= last; line++) lines.push(src.slice(state.bMarks[line]! + state.tShift[line]!, state.eMarks[line]).trimEnd());
  const body = lines.join('\n');
  const tex = body.slice(0, body.length - close.length).trim();
  // `$$a$$ and $$b$$` on one line is text with formulas in it, not one formula.
  if (tex === '' || (last === startLine && tex.includes(close))) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = tex;
  token.markup = close === '$$' ? '$$' : '\\[';
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/** markdown-it plugin: the math rules and their rendering (markdown-it's env may carry `MathEnv`). */
export function mathPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  const render = (displayMode: boolean, element: 'div' | 'span') => (tokens: Token[], idx: number, _options: unknown, env: Env | undefined) =>
    formulaHtml(tokens[idx]!.content, displayMode, element, (env ?? {}) as MathEnv);
  md.renderer.rules.math_inline = render(false, 'span');
  md.renderer.rules.math_inline_display = render(true, 'span');
  const block = render(true, 'div');
  md.renderer.rules.math_block = (tokens, idx, options, env) => `${block(tokens, idx, options, env)}\n`;
}

/**
 * A first guess of a message's height on screen, before it is drawn and measured: a long
 * conversation opens at its newest message, and the rows the virtualiser draws first are those
 * this guess puts in view. A guess far off (a reply of code counted as prose) draws the wrong
 * rows, then measures, scrolls and draws again, several times over, while the conversation opens.
 * So code blocks count by their lines (folded past `FOLD_LINES`), prose by its wrapped lines at
 * the list's width. The sizes are those the chat page's styles give (components/styles.css,
 * components/chat/render/code.css), measured at 400, 620 and 1,000 pixels wide.
 */
import type { Message } from '@/lib/conversations/records';
import { FOLD_LINES } from '@/lib/render/fold';

/** A prose line (13 px text), and a paragraph's margins. */
const PROSE_LINE = 20;
const PARAGRAPH = 13;
/** A code line (12.5 px, line height 1.5); a code block's head, padding and borders; "Show all N lines". */
const CODE_LINE = 18.75;
const CODE_FRAME = 62;
const SHOW_ALL = 25;
/** Lines a folded block shows (code.css: --code-folded-lines). */
const FOLDED_LINES = 20;
/** What a reply has around its text (its toolbar, the gap below it); a thought-through reply's reasoning, folded. */
const REPLY_FRAME = 46;
const REASONING = 36;
/** A user's message: its bubble around one line, and the gap below it. */
const USER_FRAME = 51;
/** A reply's text column: the list's width less its margins, up to this many pixels. */
const REPLY_MARGINS = 51;
const REPLY_WIDTH = 621;
/** A user's bubble is at most 85% of the column, less its padding. */
const BUBBLE = 0.85;
const BUBBLE_PADDING = 24;
/** An average character of the page's sans-serif text at 13 px. */
const CHAR_WIDTH = 6.8;
/** No guess is taller than this (a reply of megabytes is measured when drawn, like any other). */
const MOST = 20_000;

/** The list's width when it is not known yet (the chat page's). */
const DEFAULT_WIDTH = 1_000;

/**
 * Each message's guess, kept with it (a message record is replaced, not changed, when its text
 * changes): the virtualiser asks again for every row not yet measured each time one is measured,
 * and a conversation of 1,000 replies would otherwise be read again as many times while it opens.
 */
const guesses = new WeakMap<Message, { width: number; height: number }>();

export function estimateHeight(message: Message, listWidth = DEFAULT_WIDTH): number {
  const kept = guesses.get(message);
  if (kept !== undefined && kept.width === listWidth) return kept.height;
  const height = guess(message, listWidth);
  guesses.set(message, { width: listWidth, height });
  return height;
}

function guess(message: Message, listWidth: number): number {
  const column = Math.min(Math.max(listWidth - REPLY_MARGINS, 200), REPLY_WIDTH);
  if (message.role === 'user') {
    const perLine = Math.max(10, Math.floor((column * BUBBLE - BUBBLE_PADDING) / CHAR_WIDTH));
    return Math.min(USER_FRAME + proseLines(message.text, perLine) * PROSE_LINE, MOST);
  }
  const perLine = Math.max(10, Math.floor(column / CHAR_WIDTH));
  const frame = REPLY_FRAME + (message.reasoning === '' ? 0 : REASONING);
  return Math.min(frame + textHeight(message.text, perLine), MOST);
}

/** Lines of wrapped text: each line of the source takes at least one. */
function proseLines(text: string, perLine: number): number {
  let lines = 0;
  for (let at = 0; at <= text.length;) {
    const end = lineEnd(text, at);
    lines += Math.max(1, Math.ceil((end - at) / perLine));
    at = end + 1;
  }
  return lines;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A reply's markdown, block by block: paragraphs by their wrapped lines, code blocks by their lines. */
function textHeight(text: string, perLine: number): number {
  let height = 0;
  let fence: string | undefined;
  let codeLines = 0;
  let inParagraph = false;
  const closeCode = (): void => {
    const folded = codeLines > FOLD_LINES;
    height += CODE_FRAME + (folded ? FOLDED_LINES : codeLines) * CODE_LINE + (folded ? SHOW_ALL : 0);
  };
  for (let at = 0; at <= text.length;) {
    const end = lineEnd(text, at);
    const line = text.slice(at, end);
    at = end + 1;
    if (fence !== undefined) {
      const mark = FENCE.exec(line)?.[1];
      if (mark !== undefined && mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) {
        closeCode();
        fence = undefined;
      } else {
        codeLines++;
      }
      continue;
    }
    const opens = FENCE.exec(line)?.[1];
    if (opens !== undefined) {
      fence = opens;
      codeLines = 0;
      inParagraph = false;
      continue;
    }
    if (line.trim() === '') {
      inParagraph = false;
      continue;
    }
    if (!inParagraph) height += PARAGRAPH;
    inParagraph = true;
    height += Math.max(1, Math.ceil(line.length / perLine)) * PROSE_LINE;
  }
  // A fence still open (a reply cut short) shows what came.
  if (fence !== undefined) closeCode();
  return height;
}

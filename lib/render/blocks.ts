/**
 * Cutting streamed markdown into top-level blocks so that finished blocks are parsed once:
 * a block ends at a blank line outside a fenced code block, unless the next line is indented
 * (a list item's continuation). A fenced code block opened at the margin is a block of its
 * own: it ends what came before it (a paragraph, list, quote or table, which such a fence always
 * interrupts) and its closing line ends it, so a long fence is never parsed with the text around
 * it and a page can draw it without a parser (`fencedBlock`). Every block but the last is final;
 * the last may still grow. Splitting is a linear scan from where the previous call
 * stopped, so appending a delta costs time in proportion to the delta, not the reply.
 */

export interface BlockSplit {
  /** Sources of the finished blocks, in order. */
  closed: string[];
  /** The block still being written (may be empty). */
  open: string;
}

interface FenceState {
  char: '`' | '~';
  length: number;
  /** Opened at the margin: its closing line ends the block. */
  atMargin: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * A copy of a part of a streamed text that does not keep the whole text alive. A slice of a
 * string points into it (V8), and a streamed reply is a new string of its full length every
 * frame: the finished blocks of a 2 MB markdown reply, kept as slices, held 515 MB (measured).
 */
export function ownCopy(part: string): string {
  return ` ${part}`.slice(1);
}

/** A line that opens a fence: after a backtick fence, the info string may hold no backtick (CommonMark). */
function opensFence(line: string, marks: string): boolean {
  return marks[0] !== '`' || !line.slice(line.indexOf(marks) + marks.length).includes('`');
}

/** A line that closes a fence opened with `char` × `length`: as many marks or more, nothing else. */
function closesFence(line: string, char: string, length: number): boolean {
  const marks = FENCE.exec(line)?.[1];
  return marks !== undefined && marks[0] === char && marks.length >= length && line.trim() === marks;
}

/**
 * How a streamed text came to be: it is `from` (the very string an earlier `split` was given)
 * with `added` after it. Told this, the splitter reads only `added`; any other read of a text made
 * by appending (a slice, a search) has the engine copy the whole of it into one string first
 * (V8 flattens a concatenation when it is read): a reply's size each frame, megabytes of garbage
 * over a long reply.
 */
export interface TextGrowth {
  from: string;
  added: string;
}

/**
 * Incremental splitter: feed it the whole text each time (it only reads what is new), with how
 * it grew from the text it was given last when that is known (`TextGrowth`: then it does not
 * read the whole text at all).
 */
export class MarkdownBlockSplitter {
  private readonly closed: string[] = [];
  /** Offset in the text where the open block starts. */
  private blockStart = 0;
  /** Offset of the first line not scanned yet. */
  private scanned = 0;
  /** The open block's lines scanned so far (the text from `blockStart` to `scanned`). */
  private head = '';
  /** The text from `scanned` on: its last line, which may still grow. */
  private rest = '';
  private fence: FenceState | undefined;
  /** Offset of a blank line that ends the block unless the next line is indented. */
  private pendingBreak: number | undefined;
  /** The text split last, and what that gave. */
  private last: string | undefined;
  private result: BlockSplit = { closed: this.closed, open: '' };

  split(text: string, grew?: TextGrowth): BlockSplit {
    if (text === this.last) return this.result;
    if (grew !== undefined && this.last !== undefined && grew.from === this.last) this.take(grew.added);
    else if (this.continues(text)) {
      this.rest = '';
      this.take(text.slice(this.scanned));
    } else {
      this.reset();
      this.take(text);
    }
    this.last = text;
    this.result = { closed: this.closed, open: this.head + this.rest };
    return this.result;
  }

  /** Scans `added`, the text that came after what was scanned (and the last line, `rest`). */
  private take(added: string): void {
    const now = this.rest + added;
    const lastNewline = now.lastIndexOf('\n');
    // The whole lines are the open block's (until a block ends among them: `closeAt`).
    if (lastNewline !== -1) this.head += now.slice(0, lastNewline + 1);
    let lineStart = 0;
    while (lineStart <= lastNewline) {
      const newline = now.indexOf('\n', lineStart);
      const line = now.slice(lineStart, newline);
      const start = this.scanned;
      this.scanned += newline + 1 - lineStart;
      this.scanLine(line, start);
      lineStart = newline + 1;
    }
    this.rest = now.slice(lineStart);
    // A partial last line's first character is final: if it is not indented, a pending
    // blank line has ended the block already.
    const partial = this.rest.charAt(0);
    if (this.pendingBreak !== undefined && partial !== '' && partial !== ' ' && partial !== '\t') this.closeAt(this.pendingBreak, this.scanned);
  }

  private scanLine(line: string, start: number): void {
    if (this.fence !== undefined) {
      if (closesFence(line, this.fence.char, this.fence.length)) {
        const next = start + line.length + 1;
        if (this.fence.atMargin) this.closeAt(next, next);
        this.fence = undefined;
      }
      return;
    }
    const found = FENCE.exec(line)?.[1];
    const fence = found !== undefined && opensFence(line, found) ? found : undefined;
    if (line.trim() === '') {
      this.pendingBreak ??= start;
      return;
    }
    if (this.pendingBreak !== undefined) {
      if (!/^[ \t]/.test(line)) this.closeAt(this.pendingBreak, start);
      this.pendingBreak = undefined;
    }
    if (fence !== undefined) {
      const atMargin = line.startsWith(fence);
      if (atMargin) this.closeAt(start, start);
      this.fence = { char: fence[0] as '`' | '~', length: fence.length, atMargin };
    }
  }

  private closeAt(end: number, nextStart: number): void {
    const block = this.head.slice(0, end - this.blockStart);
    if (block.trim() !== '') this.closed.push(ownCopy(block));
    this.head = this.head.slice(nextStart - this.blockStart);
    this.blockStart = nextStart;
    this.pendingBreak = undefined;
  }

  /** Whether `text` extends the text scanned so far (a cheap check near the boundary). */
  private continues(text: string): boolean {
    if (this.last === undefined || text.length < this.scanned) return false;
    const from = Math.max(0, this.scanned - 64);
    return text.slice(from, this.scanned) === this.last.slice(from, this.scanned);
  }

  private reset(): void {
    this.closed.length = 0;
    this.blockStart = 0;
    this.scanned = 0;
    this.head = '';
    this.rest = '';
    this.fence = undefined;
    this.pendingBreak = undefined;
  }
}

/** A block that is one fenced code block: its info string, its code, and whether its closing line came. */
export interface FencedBlock {
  info: string;
  /** The lines between the fence lines, each with its line end (as markdown-it gives a fence's content). */
  code: string;
  closed: boolean;
}

const MARGIN_FENCE = /^(?:`{3,}|~{3,})/;

/**
 * A block of `MarkdownBlockSplitter`'s that is one fenced code block opened at the margin, or
 * undefined. Only its first and last lines are read (the splitter ends such a block at its
 * closing line), so it costs the same for a fence of a few lines and of megabytes.
 */
export function fencedBlock(source: string): FencedBlock | undefined {
  const firstEnd = source.indexOf('\n');
  const first = firstEnd === -1 ? source : source.slice(0, firstEnd);
  const marks = MARGIN_FENCE.exec(first)?.[0];
  if (marks === undefined || !opensFence(first, marks)) return undefined;
  const info = first.slice(marks.length).trim();
  if (firstEnd === -1) return { info, code: '', closed: false };
  const body = source.slice(firstEnd + 1);
  let end = body.length;
  while (end > 0 && (body[end - 1] === '\n' || body[end - 1] === '\r')) end--;
  const lastStart = body.lastIndexOf('\n', end - 1) + 1;
  if (closesFence(body.slice(lastStart, end), marks[0]!, marks.length)) return { info, code: body.slice(0, lastStart), closed: true };
  return { info, code: body, closed: false };
}

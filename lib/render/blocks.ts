/**
 * Cutting streamed markdown into top-level blocks so that finished blocks are parsed once:
 * a block ends at a blank line outside a fenced code block, unless the next line is indented
 * (a list item's continuation). Every block but the last is final; the last may still grow. Splitting is a linear scan from where the previous call
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
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Incremental splitter: feed it the whole text each time (it only reads what is new). */
export class MarkdownBlockSplitter {
  private readonly closed: string[] = [];
  /** Offset in the text where the open block starts. */
  private blockStart = 0;
  /** Offset of the first line not scanned yet. */
  private scanned = 0;
  private fence: FenceState | undefined;
  /** Offset of a blank line that ends the block unless the next line is indented. */
  private pendingBreak: number | undefined;
  private text = '';

  split(text: string): BlockSplit {
    if (!this.continues(text)) this.reset();
    this.text = text;
    let lineStart = this.scanned;
    for (;;) {
      const newline = text.indexOf('\n', lineStart);
      if (newline === -1) break; // the last line may still grow
      const line = text.slice(lineStart, newline);
      this.scanLine(line, lineStart);
      lineStart = newline + 1;
    }
    this.scanned = lineStart;
    // A partial last line's first character is final: if it is not indented, a pending
    // blank line has ended the block already.
    const partial = text.charAt(lineStart);
    if (this.pendingBreak !== undefined && partial !== '' && partial !== ' ' && partial !== '\t') this.closeAt(this.pendingBreak, lineStart);
    return { closed: this.closed, open: text.slice(this.blockStart) };
  }

  private scanLine(line: string, start: number): void {
    const fence = FENCE.exec(line)?.[1];
    if (this.fence !== undefined) {
      if (fence !== undefined && fence[0] === this.fence.char && fence.length >= this.fence.length && line.trim() === fence) {
        this.fence = undefined;
      }
      return;
    }
    if (line.trim() === '') {
      this.pendingBreak ??= start;
      return;
    }
    if (this.pendingBreak !== undefined) {
      if (!/^[ \t]/.test(line)) this.closeAt(this.pendingBreak, start);
      this.pendingBreak = undefined;
    }
    if (fence !== undefined) this.fence = { char: fence[0] as '`' | '~', length: fence.length };
  }

  private closeAt(end: number, nextStart: number): void {
    const block = this.text.slice(this.blockStart, end);
    if (block.trim() !== '') this.closed.push(block);
    this.blockStart = nextStart;
    this.pendingBreak = undefined;
  }

  /** Whether `text` extends the text scanned so far (a cheap check near the boundary). */
  private continues(text: string): boolean {
    if (text.length < this.scanned) return false;
    const from = Math.max(0, this.scanned - 64);
    return text.slice(from, this.scanned) === this.text.slice(from, this.scanned);
  }

  private reset(): void {
    this.closed.length = 0;
    this.blockStart = 0;
    this.scanned = 0;
    this.fence = undefined;
    this.pendingBreak = undefined;
  }
}

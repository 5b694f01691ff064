/**
 * A long text that keeps growing, cut into pieces a page draws as elements of their own: a text
 * of megabytes in one element is laid out whole on every change (measured in Chromium: 670 ms a
 * frame for 2 MB of code, 900 ms for 2 MB of prose), while pieces that do not change are neither
 * laid out again nor, out of view, at all (`content-visibility: auto`), so a frame costs about
 * one piece (3 ms for 16 kB pieces of a 2 MB text).
 *
 * Pieces end at line ends (a line longer than a piece is cut), so each is whole lines. Every
 * piece but the last is final: the same string object from one call to the next while the text
 * only grows, so a memoised view skips it without comparing characters. Like the block splitter
 * it reads only what is new.
 */

import { ownCopy } from './blocks';

/** About this many characters a piece: a piece of 16 kB lays out in about 3 ms (Chromium, 2 cores). */
export const PIECE_CHARS = 16 * 1024;

export interface TextPiece {
  text: string;
  /** Its line ends, for the space it takes before it is first drawn. */
  lines: number;
}

export interface Pieces {
  /** Final pieces, in order. */
  done: readonly TextPiece[];
  /** The rest of the text, which may still grow. */
  last: string;
}

function lineEnds(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Incremental cutter: feed it the whole text each time (it only reads past the last final piece). */
export class TextPieces {
  private readonly done: TextPiece[] = [];
  /** Where the last, growing piece starts. */
  private doneEnd = 0;
  private text = '';

  constructor(private readonly size = PIECE_CHARS) {}

  cut(text: string): Pieces {
    if (!this.continues(text)) {
      this.done.length = 0;
      this.doneEnd = 0;
    }
    this.text = text;
    while (text.length - this.doneEnd > this.size) {
      let end = text.lastIndexOf('\n', this.doneEnd + this.size - 1) + 1;
      if (end <= this.doneEnd) {
        // One line longer than a piece: cut it, never inside a surrogate pair.
        end = this.doneEnd + this.size;
        const code = text.charCodeAt(end - 1);
        if (code >= 0xd800 && code <= 0xdbff) end++;
      }
      const piece = ownCopy(text.slice(this.doneEnd, end));
      this.done.push({ text: piece, lines: lineEnds(piece) });
      this.doneEnd = end;
    }
    return { done: this.done, last: text.slice(this.doneEnd) };
  }

  /** Whether `text` keeps the final pieces (a cheap check near their end, as the block splitter does). */
  private continues(text: string): boolean {
    if (text.length < this.doneEnd) return false;
    const from = Math.max(0, this.doneEnd - 64);
    return text.slice(from, this.doneEnd) === this.text.slice(from, this.doneEnd);
  }
}

/**
 * A reply's size cap, counted as its text and reasoning arrive (UTF-8 bytes of what the user
 * gets, not of the stream's JSON, which a long reply's deltas make many times larger).
 */
import type { StreamEvent } from './types';

/** UTF-8 bytes of a UTF-16 unit: a surrogate pair's 4 bytes count 2 a unit. */
function unitBytes(code: number): number {
  return code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 2 : 3;
}

/** How much of `text` fits in `maxBytes` of UTF-8: its length in bytes when all of it does, else the units of the longest prefix that does. */
function fitUtf8(text: string, maxBytes: number): { bytes: number; fits: boolean; units: number } {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const next = bytes + unitBytes(text.charCodeAt(i));
    if (next > maxBytes) {
      // Never half a surrogate pair.
      const code = text.charCodeAt(i - 1);
      return { bytes, fits: false, units: i > 0 && code >= 0xd800 && code <= 0xdbff ? i - 1 : i };
    }
    bytes = next;
  }
  return { bytes, fits: true, units: text.length };
}

/**
 * The head of a data-URI image in markdown, `![alt](data:image/…;base64,`: base64 follows it, up
 * to `)`. As the image extractor (lib/images/inline.ts) takes it: opened by `![`, its alt at most
 * 1,000 characters on one line; base64 after anything else is text the user gets, and counted.
 */
const IMAGE_HEAD = /!\[[^\]\n]{0,1000}\]\(data:image\/[\w.+-]{1,60}(?:;[\w.+-]{1,40}(?:=[^;,)\s]{0,80})?){0,5};base64,/i;
/** A character that is neither base64 (standard or URL-safe) nor whitespace. */
const NOT_BASE64 = /[^A-Za-z0-9+/=_\s-]/;
/** How much counted text is kept to find a head that a piece boundary split (longer than any head). */
const TAIL = 2000;

/**
 * Counts a reply's pieces against `maxBytes` as they arrive. The base64 of a data-URI image in
 * the text (`![image](data:image/png;base64,…)`, as image chat models answer) is not counted: it
 * is not text the user reads, it is taken out of the reply as an image, and one image may be
 * larger than the largest reply (the stream's own cap still bounds it). Everything else is.
 */
export class ReplyMeter {
  private used = 0;
  private inImage = false;
  /** The end of the text counted since the last image, where a head may have begun. */
  private tail = '';

  constructor(private readonly maxBytes: number) {}

  /**
   * Counts `events` (a batch, in order). Returns the bytes counted so far, or -1 once the cap was
   * passed: the piece that passes it is cut where it does, and what follows it dropped.
   */
  count(events: StreamEvent[]): number {
    if (this.used < 0) return -1;
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.type !== 'text' && event.type !== 'reasoning') continue;
      const cut = event.type === 'text' ? this.text(event.text) : this.plain(event.text, 0, event.text.length);
      if (cut !== undefined) {
        events[i] = { ...event, text: event.text.slice(0, cut) };
        events.length = cut > 0 ? i + 1 : i;
        this.used = -1;
        return -1;
      }
    }
    return this.used;
  }

  /** Counts `text[from, to)`; the units of `text` that fit when it passes the cap. */
  private plain(text: string, from: number, to: number): number | undefined {
    const fit = fitUtf8(from === 0 && to === text.length ? text : text.slice(from, to), this.maxBytes - this.used);
    if (!fit.fits) return from + fit.units;
    this.used += fit.bytes;
    return undefined;
  }

  private text(text: string): number | undefined {
    let pos = 0;
    while (pos < text.length) {
      if (this.inImage) {
        const close = text.indexOf(')', pos);
        const segment = close < 0 ? text.slice(pos) : text.slice(pos, close);
        // Not base64 after all (prose about the syntax): counted as the text it is.
        if (NOT_BASE64.test(segment)) this.inImage = false;
        else if (close < 0) return undefined;
        else {
          this.inImage = false;
          pos = close;
        }
        continue;
      }
      const rest = pos === 0 ? text : text.slice(pos);
      // Every head ends with a comma: a piece without one completes none.
      const match = rest.includes(',') ? IMAGE_HEAD.exec(this.tail + rest) : null;
      const end = match === null ? -1 : match.index + match[0].length - this.tail.length + pos;
      if (end <= pos) {
        const cut = this.plain(text, pos, text.length);
        if (cut !== undefined) return cut;
        this.tail = rest.length >= TAIL ? rest.slice(-TAIL) : (this.tail + rest).slice(-TAIL);
        return undefined;
      }
      const cut = this.plain(text, pos, end);
      if (cut !== undefined) return cut;
      this.tail = '';
      this.inImage = true;
      pos = end;
    }
    return undefined;
  }
}

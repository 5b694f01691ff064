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
 * Counts the reply's pieces against `maxBytes`, from `used` bytes. Returns the new count, or -1
 * when the cap was passed: the piece that passes it is cut where it does, and what follows it dropped.
 */
export function withinReplyCap(events: StreamEvent[], used: number, maxBytes: number): number {
  let total = used;
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event.type !== 'text' && event.type !== 'reasoning') continue;
    const fit = fitUtf8(event.text, maxBytes - total);
    if (!fit.fits) {
      events[i] = { ...event, text: event.text.slice(0, fit.units) };
      events.length = fit.units > 0 ? i + 1 : i;
      return -1;
    }
    total += fit.bytes;
  }
  return total;
}

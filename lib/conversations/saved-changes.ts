import type { Message } from './records';

/**
 * Whether two values read from storage hold the same plain data: objects and arrays compared
 * by their contents, strings, numbers, booleans and null by value. Anything else (a Blob, a
 * Date) counts as changed unless it is the same object.
 */
export function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => samePlainData(item, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && samePlainData(a[key], b[key]));
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether a conversation's messages read again from storage (`next`) differ from those read
 * before only in the text and reasoning of replies that stream on this page (`live`), still
 * streaming in both: what the background's saves of a streaming reply write, every few hundred
 * milliseconds, while the page shows the newer text from the run's own events. Also true when
 * nothing changed (a write to another conversation).
 */
export function onlyLiveTextMoved(before: readonly Message[], next: readonly Message[], live: (id: string) => boolean): boolean {
  if (before.length !== next.length) return false;
  return before.every((a, i) => {
    const b = next[i];
    if (b === undefined || a.id !== b.id) return false;
    if (a.status === 'streaming' && b.status === 'streaming' && live(a.id)) return samePlainData({ ...a, text: '', reasoning: '' }, { ...b, text: '', reasoning: '' });
    return samePlainData(a, b);
  });
}

/**
 * How often a streaming reply is saved. Each save rewrites the reply's whole text (IndexedDB
 * has no append), and every page watching the conversation reads it back. Measured in Chromium
 * through our store: a save of 1 MB takes 7.5 ms and each watching page's re-read 4.4 ms; 2 MB,
 * 18 + 10 ms; 8 MB, 38 + 23 ms. Every 500 ms, an 8 MB reply would cost the worker 75 ms and each
 * watching page 45 ms of every second, and rewrite 16 MB a second on disk.
 *
 * So the interval grows with the text: at most `SAVE_CHARS_PER_SECOND` rewritten a second on
 * average, whatever the size: at most about 18 ms of the worker's time a second (2 MB: 18 ms,
 * 8 MB: 9 ms) and 10 ms of a watching page's. A reply under 1 MB is saved every 500 ms as before;
 * 2 MB every second; 8 MB every 4 s.
 * What a dead worker had not saved yet is kept by the pages that watched it
 * (`keepInterruptedText`); with no page watching, a reply over 1 MB loses at most the text of
 * its last interval, instead of the last half second.
 */

/** Characters of streaming text rewritten a second, on average, at most. */
export const SAVE_CHARS_PER_SECOND = 2 * 1024 * 1024;

/** Milliseconds between saves of streaming text `chars` long (replies saved in one write counted together); never under `baseMs`. */
export function saveIntervalMs(chars: number, baseMs: number): number {
  return Math.max(baseMs, Math.ceil((chars / SAVE_CHARS_PER_SECOND) * 1000));
}

/** Whether replies written together are due for a save, `sinceMs` after their last one. */
export function saveDue(replies: readonly { text: string; reasoning: string }[], sinceMs: number, baseMs: number): boolean {
  const chars = replies.reduce((n, r) => n + r.text.length + r.reasoning.length, 0);
  return sinceMs >= saveIntervalMs(chars, baseMs);
}

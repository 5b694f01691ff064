/**
 * Reading a reply aloud (issue 32, item 1), without the page: its pieces (speech-text.ts) are
 * fetched one ahead of the one playing, so the first plays as soon as it arrives and the next is
 * ready when it ends; each piece's audio is kept for the session (`SpeechCache`), so reading a
 * reply again costs nothing; Stop ends the playing piece and cancels the fetch under way. The
 * page gives the speech call (`speak`: the gateway client's, or the browser's voices) and what
 * plays audio (`play`: an audio element, resolved when it ends).
 */

/** What a piece sounds like, as fetched once. */
export interface SpeechCache {
  get(key: string): Blob | undefined;
  set(key: string, audio: Blob): void;
}

/** The session's speech, newest kept, oldest dropped past `maxBytes` (about 20 MB unless set). */
export function speechCache(maxBytes = 20 * 1024 * 1024): SpeechCache {
  const kept = new Map<string, Blob>();
  let bytes = 0;
  return {
    get(key) {
      const audio = kept.get(key);
      if (audio !== undefined) {
        // Used again: the newest.
        kept.delete(key);
        kept.set(key, audio);
      }
      return audio;
    },
    set(key, audio) {
      const old = kept.get(key);
      if (old !== undefined) bytes -= old.size;
      kept.delete(key);
      kept.set(key, audio);
      bytes += audio.size;
      for (const [oldest, blob] of kept) {
        if (bytes <= maxBytes || kept.size <= 1) break;
        kept.delete(oldest);
        bytes -= blob.size;
      }
    },
  };
}

/**
 * `T` is what a piece's audio is: a Blob from the gateway, or (the browser's own voices, which
 * speak text themselves) the text.
 */
export interface ReadAloudOptions<T = Blob> {
  /** The pieces to say, in order. */
  pieces: readonly string[];
  /** What makes a piece's audio (the gateway's speech call): rejects with the reason. */
  speak(text: string, signal: AbortSignal): Promise<T>;
  /** Plays `audio`; resolves when it has ended, rejects when it cannot play; stops at once when `signal` aborts. */
  play(audio: T, signal: AbortSignal): Promise<void>;
  /** The session's audio, keyed by `keyOf(piece)` (which names the model, voice and speed too). */
  cache?: { get(key: string): T | undefined; set(key: string, audio: T): void };
  keyOf?(text: string): string;
  /** The piece now playing (its index), for the page to mark it. */
  onPiece?(index: number): void;
}

export type ReadAloudOutcome =
  | { outcome: 'done' }
  | { outcome: 'stopped' }
  /** A piece's audio could not be made or played: `at` is its index, `error` why. */
  | { outcome: 'failed'; at: number; error: unknown };

/** One reading of a reply: `done` says how it ended; `stop()` ends it. */
export interface Reading {
  readonly done: Promise<ReadAloudOutcome>;
  stop(): void;
}

export function readAloud<T = Blob>(options: ReadAloudOptions<T>): Reading {
  const controller = new AbortController();
  const { signal } = controller;
  const keyOf = options.keyOf ?? ((text: string) => text);

  /** A piece's audio: kept, or asked for (and kept once it arrives). */
  const audioOf = (index: number): Promise<T> => {
    const text = options.pieces[index]!;
    const key = keyOf(text);
    const kept = options.cache?.get(key);
    if (kept !== undefined) return Promise.resolve(kept);
    return options.speak(text, signal).then((audio) => {
      options.cache?.set(key, audio);
      return audio;
    });
  };

  const run = async (): Promise<ReadAloudOutcome> => {
    if (options.pieces.length === 0) return { outcome: 'done' };
    let next: Promise<T> = audioOf(0);
    for (let i = 0; i < options.pieces.length; i++) {
      let audio: T;
      try {
        audio = await next;
      } catch (error) {
        return signal.aborted ? { outcome: 'stopped' } : { outcome: 'failed', at: i, error };
      }
      if (signal.aborted) return { outcome: 'stopped' };
      // The next piece is asked for while this one plays (one ahead, no more).
      if (i + 1 < options.pieces.length) {
        next = audioOf(i + 1);
        // Its failure is told when its turn comes, not as an unhandled rejection now.
        next.catch(() => undefined);
      }
      options.onPiece?.(i);
      try {
        await options.play(audio, signal);
      } catch (error) {
        return signal.aborted ? { outcome: 'stopped' } : { outcome: 'failed', at: i, error };
      }
      if (signal.aborted) return { outcome: 'stopped' };
    }
    return { outcome: 'done' };
  };

  return { done: run(), stop: () => controller.abort() };
}

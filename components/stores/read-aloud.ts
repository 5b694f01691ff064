import { create } from 'zustand';
import type { Reading } from '@/lib/voice/read-aloud';
import type { SpeechCache } from '@/lib/voice/read-aloud';

/**
 * The page's one reading aloud (issue 32, "Read aloud"): which reply, which of its pieces is being
 * said (-1 while the first is asked for), how many there are, and whose voice says them. Starting
 * another reading stops this one; the views of replies read it to show Read aloud or Stop reading.
 */
export interface ReadAloudState {
  messageId: string | undefined;
  piece: number;
  pieces: number;
  via: 'gateway' | 'browser' | undefined;
}

export const useReadAloud = create<ReadAloudState>(() => ({ messageId: undefined, piece: -1, pieces: 0, via: undefined }));

let current: Reading | undefined;

/** What says the pieces, as lib/voice/read-aloud.ts takes it. */
export interface PageVoice<T> {
  via: 'gateway' | 'browser';
  speak(text: string, signal: AbortSignal): Promise<T>;
  play(audio: T, signal: AbortSignal): Promise<void>;
  keyOf(text: string): string;
  cache?: { get(key: string): T | undefined; set(key: string, audio: T): void };
}

/** Reads `pieces` of reply `messageId` with `voice`; `onFailed` hears why a reading failed. */
export async function startReading<T>(messageId: string, pieces: readonly string[], voice: PageVoice<T>, onFailed: (error: unknown) => void): Promise<void> {
  stopReading();
  const { readAloud } = await import('@/lib/voice/read-aloud');
  const reading = readAloud<T>({
    pieces,
    speak: voice.speak,
    play: voice.play,
    keyOf: voice.keyOf,
    ...(voice.cache === undefined ? {} : { cache: voice.cache }),
    onPiece: (piece) => {
      if (current === reading) useReadAloud.setState({ piece });
    },
  });
  current = reading;
  useReadAloud.setState({ messageId, piece: -1, pieces: pieces.length, via: voice.via });
  const ended = await reading.done;
  if (current !== reading) return;
  current = undefined;
  useReadAloud.setState({ messageId: undefined, piece: -1, pieces: 0, via: undefined });
  if (ended.outcome === 'failed') onFailed(ended.error);
}

/** Stops the reading under way, if any. */
export function stopReading(): void {
  const reading = current;
  current = undefined;
  reading?.stop();
  if (reading !== undefined) useReadAloud.setState({ messageId: undefined, piece: -1, pieces: 0, via: undefined });
}

/** The session's speech, for every reply read on this page (replaying one costs nothing). */
let cache: SpeechCache | undefined;
export async function sessionSpeech(): Promise<SpeechCache> {
  const { speechCache } = await import('@/lib/voice/read-aloud');
  cache ??= speechCache();
  return cache;
}

/**
 * Plays audio through an `audio` element kept in the page while it plays (hidden; marked
 * `data-read-aloud` for tests): resolves when it has ended, rejects when it cannot be played,
 * stops and goes at once on `signal`.
 */
export function playAudio(audio: Blob, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const url = URL.createObjectURL(audio);
    const element = document.createElement('audio');
    element.hidden = true;
    element.dataset.readAloud = '';
    element.src = url;
    const finish = (): void => {
      signal.removeEventListener('abort', onAbort);
      element.pause();
      element.remove();
      URL.revokeObjectURL(url);
    };
    const onAbort = (): void => {
      finish();
      resolve();
    };
    element.addEventListener('ended', () => {
      finish();
      resolve();
    }, { once: true });
    element.addEventListener('error', () => {
      finish();
      reject(new Error('audio_unplayable'));
    }, { once: true });
    signal.addEventListener('abort', onAbort, { once: true });
    document.body.append(element);
    element.play().catch((error: unknown) => {
      if (signal.aborted) return;
      finish();
      reject(error);
    });
  });
}

/** Says `text` with the browser's own voice (speechSynthesis), in `lang`: resolves when it has been said. */
export function sayWithBrowser(text: string, signal: AbortSignal, lang: string | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const utterance = new SpeechSynthesisUtterance(text);
    if (lang !== undefined) utterance.lang = lang;
    const onAbort = (): void => {
      speechSynthesis.cancel();
      resolve();
    };
    utterance.onend = () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    utterance.onerror = (event) => {
      signal.removeEventListener('abort', onAbort);
      if (event.error === 'canceled' || event.error === 'interrupted') resolve();
      else reject(new Error(`speech_${event.error}`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    speechSynthesis.speak(utterance);
  });
}

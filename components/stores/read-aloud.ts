import { create } from 'zustand';
import type { ReadAloudOptions, Reading } from '@/lib/voice/read-aloud';

/**
 * The page's one reading aloud (issue 32, "Read aloud"): which reply, which of its pieces is being
 * said (-1 while the first is asked for), how many there are, and whose voice says them. Starting
 * another reading stops this one; the views of replies read it to show Read aloud or Stop reading.
 * (What reads is loaded on the first Read aloud: components/chat/read-aloud-start.ts.)
 */
export interface ReadAloudState {
  messageId: string | undefined;
  piece: number;
  pieces: number;
  via: 'gateway' | 'browser' | undefined;
  /** The piece being said (for the reply to mark it), empty while none is. */
  said: string;
  /** The gateway's speech model reading it (its price, where the gateway lists one, is shown). */
  model?: string | undefined;
  /** Pieces asked of the gateway so far: each is one call (replayed ones cost nothing and are not counted). */
  calls: number;
}

const IDLE: ReadAloudState = { messageId: undefined, piece: -1, pieces: 0, via: undefined, said: '', calls: 0 };

export const useReadAloud = create<ReadAloudState>(() => IDLE);

let current: Reading | undefined;

/** What says the pieces, as lib/voice/read-aloud.ts takes it, and whose voice it is. */
export type PageVoice<T> = Omit<ReadAloudOptions<T>, 'pieces' | 'onPiece'> & { via: 'gateway' | 'browser'; model?: string };

/** Reads `pieces` of reply `messageId` with `voice` (through `read`: lib/voice/read-aloud.ts); `onFailed` hears why a reading failed. */
export async function startReading<T>(messageId: string, read: <U>(options: ReadAloudOptions<U>) => Reading, pieces: readonly string[], voice: PageVoice<T>, onFailed: (error: unknown) => void): Promise<void> {
  stopReading();
  const { via, model, ...options } = voice;
  // Each piece the voice asks for is one call to the gateway (a replay from the cache is none).
  const speak = options.speak;
  let calls = 0;
  // The reading, once `read` has given it (it may ask for the first piece before it returns).
  const own: { reading?: Reading } = {};
  const counted: typeof speak = (input, signal) => {
    calls++;
    if (own.reading !== undefined && current === own.reading) useReadAloud.setState({ calls });
    return speak(input, signal);
  };
  const reading = read<T>({
    ...options,
    speak: counted,
    pieces,
    onPiece: (piece) => {
      if (current === reading) useReadAloud.setState({ piece, said: pieces[piece] ?? '' });
    },
  });
  current = reading;
  own.reading = reading;
  useReadAloud.setState({ messageId, piece: -1, pieces: pieces.length, via, said: '', model, calls });
  const ended = await reading.done;
  if (current !== reading) return;
  current = undefined;
  useReadAloud.setState(IDLE);
  if (ended.outcome === 'failed') onFailed(ended.error);
}

/** Stops the reading under way, if any. */
export function stopReading(): void {
  const reading = current;
  current = undefined;
  reading?.stop();
  if (reading !== undefined) useReadAloud.setState(IDLE);
}

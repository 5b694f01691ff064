/**
 * Reading a reply aloud (issue 32, item 1): the first piece plays as soon as it arrives, the next
 * is fetched while it plays (one ahead), Stop ends playback and cancels the fetch under way, a
 * failure says which piece and why, and a reply read again costs no request.
 */
import { describe, expect, it } from 'vitest';
import { readAloud, speechCache } from '@/lib/voice/read-aloud';

/** A speech call and a player whose timing the test decides. */
function fakes() {
  const log: string[] = [];
  const requests: { text: string; resolve(): void; reject(e: unknown): void; signal: AbortSignal }[] = [];
  const playing: { text: string; end(): void; signal: AbortSignal }[] = [];
  return {
    log,
    requests,
    playing,
    speak(text: string, signal: AbortSignal): Promise<Blob> {
      log.push(`ask ${text}`);
      return new Promise((resolve, reject) => {
        requests.push({ text, resolve: () => resolve(new Blob([text], { type: 'audio/wav' })), reject, signal });
        signal.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError')));
      });
    },
    play(audio: Blob, signal: AbortSignal): Promise<void> {
      return audio.text().then((text) => new Promise<void>((resolve) => {
        log.push(`play ${text}`);
        playing.push({ text, end: resolve, signal });
        signal.addEventListener('abort', () => resolve());
      }));
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** A reading of two pieces, its first arrived and playing (the second asked for). */
async function playingFirstOfTwo() {
  const f = fakes();
  const reading = readAloud({ pieces: ['One.', 'Two.'], speak: f.speak, play: f.play });
  await tick();
  f.requests[0]!.resolve();
  await tick();
  await tick();
  return { f, reading };
}

describe('readAloud', () => {
  it('plays the first piece once it arrives, asks for the next while it plays, one ahead, in order', async () => {
    const f = fakes();
    const pieces: number[] = [];
    const reading = readAloud({ pieces: ['One.', 'Two.', 'Three.'], speak: f.speak, play: f.play, onPiece: (i) => pieces.push(i) });
    await tick();
    expect(f.log).toEqual(['ask One.']);
    f.requests[0]!.resolve();
    await tick();
    await tick();
    // Playing the first, the second is asked for; not the third.
    expect(f.log).toEqual(['ask One.', 'ask Two.', 'play One.']);
    f.requests[1]!.resolve();
    f.playing[0]!.end();
    await tick();
    await tick();
    expect(f.log.slice(3)).toEqual(['ask Three.', 'play Two.']);
    f.requests[2]!.resolve();
    f.playing[1]!.end();
    await tick();
    await tick();
    f.playing[2]!.end();
    expect(await reading.done).toEqual({ outcome: 'done' });
    expect(pieces).toEqual([0, 1, 2]);
  });

  it('Stop ends the piece playing and cancels the one being fetched', async () => {
    const { f, reading } = await playingFirstOfTwo();
    reading.stop();
    expect(await reading.done).toEqual({ outcome: 'stopped' });
    expect(f.playing[0]!.signal.aborted).toBe(true);
    expect(f.requests[1]!.signal.aborted).toBe(true);
    expect(f.log).not.toContain('play Two.');
  });

  it('a piece that cannot be made says which and why, after what played', async () => {
    const { f, reading } = await playingFirstOfTwo();
    const refused = new Error('insufficient balance');
    f.requests[1]!.reject(refused);
    f.playing[0]!.end();
    expect(await reading.done).toEqual({ outcome: 'failed', at: 1, error: refused });
    expect(f.log).toContain('play One.');
  });

  it('a reply read again is played from the session\'s audio: no request', async () => {
    const cache = speechCache();
    const asked: string[] = [];
    const speak = async (text: string) => {
      asked.push(text);
      return new Blob([text], { type: 'audio/wav' });
    };
    const play = async () => undefined;
    const keyOf = (text: string) => `tts-1|alloy|1|${text}`;
    expect(await readAloud({ pieces: ['A.', 'B.'], speak, play, cache, keyOf }).done).toEqual({ outcome: 'done' });
    expect(await readAloud({ pieces: ['A.', 'B.'], speak, play, cache, keyOf }).done).toEqual({ outcome: 'done' });
    expect(asked).toEqual(['A.', 'B.']);
    // Another voice is other audio.
    await readAloud({ pieces: ['A.'], speak, play, cache, keyOf: (text) => `tts-1|nova|1|${text}` }).done;
    expect(asked).toEqual(['A.', 'B.', 'A.']);
  });

  it('the session\'s audio keeps the newest within its size', () => {
    const cache = speechCache(10);
    cache.set('a', new Blob(['12345']));
    cache.set('b', new Blob(['12345']));
    expect(cache.get('a')?.size).toBe(5);
    cache.set('c', new Blob(['12345']));
    // 'a' was used after 'b': 'b' is the oldest, and goes.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
  });
});

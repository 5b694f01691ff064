/**
 * A streaming reply is saved as it arrives, but a long one is not rewritten whole every half
 * second (issue 28, item 5): what a save rewrites stays about 2 MB a second, whatever the size.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GatewayClient, StreamEvent } from '@/lib/gateway';
import { ConversationStore } from '@/lib/conversations/store';
import { RunManager } from '@/lib/runs/run-manager';
import { SAVE_CHARS_PER_SECOND, saveDue, saveIntervalMs } from '@/lib/runs/save-policy';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { NO_AUDIO, NO_IMAGES } from '../gateway/no-images';

const MB = 1024 * 1024;

describe('saveIntervalMs', () => {
  it('half a second up to 1 MB, as before; then in proportion: 2 MB every second, 8 MB every 4 s', () => {
    expect(saveIntervalMs(0, 500)).toBe(500);
    expect(saveIntervalMs(MB, 500)).toBe(500);
    expect(saveIntervalMs(2 * MB, 500)).toBe(1000);
    expect(saveIntervalMs(8 * MB, 500)).toBe(4000);
  });

  it('what a save rewrites a second stays under the budget at any size', () => {
    for (let chars = 0; chars <= 16 * MB; chars += 64 * 1024) {
      expect(chars / (saveIntervalMs(chars, 500) / 1000), `${chars}`).toBeLessThanOrEqual(SAVE_CHARS_PER_SECOND);
    }
  });

  it('replies saved together (a comparison) count together', () => {
    const reply = { text: 'x'.repeat(MB), reasoning: '' };
    expect(saveDue([reply], 600, 500)).toBe(true);
    expect(saveDue([reply, { ...reply, reasoning: 'y'.repeat(MB) }, reply], 600, 500)).toBe(false);
    expect(saveDue([reply, reply, reply], 1600, 500)).toBe(true);
  });
});

describe('a streaming reply in the run manager', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /**
   * Streams `count` equal pieces of text, the clock moving `everyMs` before each (a reply
   * arriving at a steady pace), and returns the sizes of the texts the streaming saves wrote.
   */
  async function savedSizes(piece: string, count: number, everyMs: number): Promise<number[]> {
    let clock = 1_000_000;
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const client: GatewayClient = {
      baseUrl: 'x', siteUrl: 'x',
      listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
      async *streamChat() {
        for (let i = 0; i < count; i++) {
          clock += everyMs;
          yield { type: 'text', text: piece } satisfies StreamEvent;
        }
        yield { type: 'done' } satisfies StreamEvent;
      },
    };
    const store = new ConversationStore(`save-policy-${Math.random()}`);
    const written: number[] = [];
    const real = store.updateMessageTexts.bind(store);
    store.updateMessageTexts = async (texts) => {
      written.push(texts.reduce((n, t) => n + t.text.length + t.reasoning.length, 0));
      return real(texts);
    };
    const settings: Settings = { ...defaultSettings(), profiles: [{ id: 'p1', name: 'p', siteUrl: 'x', baseUrl: 'x', apiKey: 'k', apiStyle: 'chat', defaultModel: 'm', confirmedImageModels: [] }], activeProfileId: 'p1' };
    const runs = new RunManager({ store, loadSettings: async () => settings, clientFor: () => client });
    const { messageId } = await runs.start({ surface: 'popup', text: 'write a long file' });
    await runs.whenIdle();
    expect((await store.getMessage(messageId))?.text).toBe(piece.repeat(count));
    return written;
  }

  /** The clock's time of each save after the start (a save writes what had arrived by then). */
  const times = (sizes: number[], piece: string, everyMs: number): number[] => sizes.map((chars) => (chars / piece.length) * everyMs);

  it('a short reply is saved every half second, as before', async () => {
    const piece = 'a few words ';
    const at = times(await savedSizes(piece, 40, 100), piece, 100);
    expect(at).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000]);
  });

  it('an 8 MB reply over 16 s rewrites under 2 MB a second, not 8, and is never left unsaved longer than its interval', async () => {
    const piece = `${'0123456789abcdef'.repeat(16 * 1024 - 1)}0123456789abcde\n`;
    const sizes = await savedSizes(piece, 32, 500);
    // A save every half second would rewrite 32 saves of 4 MB on average: 132 MB.
    expect(sizes.reduce((n, chars) => n + chars, 0)).toBeLessThanOrEqual(SAVE_CHARS_PER_SECOND * 16);
    const at = times(sizes, piece, 500);
    expect(at.length).toBeGreaterThanOrEqual(8);
    at.forEach((time, i) => {
      // Due once the interval for its size has passed: the next piece to arrive is saved.
      expect(time - (at[i - 1] ?? 0), `save ${i}`).toBeLessThanOrEqual(saveIntervalMs(sizes[i]!, 500) + 500);
    });
  });
});

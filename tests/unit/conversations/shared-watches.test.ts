import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedWatches, type StartWatch } from '@/lib/conversations/shared-watches';
import { ConversationStore } from '@/lib/conversations/store';
import type { Message } from '@/lib/conversations/records';

/** A source whose values the test pushes, counting the queries started and stopped. */
function source() {
  const live = new Map<string, { next(v: string): void; fail(e: unknown): void }>();
  const counts = { started: 0, stopped: 0 };
  const start: StartWatch<string> = (key, next, fail) => {
    counts.started++;
    live.set(key, { next, fail });
    return () => {
      counts.stopped++;
      live.delete(key);
    };
  };
  return { start, live, counts };
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
});

describe('shared watches: one query per key, however many watch it', () => {
  it('two watchers of one key share one query, and it stops when the last leaves', () => {
    const { start, live, counts } = source();
    const watches = new SharedWatches(start);
    const a: string[] = [];
    const b: string[] = [];
    const stopA = watches.watch('c1', (v) => a.push(v), () => undefined);
    const stopB = watches.watch('c1', (v) => b.push(v), () => undefined);
    expect(counts.started).toBe(1);
    live.get('c1')!.next('one');
    expect([a, b]).toEqual([['one'], ['one']]);
    stopA();
    expect(counts.stopped).toBe(0);
    stopB();
    expect(counts.stopped).toBe(1);
  });

  it('a watcher joining later gets the newest value at once (asynchronously), then the next ones', async () => {
    const { start, live } = source();
    const watches = new SharedWatches(start);
    const stopFirst = watches.watch('c1', () => undefined, () => undefined);
    live.get('c1')!.next('saved');
    const late: string[] = [];
    const stopLate = watches.watch('c1', (v) => late.push(v), () => undefined);
    // Not during the call: a watcher is set up before it hears anything, as with a fresh query.
    expect(late).toEqual([]);
    await flush();
    expect(late).toEqual(['saved']);
    live.get('c1')!.next('newer');
    expect(late).toEqual(['saved', 'newer']);
    stopFirst();
    stopLate();
  });

  it('a hold starts the query before its watcher comes, and lets it go after its time when none came', () => {
    vi.useFakeTimers();
    const { start, counts } = source();
    const watches = new SharedWatches(start);
    watches.hold('c1', 5_000);
    expect(counts.started).toBe(1);
    vi.advanceTimersByTime(4_999);
    expect(counts.stopped).toBe(0);
    vi.advanceTimersByTime(1);
    expect(counts.stopped).toBe(1);
  });

  it('a watcher that comes during the hold joins its query, which outlives the hold', () => {
    vi.useFakeTimers();
    const { start, counts } = source();
    const watches = new SharedWatches(start);
    watches.hold('c1', 5_000);
    const stop = watches.watch('c1', () => undefined, () => undefined);
    vi.advanceTimersByTime(10_000);
    expect(counts).toEqual({ started: 1, stopped: 0 });
    stop();
    expect(counts).toEqual({ started: 1, stopped: 1 });
  });

  it('a failed query reaches its watchers, and the next watcher starts it again', () => {
    const { start, live, counts } = source();
    const watches = new SharedWatches(start);
    const failures: unknown[] = [];
    const stop = watches.watch('c1', () => undefined, (e) => failures.push(e));
    live.get('c1')!.fail(new Error('blocked'));
    expect(failures).toHaveLength(1);
    const again = watches.watch('c1', () => undefined, () => undefined);
    expect(counts.started).toBe(2);
    stop();
    again();
  });
});

describe('opening a conversation reads its messages once, from the press on', () => {
  const message = (i: number): Message => ({ id: `m${i}`, conversationId: 'c', seq: i, role: i % 2 === 0 ? 'user' : 'assistant', text: `text ${i}`, reasoning: '', status: 'complete', createdAt: i });

  it('a preload and the view that watches after it get the same messages, and the view hears later writes', async () => {
    const store = new ConversationStore('shared-watches-store');
    await store.addTurn({ conversation: { id: 'c', profileId: 'p', model: 'm', surface: 'chat', title: 't', createdAt: 1, updatedAt: 1 }, created: true, messages: [message(0), message(1)] });
    store.preloadMessages('c');
    const seen: string[][] = [];
    let heard: () => void = () => undefined;
    const stop = store.watchMessages('c', (messages) => {
      seen.push(messages.map((m) => m.id));
      heard();
    }, (error) => {
      throw error;
    });
    await new Promise<void>((resolve) => { heard = resolve; });
    expect(seen[0]).toEqual(['m0', 'm1']);
    const more = new Promise<void>((resolve) => {
      heard = () => {
        if (seen.at(-1)!.length === 4) resolve();
      };
    });
    await store.addTurn({ conversation: { id: 'c', profileId: 'p', model: 'm', surface: 'chat', title: 't', createdAt: 1, updatedAt: 2 }, created: false, messages: [message(2), message(3)] });
    await more;
    expect(seen.at(-1)).toEqual(['m0', 'm1', 'm2', 'm3']);
    stop();
    store.close();
  });
});

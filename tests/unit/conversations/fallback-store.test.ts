import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { withMemoryFallback } from '@/lib/conversations/fallback-store';
import { openOrRefuse } from '@/lib/conversations/open';
import { storeProblem } from '@/lib/conversations/problems';
import { ConversationStore } from '@/lib/conversations/store';
import type { ChatRequest, GatewayClient } from '@/lib/gateway';
import { RunManager } from '@/lib/runs/run-manager';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { NO_AUDIO, NO_IMAGES } from '../gateway/no-images';

const conversation = { profileId: 'p', model: 'm', surface: 'popup' as const, title: 'kept in memory' };
let n = 0;
const fresh = (): string => `fallback-test-${n++}`;

/**
 * Another connection takes the database to a far higher version and leaves none of the tables
 * this build reads (`keep`: leaves them). Dexie 4 opens a database at whatever higher version it
 * finds, and adds back tables it misses when others are there: only one left without any fails.
 */
function upgradeElsewhere(name: string, { keep = false } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1000);
    open.onupgradeneeded = () => {
      if (!keep) for (const store of [...open.result.objectStoreNames]) open.result.deleteObjectStore(store);
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      open.result.close();
      resolve();
    };
  });
}

/** This build's database, with one conversation in it. */
async function saved(name: string): Promise<string> {
  const store = new ConversationStore(name);
  const { id } = await store.createConversation({ ...conversation, title: 'saved for real' });
  store.close();
  return id;
}

/** A connection to an older version that stays open and never answers `versionchange`. */
function holdOpen(name: string): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => resolve(open.result);
  });
}

/** The object stores the real database has (none written by the store when it fell back). */
function storesOf(name: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const names = [...open.result.objectStoreNames];
      open.result.close();
      resolve(names);
    };
  });
}

describe('the background\'s store when the database will not open', () => {
  it('a database at a higher version without our tables: conversations are kept in memory, and why is said once', async () => {
    const name = fresh();
    await saved(name);
    await upgradeElsewhere(name);
    // As the pages see it: the store itself refuses, naming a newer version (to every caller at once).
    const page = new ConversationStore(name);
    const answers = await Promise.allSettled([page.open(), page.open(), page.open()]);
    expect(answers.map((a) => (a.status === 'rejected' ? storeProblem(a.reason).problem : a.status))).toEqual(['newer_version', 'newer_version', 'newer_version']);
    await expect(page.latestConversation('popup')).rejects.toBeDefined();
    const onFallback = vi.fn();
    const store = withMemoryFallback({ name, onFallback });
    const created = await store.createConversation(conversation);
    await store.addMessage({ id: 'u1', conversationId: created.id, seq: 0, role: 'user', text: 'hello', reasoning: '', status: 'complete', createdAt: 1 });
    expect((await store.getConversation(created.id))?.title).toBe('kept in memory');
    expect((await store.messages(created.id)).map((m) => m.text)).toEqual(['hello']);
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect(onFallback.mock.calls[0]![0]).toMatchObject({ problem: 'newer_version' });
    // Nothing went to the real database: it is as the other connection left it.
    expect(await storesOf(name)).toEqual([]);
    store.close();
  });

  it('a higher version that still has our tables is simply used (nothing falls back)', async () => {
    const name = fresh();
    const id = await saved(name);
    await upgradeElsewhere(name, { keep: true });
    const onFallback = vi.fn();
    const store = withMemoryFallback({ name, onFallback });
    expect((await store.getConversation(id))?.title).toBe('saved for real');
    expect(onFallback).not.toHaveBeenCalled();
    store.close();
  });

  it('a database upgraded under it by another connection: the calls after go to memory', async () => {
    const name = fresh();
    const onFallback = vi.fn();
    const store = withMemoryFallback({ name, onFallback });
    const before = await store.createConversation({ ...conversation, title: 'saved for real' });
    expect(onFallback).not.toHaveBeenCalled();
    // Dexie closes its connection on `versionchange`, so that the upgrade proceeds; reopening then fails.
    await upgradeElsewhere(name);
    const after = await store.createConversation({ ...conversation, title: 'after the upgrade' });
    expect(onFallback).toHaveBeenCalledTimes(1);
    expect((await store.getConversation(after.id))?.title).toBe('after the upgrade');
    // What was saved before is not read any more (it is not in memory).
    expect(await store.getConversation(before.id)).toBeUndefined();
    store.close();
  });

  it('a blocked open is refused at once (the pages say so), and the background keeps going in memory', async () => {
    const [name, other] = [fresh(), fresh()];
    const holders = await Promise.all([holdOpen(name), holdOpen(other)]);
    try {
      const page = new ConversationStore(name);
      const failure = await page.open().then(() => 'opened', (error: unknown) => error);
      expect(storeProblem(failure).problem).toBe('blocked');
      // A page's live list hears it too, instead of waiting for ever.
      const heard = await new Promise<unknown>((resolve) => page.watchConversations(() => resolve('a list'), resolve));
      expect(storeProblem(heard).problem).toBe('blocked');
      // Another context's open waits behind the blocked one, told nothing: refused at its deadline.
      const queued = new Dexie(name);
      queued.version(3).stores({ conversations: 'id' });
      const late = await openOrRefuse(queued, 300).then(() => 'opened', (error: unknown) => error);
      expect(storeProblem(late).problem).toBe('blocked');
      const onFallback = vi.fn();
      const store = withMemoryFallback({ name: other, onFallback });
      const created = await store.createConversation(conversation);
      expect((await store.getConversation(created.id))?.title).toBe('kept in memory');
      expect(onFallback.mock.calls[0]![0]).toMatchObject({ problem: 'blocked' });
      for (const s of [page, queued, store]) s.close();
    } finally {
      for (const holder of holders) holder.close();
    }
  });

  it('a run streams and a follow-up carries the conversation so far (from memory)', async () => {
    const name = fresh();
    await upgradeElsewhere(name);
    const requests: ChatRequest[] = [];
    const client: GatewayClient = {
      baseUrl: 'x', siteUrl: 'x',
      listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
      async *streamChat(request) {
        requests.push(request);
        const last = request.messages.at(-1)!.content;
        yield { type: 'text', text: `Echo: ${typeof last === 'string' ? last : ''}` };
        yield { type: 'done', finishReason: 'stop' };
      },
    };
    const store = withMemoryFallback({ name });
    const profile = { id: 'p1', name: 'P', siteUrl: 'https://gw.example', baseUrl: 'https://gw.example/v1', apiKey: 'sk-test-0123456789', apiStyle: 'chat' as const, defaultModel: 'echo-1', confirmedImageModels: [] };
    const settings: Settings = { ...defaultSettings(), profiles: [profile], activeProfileId: 'p1' };
    const runs = new RunManager({ store, loadSettings: async () => settings, clientFor: () => client, ready: store.markStreamingInterrupted().catch(() => undefined) });
    const first = await runs.start({ surface: 'popup', text: 'first question' });
    await runs.whenIdle();
    await runs.start({ surface: 'popup', conversationId: first.conversationId, text: 'and a follow-up' });
    await runs.whenIdle();
    expect(requests.at(-1)?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'first question'],
      ['assistant', 'Echo: first question'],
      ['user', 'and a follow-up'],
    ]);
    expect((await store.messages(first.conversationId)).map((m) => [m.text, m.status])).toEqual([
      ['first question', 'complete'], ['Echo: first question', 'complete'], ['and a follow-up', 'complete'], ['Echo: and a follow-up', 'complete'],
    ]);
    store.close();
  });
});

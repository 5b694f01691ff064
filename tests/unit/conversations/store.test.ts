import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { recordActionRefusal } from '@/lib/actions/run-action';
import { ConversationStore, storeProblem } from '@/lib/conversations/store';
import { defaultSettings } from '@/lib/settings/schema';
import { wordsFor } from '@/lib/i18n/messages';

let n = 0;
const fresh = (): { store: ConversationStore; name: string } => {
  const name = `store-test-${n++}`;
  return { store: new ConversationStore(name), name };
};

describe('conversation store failures are shown, not swallowed', () => {
  it('rows that cannot be read are counted, not silently dropped', async () => {
    const { store, name } = fresh();
    await store.createConversation({ id: 'good', profileId: 'p', model: 'm', surface: 'popup', title: 'fine' });
    const raw = new Dexie(name);
    raw.version(1).stores({ conversations: 'id, updatedAt, surface', messages: 'id, conversationId, [conversationId+seq], status' });
    await raw.table('conversations').put({ id: 'bad', updatedAt: 5, title: 42 });
    raw.close();
    const seen = await new Promise<{ ids: string[]; unreadable: number }>((resolve, reject) => {
      const stop = store.watchConversations((list, unreadable) => {
        stop();
        resolve({ ids: list.map((c) => c.id), unreadable });
      }, reject);
    });
    expect(seen).toEqual({ ids: ['good'], unreadable: 1 });
  });

  it('a database the browser will not open reaches onError as unavailable (not an empty list)', async () => {
    const real = Dexie.dependencies.indexedDB;
    // As a browser that blocks IndexedDB does: the open request fails with an error event.
    const refusing = {
      open: () => {
        const request: { error: DOMException; onerror?: (event: unknown) => void } = { error: new DOMException('The user denied permission to access the database.', 'SecurityError') };
        setTimeout(() => request.onerror?.({ target: request, type: 'error', preventDefault() {}, stopPropagation() {} }));
        return request;
      },
      deleteDatabase: () => undefined,
      cmp: real?.cmp.bind(real),
    } as unknown as IDBFactory;
    Dexie.dependencies.indexedDB = refusing;
    try {
      const { store } = fresh();
      const failure = await new Promise<unknown>((resolve) => {
        store.watchConversations(() => resolve('no error'), resolve);
      });
      expect(failure).not.toBe('no error');
      expect(storeProblem(failure).problem).toBe('unavailable');
    } finally {
      Dexie.dependencies.indexedDB = real;
    }
  });

  it('names a full disk and a missing IndexedDB', () => {
    expect(storeProblem(new DOMException('full', 'QuotaExceededError')).problem).toBe('quota');
    expect(storeProblem(Object.assign(new Error('x'), { name: 'MissingAPIError' })).problem).toBe('unavailable');
  });
});

describe('an action that fails after creating its conversation', () => {
  it('lands its refusal in that conversation instead of failing on a second create', async () => {
    const { store } = fresh();
    await store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'action', title: 'Summarise: page' });
    await store.addMessage({ id: 'u1', conversationId: 'c1', seq: 0, role: 'user', text: 'quoted page', reasoning: '', status: 'complete', createdAt: 1 });
    await recordActionRefusal(store, defaultSettings(), 'c1', { problem: 'internal', params: { detail: 'QuotaExceededError' } }, wordsFor('en'));
    const messages = await store.messages('c1');
    expect(messages.map((m) => [m.seq, m.notice])).toEqual([[0, undefined], [1, { code: 'action_refused', params: { problem: 'internal', detail: 'QuotaExceededError' } }]]);
    expect((await store.getConversation('c1'))?.title).toBe('Summarise: page');
  });

  it('creates the conversation when the start failed before it', async () => {
    const { store } = fresh();
    await recordActionRefusal(store, defaultSettings(), 'c2', { problem: 'empty', params: { target: 'selection' } }, wordsFor('en'));
    expect((await store.getConversation('c2'))?.title).toBe('Action not run');
    expect((await store.messages('c2'))[0]?.notice).toEqual({ code: 'action_refused', params: { problem: 'empty', target: 'selection' } });
  });
});

describe('the conversation list sees each conversation\'s newest reply state', () => {
  it('streaming while it streams; then complete, stopped or interrupted (a worker restart, an Undo)', async () => {
    const { store } = fresh();
    await store.createConversation({ id: 'c', profileId: 'p', model: 'm', surface: 'popup', title: 't' });
    await store.addMessage({ id: 'u', conversationId: 'c', seq: 0, role: 'user', text: 'hi', reasoning: '', status: 'complete', createdAt: 1 });
    expect((await store.getConversation('c'))?.replyStatus).toBeUndefined();
    await store.addMessage({ id: 'a', conversationId: 'c', seq: 1, role: 'assistant', text: '', reasoning: '', status: 'streaming', createdAt: 2 });
    expect((await store.getConversation('c'))?.replyStatus).toBe('streaming');
    // Text frames leave it alone; a new status is noted.
    await store.updateMessage('a', { text: 'Hel' });
    expect((await store.getConversation('c'))?.replyStatus).toBe('streaming');
    await store.markStreamingInterrupted();
    expect((await store.getConversation('c'))?.replyStatus).toBe('interrupted');
    await store.updateMessage('a', { status: 'complete', text: 'Hello' });
    expect((await store.getConversation('c'))?.replyStatus).toBe('complete');
    await store.updateMessage('a', { status: 'streaming' });
    const deleted = await store.deleteConversation('c');
    await store.restoreConversation(deleted!);
    expect((await store.getConversation('c'))?.replyStatus).toBe('interrupted');
  });
});

describe('a new turn is one change', () => {
  it('a page watching the conversation sees it created with both messages at once, never half of the turn', async () => {
    const { store } = fresh();
    const seen: number[] = [];
    let resolveFull: () => void = () => undefined;
    const full = new Promise<void>((resolve) => {
      resolveFull = resolve;
    });
    const stop = store.watchMessages('turn', (messages) => {
      seen.push(messages.length);
      if (messages.length === 2) resolveFull();
    }, (error) => {
      throw error;
    });
    const conversation = { id: 'turn', profileId: 'p', model: 'm', surface: 'popup' as const, title: 'hi', createdAt: 1, updatedAt: 1 };
    await store.addTurn({
      conversation,
      created: true,
      messages: [
        { id: 'u', conversationId: 'turn', seq: 0, role: 'user', text: 'hi', reasoning: '', status: 'complete', createdAt: 1 },
        { id: 'a', conversationId: 'turn', seq: 1, role: 'assistant', text: '', reasoning: '', status: 'streaming', createdAt: 1 },
      ],
    });
    await full;
    stop();
    expect(seen.filter((n) => n === 1)).toEqual([]);
    expect(await store.getConversation('turn')).toMatchObject({ title: 'hi', replyStatus: 'streaming' });

    // A later turn moves the conversation to its model and keeps the order.
    await store.addTurn({
      conversation: { ...conversation, model: 'm2' },
      created: false,
      messages: [
        { id: 'u2', conversationId: 'turn', seq: 2, role: 'user', text: 'again', reasoning: '', status: 'complete', createdAt: 2 },
        { id: 'a2', conversationId: 'turn', seq: 3, role: 'assistant', text: '', reasoning: '', status: 'streaming', createdAt: 2 },
      ],
    });
    expect((await store.messages('turn')).map((m) => m.id)).toEqual(['u', 'a', 'u2', 'a2']);
    expect((await store.getConversation('turn'))?.model).toBe('m2');
  });
});

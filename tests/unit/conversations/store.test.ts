import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { recordActionRefusal } from '@/lib/actions/run-action';
import { ConversationStore } from '@/lib/conversations/store';
import { storeProblem } from '@/lib/conversations/problems';
import { defaultSettings } from '@/lib/settings/schema';
import { wordsFor } from '@/lib/i18n/messages';
import { buildTree, currentBranch } from '@/lib/conversations/branches';
import type { Conversation, Message } from '@/lib/conversations/records';

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

describe('an imported conversation is saved in packs and is like any other', () => {
  const conversation = (id: string, updatedAt = 10) => ({ id, profileId: 'p', model: 'm', surface: 'chat' as const, title: id, createdAt: 1, updatedAt });
  const pair = (conversationId: string, i: number, text = `question ${i}`) => [
    { id: `${conversationId}-u${i}`, conversationId, seq: 2 * i, role: 'user' as const, text, reasoning: '', status: 'complete' as const, createdAt: i },
    { id: `${conversationId}-a${i}`, conversationId, seq: 2 * i + 1, role: 'assistant' as const, text: `answer ${i}`, reasoning: '', status: 'complete' as const, createdAt: i },
  ];
  const rows = async (name: string, table: string): Promise<number> => {
    const raw = new Dexie(name);
    await raw.open();
    const count = await raw.table(table).count();
    raw.close();
    return count;
  };

  it('reads back in order, across packs, by conversation and by message id', async () => {
    const { store, name } = fresh();
    // 600 messages with long texts: several packs.
    const long = Array.from({ length: 300 }, (_, i) => pair('long', i, `${'x'.repeat(400)} ${i}`)).flat();
    await store.importConversations([{ conversation: conversation('long'), messages: [...long].reverse() }, { conversation: conversation('short'), messages: pair('short', 0) }]);
    expect(await rows(name, 'messages')).toBe(0);
    expect(await rows(name, 'packs')).toBeGreaterThan(2);
    expect((await store.messages('long')).map((m) => m.seq)).toEqual(long.map((m) => m.seq));
    expect((await store.getMessage('long-a150'))?.text).toBe('answer 150');
    expect((await store.messagesOf(['short', 'long'])).get('short')!.map((m) => m.id)).toEqual(['short-u0', 'short-a0']);
    expect((await store.messageTexts(['long'])).get('long')).toHaveLength(600);
    expect((await store.rawConversation('short'))?.messages).toEqual(pair('short', 0));
    expect((await store.exportRaw()).map((c) => c.messages.length).sort()).toEqual([2, 600]);
  });

  it('is unpacked before anything changes it: a new turn, a changed message, a deleted pair', async () => {
    const { store, name } = fresh();
    await store.importConversations([{ conversation: conversation('c'), messages: [...pair('c', 0), ...pair('c', 1)] }]);
    // A streaming reply's text: found inside its pack, the conversation unpacked.
    await store.updateMessage('c-a0', { text: 'changed' });
    expect(await rows(name, 'packs')).toBe(0);
    expect((await store.messages('c')).map((m) => m.text)).toEqual(['question 0', 'changed', 'question 1', 'answer 1']);

    await store.importConversations([{ conversation: conversation('d'), messages: [...pair('d', 0), ...pair('d', 1)] }]);
    await store.addTurn({ conversation: conversation('d'), created: false, messages: pair('d', 2) });
    expect((await store.messages('d')).map((m) => m.id)).toEqual(['d-u0', 'd-a0', 'd-u1', 'd-a1', 'd-u2', 'd-a2']);

    await store.importConversations([{ conversation: conversation('e'), messages: [...pair('e', 0), ...pair('e', 1)] }]);
    const removed = await store.deletePair('e-u0', 'e-a0');
    expect((await store.messages('e')).map((m) => m.id)).toEqual(['e-u1', 'e-a1']);
    await store.restorePair(removed!);
    expect((await store.messages('e')).map((m) => m.id)).toEqual(['e-u0', 'e-a0', 'e-u1', 'e-a1']);
    expect(await rows(name, 'packs')).toBe(0);
  });

  it('a page watching never sees the conversation empty while it is unpacked', async () => {
    const { store } = fresh();
    await store.importConversations([{ conversation: conversation('w'), messages: pair('w', 0) }]);
    const seen: number[] = [];
    let done: () => void = () => undefined;
    const four = new Promise<void>((resolve) => {
      done = resolve;
    });
    const stop = store.watchMessages('w', (messages) => {
      seen.push(messages.length);
      if (messages.length === 4) done();
    }, (error) => {
      throw error;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.addTurn({ conversation: conversation('w'), created: false, messages: pair('w', 1) });
    await four;
    stop();
    expect(seen).not.toContain(0);
    expect(seen[0]).toBe(2);
  });

  it('is replaced by a newer import, deleted with its conversation, and never left streaming', async () => {
    const { store, name } = fresh();
    await store.importConversations([{ conversation: { ...conversation('r'), replyStatus: 'streaming' as const }, messages: [pair('r', 0)[0]!, { ...pair('r', 0)[1]!, status: 'streaming' as const }] }]);
    expect((await store.messages('r'))[1]?.status).toBe('interrupted');
    expect((await store.getConversation('r'))?.replyStatus).toBe('interrupted');
    await store.importConversations([{ conversation: conversation('r', 20), messages: pair('r', 5) }]);
    expect((await store.messages('r')).map((m) => m.id)).toEqual(['r-u5', 'r-a5']);
    const deleted = await store.deleteConversation('r');
    expect(deleted?.messages).toHaveLength(2);
    expect(await rows(name, 'packs')).toBe(0);
    await store.restoreConversation(deleted!);
    expect((await store.messages('r')).map((m) => m.id)).toEqual(['r-u5', 'r-a5']);
  });
});

describe('an import never touches another conversation (issue 28)', () => {
  const record = (id: string, extra: Partial<Conversation> = {}): Conversation => ({ id, profileId: 'p', model: 'm', surface: 'chat', title: id, createdAt: 1, updatedAt: 10, ...extra });
  const msg = (conversationId: string, id: string, seq: number, parentId: string | null, extra: Partial<Message> = {}): Message => ({
    id, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', parentId, text: `${conversationId} ${id}`, reasoning: '', status: 'complete', createdAt: seq, ...extra,
  });
  /** Conversation `other`, written as the app writes it: its own rows, `q` → `a`. */
  const withOther = async (): Promise<ConversationStore> => {
    const { store } = fresh();
    await store.addTurn({ conversation: record('other', { leafId: 'a' }), created: true, messages: [msg('other', 'q', 0, null), msg('other', 'a', 1, 'q')] });
    return store;
  };
  const texts = async (store: ConversationStore, id: string): Promise<string[]> => {
    const conversation = await store.getConversation(id);
    return currentBranch(buildTree(await store.messages(id)), conversation?.leafId).map((m) => m.text);
  };

  it('a conversation imported with ids another one holds gets new ids, its tree kept; changing it later leaves the other whole', async () => {
    const store = await withOther();
    // Two versions of the reply (the earlier shown), the later with a legacy inline version before it.
    const imported = [
      msg('imp', 'q', 0, null),
      msg('imp', 'a', 1, 'q'),
      msg('imp', 'b', 2, 'q', { versions: [{ text: 'inline', reasoning: '', status: 'complete', createdAt: 0 }] }),
      msg('imp', 'q2', 3, 'a'),
    ];
    await store.importConversations([{ conversation: record('imp', { leafId: 'q2' }), messages: imported }]);
    expect(await texts(store, 'imp')).toEqual(['imp q', 'imp a', 'imp q2']);
    // Changing it unpacks it: today's rows of `other` must not be taken over.
    await store.addTurn({ conversation: (await store.getConversation('imp'))!, created: false, messages: [msg('imp', 'q3', 4, (await store.getConversation('imp'))!.leafId!)] });
    expect(await texts(store, 'other')).toEqual(['other q', 'other a']);
    expect((await store.messages('other')).map((m) => m.id)).toEqual(['q', 'a']);
    const mine = await store.messages('imp');
    expect(mine).toHaveLength(5);
    // Only the ids `other` holds were changed.
    expect(mine.map((m) => m.id).filter((id) => ['q', 'a', 'b', 'q2'].includes(id))).toEqual(['b', 'q2']);
    // The same tree: both versions of the reply under the question, the legacy one beside them.
    const tree = buildTree(mine);
    const question = mine.find((m) => m.text === 'imp q')!;
    expect(tree.childrenOf.get(question.id)!.map((m) => m.text)).toEqual(['imp a', 'inline', 'imp b']);
    expect(mine.find((m) => m.text === 'imp q2')?.parentId).toBe(mine.find((m) => m.text === 'imp a')!.id);
  });

  it('a shown legacy version (`<id>~v<n>`) and an open comparison follow their messages to the new ids', async () => {
    const store = await withOther();
    const messages = [
      msg('cmp', 'q', 0, null),
      msg('cmp', 'a', 1, 'q', { model: 'x', versions: [{ text: 'first try', reasoning: '', status: 'complete', createdAt: 0 }] }),
      msg('cmp', 'c2', 2, 'q', { model: 'y' }),
    ];
    await store.importConversations([
      { conversation: record('cmp', { leafId: 'a~v0', compare: { userId: 'q', replyIds: ['a', 'c2'] } }), messages },
    ]);
    const conversation = (await store.getConversation('cmp'))!;
    const saved = await store.messages('cmp');
    const byText = (text: string): Message => saved.find((m) => m.text === text)!;
    expect([byText('cmp q').id, byText('cmp a').id]).not.toContain('q');
    expect(byText('cmp a').id).not.toBe('a');
    expect(conversation.leafId).toBe(`${byText('cmp a').id}~v0`);
    expect(conversation.compare).toEqual({ userId: byText('cmp q').id, replyIds: [byText('cmp a').id, 'c2'] });
    expect(await texts(store, 'cmp')).toEqual(['cmp q', 'first try']);
  });

  it('two conversations of one import with the same message ids each keep their own', async () => {
    const { store } = fresh();
    await store.importConversations([
      { conversation: record('one', { leafId: 'a' }), messages: [msg('one', 'q', 0, null), msg('one', 'a', 1, 'q')] },
      { conversation: record('two', { leafId: 'a' }), messages: [msg('two', 'q', 0, null), msg('two', 'a', 1, 'q')] },
    ]);
    // And in a later batch of the same import (already written by then).
    await store.importConversations([{ conversation: record('three', { leafId: 'a' }), messages: [msg('three', 'q', 0, null), msg('three', 'a', 1, 'q')] }]);
    for (const id of ['one', 'two', 'three']) await store.addTurn({ conversation: (await store.getConversation(id))!, created: false, messages: [] });
    expect(await texts(store, 'one')).toEqual(['one q', 'one a']);
    expect(await texts(store, 'two')).toEqual(['two q', 'two a']);
    expect(await texts(store, 'three')).toEqual(['three q', 'three a']);
  });

  it('a re-import of the same conversation still replaces its own messages, under their ids', async () => {
    const { store } = fresh();
    await store.importConversations([{ conversation: record('same'), messages: [msg('same', 'q', 0, null), msg('same', 'a', 1, 'q')] }]);
    await store.addTurn({ conversation: (await store.getConversation('same'))!, created: false, messages: [] });
    await store.importConversations([{ conversation: record('same', { updatedAt: Date.now() + 60_000 }), messages: [msg('same', 'q', 0, null), msg('same', 'a', 1, 'q', { text: 'newer' })] }]);
    expect((await store.messages('same')).map((m) => [m.id, m.text])).toEqual([['q', 'same q'], ['a', 'newer']]);
  });

  it('unpacking and Undo never write over another conversation\'s message (data imported before ids were made unique)', async () => {
    const { store, name } = fresh();
    await store.addTurn({ conversation: record('other', { leafId: 'a' }), created: true, messages: [msg('other', 'q', 0, null), msg('other', 'a', 1, 'q')] });
    // As an older build saved it: a pack of `old` holding ids of `other`'s rows.
    await store.importConversations([{ conversation: record('old'), messages: [msg('old', 'x', 0, null)] }]);
    const raw = new Dexie(name);
    await raw.open();
    await raw.table('packs').put({ id: 'old/00000', conversationId: 'old', ids: ['x', 'a'], messages: [msg('old', 'x', 0, null), msg('old', 'a', 1, 'x')] });
    raw.close();
    await store.addTurn({ conversation: (await store.getConversation('old'))!, created: false, messages: [] });
    expect((await store.messages('other')).map((m) => m.text)).toEqual(['other q', 'other a']);
    // `old`'s own message is kept, under an id of its own, in its place in the tree.
    const kept = await store.messages('old');
    expect(kept.map((m) => [m.text, m.parentId])).toEqual([['old x', null], ['old a', 'x']]);
    expect(kept[1]?.id).not.toBe('a');

    // Undo of a deleted pair whose ids another conversation holds by now.
    const removed = await store.deletePair('q', 'a');
    expect(removed?.removed.map((m) => m.id)).toEqual(['q', 'a']);
    await store.importConversations([{ conversation: record('taker'), messages: [msg('taker', 'q', 0, null)] }]);
    await store.addTurn({ conversation: (await store.getConversation('taker'))!, created: false, messages: [] });
    await store.restorePair(removed!);
    expect((await store.messages('taker')).map((m) => [m.id, m.text])).toEqual([['q', 'taker q']]);
    expect((await store.messages('other')).map((m) => m.id)).toEqual(['a']);
  });
});

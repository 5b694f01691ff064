import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '@/lib/conversations/store';
import { deferredStore } from '@/lib/conversations/deferred-store';
import type { Conversation, Message } from '@/lib/conversations/records';
import type { ImageMeta, ImageRecord } from '@/lib/images/types';

let n = 0;
const fresh = (): ConversationStore => new ConversationStore(`images-test-${n++}`);

const conversation = (id: string, extra: Partial<Conversation> = {}): Conversation => ({ id, title: id, createdAt: 1, updatedAt: 1, profileId: 'p1', model: 'gpt-image-1', surface: 'chat', ...extra });
const message = (conversationId: string, seq: number, extra: Partial<Message> = {}): Message => ({
  id: `${conversationId}-${seq}`, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', parentId: seq === 0 ? null : `${conversationId}-${seq - 1}`, text: `text ${seq}`, reasoning: '', status: 'complete', createdAt: seq, ...extra,
});
const png = (bytes: number[]): Blob => new Blob([new Uint8Array(bytes)], { type: 'image/png' });
const image = (id: string, conversationId: string, messageId: string, extra: Partial<ImageRecord> = {}): ImageRecord => ({
  id, conversationId, messageId, createdAt: 100, source: 'generated', prompt: 'a red fox in snow', mime: 'image/png', index: 0, blob: png([1, 2, 3]), ...extra,
});

async function seeded(store: ConversationStore): Promise<void> {
  await store.importConversations([
    { conversation: conversation('a'), messages: [message('a', 0), message('a', 1, { imageIds: ['i1', 'i2'], imageRequest: { prompt: 'a red fox in snow', options: { n: 2 } } })] },
    { conversation: conversation('b'), messages: [message('b', 0), message('b', 1, { imageIds: ['i3'] })] },
  ]);
  await store.images.put(image('i1', 'a', 'a-1', { createdAt: 10 }));
  await store.images.put(image('i2', 'a', 'a-1', { createdAt: 11, index: 1, revisedPrompt: 'A red fox, standing in fresh snow' }));
  await store.images.put(image('i3', 'b', 'b-1', { createdAt: 20, prompt: 'a blue whale' }));
}

const ids = (list: readonly Pick<ImageMeta, 'id'>[]): string[] => list.map((i) => i.id);

describe('image store', () => {
  it('keeps each image as a Blob and gives it back by id, in the order asked', async () => {
    const store = fresh();
    await seeded(store);
    const one = await store.images.get('i1');
    expect(one?.blob).toBeInstanceOf(Blob);
    expect(new Uint8Array(await one!.blob.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(ids(await store.images.getMany(['i3', 'missing', 'i1']))).toEqual(['i3', 'i1']);
    expect(await store.images.get('missing')).toBeUndefined();
  });

  it('lists finished images newest first, without their bytes; searches every word of prompt and revised prompt; pages with `before`', async () => {
    const store = fresh();
    await seeded(store);
    await store.images.put(image('p', 'b', 'b-1', { createdAt: 30, partial: true }));
    const all = await store.images.list();
    expect(ids(all)).toEqual(['i3', 'i2', 'i1']);
    expect(all[0]).not.toHaveProperty('blob');
    expect(ids(await store.images.list({ query: 'FOX red' }))).toEqual(['i2', 'i1']);
    expect(ids(await store.images.list({ query: 'standing fox' }))).toEqual(['i2']);
    expect(ids(await store.images.list({ query: 'fox whale' }))).toEqual([]);
    expect(ids(await store.images.list({ limit: 1 }))).toEqual(['i3']);
    expect(ids(await store.images.list({ before: 20 }))).toEqual(['i2', 'i1']);
  });

  it('a row that does not parse is left out, not thrown', async () => {
    const name = `images-test-${n++}`;
    const store = new ConversationStore(name);
    await seeded(store);
    store.close();
    const raw = new Dexie(name);
    raw.version(4).stores({ images: 'id, conversationId, messageId, createdAt' });
    await raw.table('images').put({ id: 'bad', conversationId: 'a', messageId: 'a-1', createdAt: 50, prompt: 'fox', mime: 'image/png', blob: 'not a blob' });
    raw.close();
    const again = new ConversationStore(name);
    expect(ids(await again.images.list())).toEqual(['i3', 'i2', 'i1']);
    expect(await again.images.get('bad')).toBeUndefined();
  });

  it('watch tells the Images view of every change', async () => {
    const store = fresh();
    await seeded(store);
    const seen: string[][] = [];
    const stop = store.images.watch((list) => seen.push(ids(list)), undefined, { query: 'whale' });
    await expect.poll(() => seen.at(-1)).toEqual(['i3']);
    await store.images.put(image('i4', 'b', 'b-1', { createdAt: 40, prompt: 'a whale again' }));
    await expect.poll(() => seen.at(-1)).toEqual(['i4', 'i3']);
    await store.images.remove(['i3']);
    await expect.poll(() => seen.at(-1)).toEqual(['i4']);
    stop();
  });

  it('watchChanges says when anything changed (an image added, an older one deleted), reading only keys', async () => {
    const store = fresh();
    await seeded(store);
    let changes = 0;
    const stop = store.images.watchChanges(() => void changes++);
    await expect.poll(() => changes).toBe(1);
    await store.images.put(image('i4', 'b', 'b-1', { createdAt: 40, prompt: 'newest' }));
    await expect.poll(() => changes).toBe(2);
    // The oldest one: below anything a first page of the Images view reads.
    await store.images.remove(['i1']);
    await expect.poll(() => changes).toBe(3);
    stop();
  });

  it('images go with their conversation, and come back with Undo', async () => {
    const store = fresh();
    await seeded(store);
    const deleted = await store.deleteConversation('a');
    expect(ids(deleted?.images ?? [])).toEqual(['i1', 'i2']);
    expect(ids(await store.images.list())).toEqual(['i3']);
    await store.restoreConversation(deleted!);
    expect(ids(await store.images.list())).toEqual(['i3', 'i2', 'i1']);
    expect((await store.images.get('i2'))?.blob).toBeInstanceOf(Blob);
  });

  it('images go with a deleted question and reply, and come back with Undo', async () => {
    const store = fresh();
    await seeded(store);
    const pair = await store.deletePair('a-0', 'a-1');
    expect(ids(pair?.images ?? [])).toEqual(['i1', 'i2']);
    expect(ids(await store.images.list())).toEqual(['i3']);
    await store.restorePair(pair!);
    expect(ids(await store.images.list())).toEqual(['i3', 'i2', 'i1']);
  });

  it('clearing history clears the images', async () => {
    const store = fresh();
    await seeded(store);
    await store.clearAll();
    expect(await store.images.list()).toEqual([]);
  });

  it('an import that replaces a conversation replaces its images', async () => {
    const store = fresh();
    await seeded(store);
    await store.importConversations([{ conversation: conversation('a', { updatedAt: 50 }), messages: [message('a', 0), message('a', 1, { imageIds: ['n1'] })], images: [image('n1', 'a', 'a-1', { prompt: 'a new fox' })] }]);
    expect(ids(await store.images.list())).toEqual(['n1', 'i3']);
  });

  it('an imported image whose id another conversation holds, or whose message got a new id, gets a new id; its message follows', async () => {
    const store = fresh();
    await seeded(store);
    // Conversation c's file reuses b's message id `b-1` and image id `i3`.
    await store.importConversations([{
      conversation: conversation('c', { leafId: 'b-1' }),
      messages: [message('c', 0), message('c', 1, { id: 'b-1', parentId: 'c-0', text: 'Here: ![image](gc-image:i3)', imageIds: ['i3'] })],
      images: [image('i3', 'c', 'b-1', { prompt: 'imported whale', source: 'chat' })],
    }]);
    const [, reply] = await store.messages('c');
    expect(reply!.id).not.toBe('b-1');
    const newImageId = reply!.imageIds![0]!;
    expect(newImageId).not.toBe('i3');
    expect(reply!.text).toBe(`Here: ![image](gc-image:${newImageId})`);
    expect(await store.images.get(newImageId)).toMatchObject({ conversationId: 'c', messageId: reply!.id, prompt: 'imported whale' });
    // b's image is untouched.
    expect(await store.images.get('i3')).toMatchObject({ conversationId: 'b', prompt: 'a blue whale' });
  });

  it('export carries each conversation\'s images', async () => {
    const store = fresh();
    await seeded(store);
    const raw = await store.exportRaw(['b']);
    expect(raw.map((c) => ids(c.imageRecords))).toEqual([['i3']]);
  });

  it('a deferred store (the background\'s, in memory when the database will not open) reaches its images too', async () => {
    const memory = new ConversationStore(`images-memory-${n++}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    const store = deferredStore({ current: async () => memory, close: () => memory.close() });
    await seeded(store);
    expect(ids(await store.images.list({ query: 'whale' }))).toEqual(['i3']);
    const seen: string[][] = [];
    const stop = store.images.watch((list) => seen.push(ids(list)));
    await expect.poll(() => seen.at(-1)).toEqual(['i3', 'i2', 'i1']);
    stop();
    const deleted = await store.deleteConversation('b');
    expect(ids(deleted?.images ?? [])).toEqual(['i3']);
  });
});

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { exportHistory, HISTORY_FORMAT, MAX_IMPORTED_IMAGE_BYTES, parseHistory, withImageData } from '@/lib/transfer/history-file';
import { runImport } from '@/lib/transfer/run-import';
import type { ImageRecord } from '@/lib/images/types';

let n = 0;
const conversation = (id: string, extra: Partial<Conversation> = {}): Conversation => ({ id, title: id, createdAt: 1, updatedAt: 10, profileId: 'p1', model: 'm', surface: 'chat', ...extra });
const message = (conversationId: string, seq: number, extra: Partial<Message> = {}): Message => ({
  id: `${conversationId}-${seq}`, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', parentId: seq === 0 ? null : `${conversationId}-${seq - 1}`, text: `text ${seq}`, reasoning: '', status: 'complete', createdAt: seq, ...extra,
});
/** A PNG by its signature (only PNG, JPEG, WebP and GIF are imported), then anything. */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const bytes = [...PNG_SIGNATURE, ...Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256)];
const image = (id: string, conversationId: string, messageId: string, extra: Partial<ImageRecord> = {}): ImageRecord => ({
  id, conversationId, messageId, createdAt: 5, source: 'chat', prompt: 'a lighthouse', mime: 'image/png', index: 0, blob: new Blob([new Uint8Array(bytes)], { type: 'image/png' }), ...extra,
});

async function seeded(): Promise<ConversationStore> {
  const store = new ConversationStore(`transfer-images-${n++}`);
  await store.importConversations([
    { conversation: conversation('a'), messages: [message('a', 0), message('a', 1, { text: 'Here: ![image](gc-image:i1)', imageIds: ['i1'] })], images: [image('i1', 'a', 'a-1')] },
    { conversation: conversation('b'), messages: [message('b', 0), message('b', 1, { text: '', imageIds: ['i2'], imageRequest: { prompt: 'a boat', options: { size: '1024x1024' } } })], images: [image('i2', 'b', 'b-1', { source: 'generated', prompt: 'a boat', size: '1024x1024', cost: { amount: 0.04, currency: 'USD' } })] },
    { conversation: conversation('c'), messages: [message('c', 0)] },
  ]);
  return store;
}

const fileOf = async (store: ConversationStore): Promise<string> => exportHistory(await withImageData(await store.exportRaw()), { includeProfiles: false, profiles: [], now: 1 });

describe('history files carry images', () => {
  it('each conversation\'s images go into the file as base64 (none: no images key), and come back as Blobs', async () => {
    const store = await seeded();
    const file = await fileOf(store);
    const parsed = JSON.parse(file) as { version: number; conversations: { conversation: { id: string }; images?: { id: string; base64: string; blob?: unknown }[] }[] };
    expect(parsed.version).toBe(1);
    const byId = new Map(parsed.conversations.map((c) => [c.conversation.id, c]));
    expect(byId.get('c')).not.toHaveProperty('images');
    expect(byId.get('a')!.images!.map((i) => i.id)).toEqual(['i1']);
    expect(byId.get('a')!.images![0]!.base64).toBe(Buffer.from(bytes).toString('base64'));
    expect(byId.get('a')!.images![0]).not.toHaveProperty('blob');

    await store.clearAll();
    expect(await runImport(file, store, { profileId: 'p1' })).toMatchObject({ ok: true, written: 3, skipped: [] });
    const back = await store.images.get('i2');
    expect(back).toMatchObject({ conversationId: 'b', messageId: 'b-1', source: 'generated', prompt: 'a boat', size: '1024x1024', cost: { amount: 0.04, currency: 'USD' }, mime: 'image/png' });
    expect(Buffer.from(await back!.blob.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(back!.blob.type).toBe('image/png');
    // Exported again: the same file.
    expect(await fileOf(store)).toBe(file);
  });

  it('imported into a history that holds its ids, images take new ids with their messages, and the text follows', async () => {
    const store = await seeded();
    const file = await fileOf(store);
    // The same conversations under other conversation ids: every message and image id is taken.
    const copy = JSON.parse(file) as { conversations: { conversation: { id: string }; messages: { conversationId: string }[]; images?: { conversationId: string }[] }[] };
    for (const c of copy.conversations) {
      c.conversation.id = `copy-${c.conversation.id}`;
      for (const m of c.messages) m.conversationId = c.conversation.id;
      for (const i of c.images ?? []) i.conversationId = c.conversation.id;
    }
    expect(await runImport(JSON.stringify(copy), store, { profileId: 'p1' })).toMatchObject({ ok: true, written: 3 });
    const [, reply] = await store.messages('copy-a');
    expect(reply!.id).not.toBe('a-1');
    const id = reply!.imageIds![0]!;
    expect(id).not.toBe('i1');
    expect(reply!.text).toBe(`Here: ![image](gc-image:${id})`);
    expect(await store.images.get(id)).toMatchObject({ conversationId: 'copy-a', messageId: reply!.id });
    expect(await store.images.get('i1')).toMatchObject({ conversationId: 'a', messageId: 'a-1' });
    expect((await store.images.list()).length).toBe(4);
  });

  it('an image that is not one (another type, bad base64, another conversation\'s, no such message) leaves its conversation out, reported', () => {
    const good = { id: 'g', conversationId: 'x', messageId: 'x-1', createdAt: 1, source: 'generated', prompt: 'p', mime: 'image/png', index: 0, base64: Buffer.from([...PNG_SIGNATURE, 1, 2, 3]).toString('base64') };
    const fileWith = (img: Record<string, unknown>): string => JSON.stringify({ format: HISTORY_FORMAT, version: 1, exportedAt: 1, conversations: [{ conversation: conversation('x'), messages: [message('x', 0), message('x', 1)], images: [img] }] });
    expect(parseHistory(fileWith(good), { profileId: 'p1' })).toMatchObject({ ok: true, skipped: [] });
    for (const [bad, path] of [
      [{ ...good, mime: 'text/html' }, 'images.0.mime'],
      [{ ...good, base64: 'A' }, 'images.0.base64'],
      // An SVG (or any bytes not a PNG, JPEG, WebP or GIF), whatever type it is said to be.
      [{ ...good, mime: 'image/svg+xml', base64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') }, 'images.0.base64'],
      [{ ...good, base64: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') }, 'images.0.base64'],
      [{ ...good, conversationId: 'y' }, 'images.0.conversationId'],
      [{ ...good, messageId: 'z' }, 'images.0.messageId'],
    ] as const) {
      expect(parseHistory(fileWith(bad), { profileId: 'p1' })).toMatchObject({ ok: true, conversations: [], skipped: [{ conversation: 'x', reason: 'image_damaged', path }] });
    }
    // An image larger than any a gateway makes is refused before it is decoded, and said so.
    const huge = { ...good, base64: Buffer.from(PNG_SIGNATURE).toString('base64') + 'A'.repeat(Math.ceil(MAX_IMPORTED_IMAGE_BYTES / 3) * 4 + 4) };
    expect(parseHistory(fileWith(huge), { profileId: 'p1' })).toMatchObject({ ok: true, conversations: [], skipped: [{ conversation: 'x', reason: 'image_too_large', path: 'images.0.base64' }] });
    // A PNG said to be a JPEG is kept as the PNG it is.
    const named = parseHistory(fileWith({ ...good, mime: 'image/jpeg' }), { profileId: 'p1' });
    expect(named.ok && named.conversations[0]!.images![0]!.mime).toBe('image/png');
    expect(named.ok && named.conversations[0]!.images![0]!.blob.type).toBe('image/png');
    // A time far ahead is brought back to now.
    const later = parseHistory(fileWith({ ...good, createdAt: 9e15 }), { profileId: 'p1', now: 1000 });
    expect(later.ok && later.conversations[0]!.images![0]!.createdAt).toBe(1000);
  });
});

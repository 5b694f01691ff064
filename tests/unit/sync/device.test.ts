import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { HybridClock } from '@/lib/sync/clock';
import { newMemory, openSyncKey } from '@/lib/sync/engine';
import { syncDevice, type DeviceSync } from '@/lib/sync/device';
import { restoreDeviceSync, saveDeviceSync } from '@/lib/sync/persist';
import { emptyState } from '@/lib/sync/merge';
import { WebDavStorage } from '@/lib/sync/webdav';
import { serverFiles } from '../../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';

const MARKER = 'SECRET-TITLE-93be';
let n = 0;

function message(id: string, conversationId: string, parentId: string | null, seq: number, text: string, role: 'user' | 'assistant' = 'user'): Message {
  return { id, conversationId, parentId, seq, role, text, reasoning: '', status: 'complete', createdAt: 1 };
}

/** A browser profile: its own database, its own sync memory and clock. */
function profile(id: string, offsetMs = 0): { store: ConversationStore; sync: DeviceSync } {
  return { store: new ConversationStore(`sync-device-${n++}`), sync: { memory: newMemory(id), state: emptyState(), clock: new HybridClock(id, () => Date.now() + offsetMs) } };
}

/** What a user sees: conversations (title, pin) and their messages, in a stable order. */
async function seen(store: ConversationStore): Promise<unknown> {
  const { conversations, messages } = await store.syncRecords();
  return {
    conversations: conversations.map((c) => ({ id: c.id, title: c.title, pinned: c.pinned ?? false })).sort((a, b) => a.id.localeCompare(b.id)),
    messages: messages.map((m) => ({ id: m.id, conversationId: m.conversationId, parentId: m.parentId, text: m.text })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

describe('two browser profiles syncing their conversation stores through one WebDAV server', () => {
  let server: WebDavServer;
  beforeAll(async () => {
    server = await startWebDavServer();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  it('turns made offline on both are kept as versions, a deletion and a rename are honoured, a new profile gets everything, the server sees only ciphertext', async () => {
    const storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'profiles' });
    const laptop = profile('laptop01');
    const desktop = profile('desktop1', -3_600_000);
    const laptopKey = await openSyncKey(storage, 'same passphrase', true);
    const desktopKey = await openSyncKey(storage, 'same passphrase', false);

    await laptop.store.createConversation({ id: 'c1', profileId: 'p', model: 'gpt-4o', surface: 'popup', title: `Trip ${MARKER}` });
    await laptop.store.addMessage(message('m1', 'c1', null, 1, 'Plan a trip'));
    await laptop.store.addMessage(message('m2', 'c1', 'm1', 2, 'Sure', 'assistant'));
    await laptop.store.createConversation({ id: 'c2', profileId: 'p', model: 'gpt-4o', surface: 'popup', title: 'Scratch' });
    await syncDevice(laptop.store, storage, laptopKey, laptop.sync);
    const first = await syncDevice(desktop.store, storage, desktopKey, desktop.sync);
    expect(first.problems).toEqual([]);
    expect(await seen(desktop.store)).toEqual(await seen(laptop.store));

    // Offline, each adds a turn after the same reply; the desktop deletes c2; the laptop renames c1.
    await laptop.store.addMessage(message('m3', 'c1', 'm2', 3, 'From the laptop'));
    await desktop.store.addMessage(message('m4', 'c1', 'm2', 3, 'From the desktop'));
    await desktop.store.deleteConversation('c2');
    await laptop.store.renameConversation('c1', 'Trip to Kyoto');
    await syncDevice(laptop.store, storage, laptopKey, laptop.sync);
    await syncDevice(desktop.store, storage, desktopKey, desktop.sync);
    await syncDevice(laptop.store, storage, laptopKey, laptop.sync);

    const both = await seen(laptop.store);
    expect(await seen(desktop.store)).toEqual(both);
    expect(both).toEqual({
      conversations: [{ id: 'c1', title: 'Trip to Kyoto', pinned: false }],
      messages: [
        { id: 'm1', conversationId: 'c1', parentId: null, text: 'Plan a trip' },
        { id: 'm2', conversationId: 'c1', parentId: 'm1', text: 'Sure' },
        { id: 'm3', conversationId: 'c1', parentId: 'm2', text: 'From the laptop' },
        { id: 'm4', conversationId: 'c1', parentId: 'm2', text: 'From the desktop' },
      ],
    });
    // The merged state keeps no message text once the database has it.
    expect(laptop.sync.state.bodies.size).toBe(0);
    expect(desktop.sync.state.bodies.size).toBe(0);
    // Nothing left to say: another round sends nothing.
    expect((await syncDevice(desktop.store, storage, desktopKey, desktop.sync)).sent).toBe(0);

    const newcomer = profile('newcomer');
    await syncDevice(newcomer.store, storage, await openSyncKey(storage, 'same passphrase', false), newcomer.sync);
    expect(await seen(newcomer.store)).toEqual(both);

    for (const [name, bytes] of serverFiles(server.files)) {
      expect(bytes.toString('latin1'), name).not.toContain(MARKER);
      expect(bytes.toString('latin1'), name).not.toContain('From the desktop');
    }
  }, 30_000);

  it('an image a reply holds reaches the other profile, byte for byte, once; a partial one does not; the server sees no image bytes in clear', async () => {
    const storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'images' });
    const key = await openSyncKey(storage, 'images passphrase', true);
    const laptop = profile('imglaptop');
    const desktop = profile('imgdesktop');
    // A 1×1 PNG, and a marker in its bytes (a tEXt-like tail: the image is kept as its bytes are).
    const png = Buffer.concat([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'), Buffer.from('IMAGE-BYTES-MARKER')]);
    await laptop.store.createConversation({ id: 'i1', profileId: 'p', model: 'image-1', surface: 'popup', title: 'A picture' });
    await laptop.store.addMessage(message('im1', 'i1', null, 1, 'Draw a dot'));
    await laptop.store.addMessage({ ...message('im2', 'i1', 'im1', 2, '![image](gc-image:img1)', 'assistant'), imageIds: ['img1'] });
    await laptop.store.images.put({ id: 'img1', conversationId: 'i1', messageId: 'im2', createdAt: 1, source: 'generated', prompt: 'Draw a dot', mime: 'image/png', index: 0, blob: new Blob([png], { type: 'image/png' }) });
    await laptop.store.images.put({ id: 'img0', conversationId: 'i1', messageId: 'im2', createdAt: 1, source: 'generated', prompt: 'Draw a dot', mime: 'image/png', index: 0, partial: true, blob: new Blob([png], { type: 'image/png' }) });
    const sent = await syncDevice(laptop.store, storage, key, laptop.sync);
    await syncDevice(desktop.store, storage, key, desktop.sync);
    const arrived = await desktop.store.images.get('img1');
    expect(arrived?.mime).toBe('image/png');
    expect(Buffer.from(await arrived!.blob.arrayBuffer()).equals(png)).toBe(true);
    expect(await desktop.store.images.get('img0')).toBeUndefined();
    expect(desktop.sync.state.imageBodies.size).toBe(0);
    // Sent once: the next rounds send nothing more.
    expect(sent.sent).toBeGreaterThan(0);
    expect((await syncDevice(laptop.store, storage, key, laptop.sync)).sent).toBe(0);
    expect((await syncDevice(desktop.store, storage, key, desktop.sync)).sent).toBe(0);
    for (const [name, bytes] of serverFiles(server.files)) {
      expect(bytes.toString('latin1'), name).not.toContain('IMAGE-BYTES-MARKER');
      expect(bytes.toString('latin1'), name).not.toContain(Buffer.from('IMAGE-BYTES-MARKER').toString('base64').slice(0, 16));
    }
  }, 30_000);

  it('a round that fails after publishing (the database refuses) neither reuses its segment number nor takes the old values it still holds for edits', async () => {
    const storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'fails' });
    const key = await openSyncKey(storage, 'fails passphrase', true);
    const laptop = profile('faillaptop');
    const desktop = profile('faildesk1');
    await laptop.store.createConversation({ id: 'f1', profileId: 'p', model: 'm', surface: 'popup', title: 'Before' });
    await syncDevice(laptop.store, storage, key, laptop.sync);
    await syncDevice(desktop.store, storage, key, desktop.sync);
    await desktop.store.renameConversation('f1', 'Renamed on the desktop');
    await syncDevice(desktop.store, storage, key, desktop.sync);
    // The laptop adds a message, publishes it, then its database refuses the rename; the worker
    // then starts again from what the round saved.
    await laptop.store.addMessage(message('fm1', 'f1', null, 1, 'sent before the failure'));
    let saved: unknown;
    const refusing = new Proxy(laptop.store, { get: (target, name) => (name === 'applySyncUpdates' ? () => Promise.reject(new Error('QuotaExceededError')) : Reflect.get(target, name, target)) });
    await expect(syncDevice(refusing, storage, key, laptop.sync, undefined, undefined, async (d) => {
      saved = structuredClone(saveDeviceSync(d));
    })).rejects.toThrow('QuotaExceededError');
    const restarted = restoreDeviceSync(saved)!;
    expect(restarted.memory.segments).toBe(2);
    await syncDevice(laptop.store, storage, key, restarted);
    expect((await laptop.store.getConversation('f1'))?.title).toBe('Renamed on the desktop');
    // The desktop keeps its title, and gets the message.
    await syncDevice(desktop.store, storage, key, desktop.sync);
    expect((await desktop.store.getConversation('f1'))?.title).toBe('Renamed on the desktop');
    expect((await desktop.store.messages('f1')).map((m) => m.text)).toEqual(['sent before the failure']);
  }, 30_000);

  it('Undo after the deletion synced brings the conversation back whole on every device, messages too', async () => {
    const storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'undo' });
    const key = await openSyncKey(storage, 'undo passphrase', true);
    const laptop = profile('undolap1');
    const desktop = profile('undodesk');
    await laptop.store.createConversation({ id: 'u9', profileId: 'p', model: 'm', surface: 'popup', title: 'Keep me after all' });
    await laptop.store.addMessage(message('um1', 'u9', null, 1, 'first'));
    await laptop.store.addMessage(message('um2', 'u9', 'um1', 2, 'second', 'assistant'));
    await syncDevice(laptop.store, storage, key, laptop.sync);
    await syncDevice(desktop.store, storage, key, desktop.sync);
    const deleted = await desktop.store.deleteConversation('u9');
    await syncDevice(desktop.store, storage, key, desktop.sync);
    await syncDevice(laptop.store, storage, key, laptop.sync);
    expect(await laptop.store.getConversation('u9')).toBeUndefined();
    // Undo on the desktop, after its deletion went out.
    await desktop.store.restoreConversation(deleted!);
    await syncDevice(desktop.store, storage, key, desktop.sync);
    await syncDevice(laptop.store, storage, key, laptop.sync);
    expect((await laptop.store.getConversation('u9'))?.title).toBe('Keep me after all');
    expect((await laptop.store.messages('u9')).map((m) => m.text)).toEqual(['first', 'second']);
    // And it stays: nothing more to send, nothing deleted again.
    await syncDevice(desktop.store, storage, key, desktop.sync);
    await syncDevice(laptop.store, storage, key, laptop.sync);
    expect((await desktop.store.messages('u9')).map((m) => m.text)).toEqual(['first', 'second']);
    expect((await laptop.store.messages('u9')).map((m) => m.text)).toEqual(['first', 'second']);
    expect((await syncDevice(laptop.store, storage, key, laptop.sync)).sent).toBe(0);
  }, 30_000);

  it('a deletion undone before the round is not sent', async () => {
    const { store } = profile('undoer01');
    await store.createConversation({ id: 'u1', profileId: 'p', model: 'm', surface: 'popup', title: 'Keep me' });
    const deleted = await store.deleteConversation('u1');
    expect(await store.syncDeletions()).toEqual(['u1']);
    await store.restoreConversation(deleted!);
    expect(await store.syncDeletions()).toEqual([]);
  });
});

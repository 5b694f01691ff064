import 'fake-indexeddb/auto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { HybridClock } from '@/lib/sync/clock';
import { createKeyCheck, open, PBKDF2_ITERATIONS, sealJson, SyncCryptoError, type SyncKeyring } from '@/lib/sync/crypto';
import { newMemory, openSyncKeyring } from '@/lib/sync/engine';
import { syncDevice, type DeviceSync } from '@/lib/sync/device';
import { emptyState } from '@/lib/sync/merge';
import { restoreDeviceSync, saveDeviceSync } from '@/lib/sync/persist';
import { DEFAULT_TUNING } from '@/lib/sync/snapshot';
import { changeSyncPassphrase, joinSync, unlockSync } from '@/lib/sync/setup';
import { publishKeyCheck } from '@/lib/sync/keys';
import type { SyncProgress } from '@/lib/sync/scheduler';
import { SyncStorageError, type SyncStorage } from '@/lib/sync/storage';
import { WebDavStorage } from '@/lib/sync/webdav';
import { serverFiles } from '../../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';

let n = 0;
const OLD = 'the old passphrase, long';
const NEW = 'a brand new passphrase';

function message(id: string, conversationId: string, parentId: string | null, seq: number, text: string): Message {
  return { id, conversationId, parentId, seq, role: 'user', text, reasoning: '', status: 'complete', createdAt: 1 };
}

class Profile {
  readonly store = new ConversationStore(`sync-passphrase-${n++}`);
  sync: DeviceSync;
  constructor(readonly id: string, readonly storage: SyncStorage, public keys: SyncKeyring) {
    this.sync = { memory: newMemory(id), state: emptyState(), clock: new HybridClock(id) };
  }
  round(progress?: (p: SyncProgress) => void, checkpoint?: (d: DeviceSync) => Promise<void>): ReturnType<typeof syncDevice> {
    return syncDevice(this.store, this.storage, this.keys, this.sync, undefined, progress, checkpoint, { ...DEFAULT_TUNING, snapshotEvery: 4 });
  }
  async texts(): Promise<string[]> {
    return (await this.store.syncRecords()).messages.map((m) => m.text).sort();
  }
}

/** Every sealed file of ours on the server, by path under the folder, with its bytes. */
function sealedFiles(root: string): Map<string, Uint8Array<ArrayBuffer>> {
  const out = new Map<string, Uint8Array<ArrayBuffer>>();
  for (const [path, bytes] of serverFiles(root)) if (path.includes('/devices/') || path.includes('/manifests/')) out.set(path, new Uint8Array(bytes));
  return out;
}

async function opensWith(key: CryptoKey, path: string, bytes: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const version = path.includes('/manifests/') ? 0 : 1;
  try {
    await open(key, bytes, { path, version });
    return true;
  } catch (error) {
    if (error instanceof SyncCryptoError) return false;
    throw error;
  }
}

describe('changing the encryption passphrase, against a WebDAV server (Apache mod_dav)', () => {
  let server: WebDavServer;
  const storageIn = (folder: string): WebDavStorage => new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder });
  beforeAll(async () => {
    server = await startWebDavServer();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  it('re-encrypts this device\'s files with the new key; another device pauses until the new passphrase is entered, then re-encrypts its own; a new device needs only the new one', async () => {
    const storage = storageIn('change');
    const first = await joinSync(storage, OLD, true);
    const second = await joinSync(storage, OLD, false);
    if (!first.ok || !second.ok) throw new Error('could not join');
    const laptop = new Profile('change-laptop', storage, first.key);
    const desktop = new Profile('change-desktop', storage, second.key);
    await laptop.store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'popup', title: 'Before the change' });
    for (let i = 1; i <= 5; i++) {
      await laptop.store.addMessage(message(`l${i}`, 'c1', i === 1 ? null : `l${i - 1}`, i, `laptop ${i}`));
      await laptop.round();
    }
    await desktop.store.createConversation({ id: 'c2', profileId: 'p', model: 'm', surface: 'popup', title: 'Desktop' });
    await desktop.store.addMessage(message('d1', 'c2', null, 1, 'desktop 1'));
    await desktop.round();
    await laptop.round();
    expect(laptop.sync.memory.snapshot).toBeDefined();

    // The desktop publishes a turn the laptop has not read when the passphrase changes.
    await desktop.store.addMessage(message('d2', 'c2', 'd1', 2, 'desktop 2, before it knows'));
    await desktop.round();

    // Too short, then right.
    expect(await changeSyncPassphrase(storage, laptop.keys, OLD, 'short')).toMatchObject({ ok: false, code: 'short_passphrase' });
    // Whoever changes it must know the current one, and may not choose it again.
    expect(await changeSyncPassphrase(storage, laptop.keys, 'not the current one', NEW)).toMatchObject({ ok: false, code: 'wrong_passphrase' });
    expect(await changeSyncPassphrase(storage, laptop.keys, OLD, OLD)).toMatchObject({ ok: false, code: 'reused_passphrase' });
    const changed = await changeSyncPassphrase(storage, laptop.keys, OLD, NEW);
    if (!changed.ok) throw new Error(changed.code);
    expect(changed.key.generation).toBe(2);
    laptop.keys = await publishKeyCheck(storage, changed.key);
    const progress: SyncProgress[] = [];
    await laptop.round((p) => progress.push(p));
    expect(progress.filter((p) => p.phase === 'rekey').at(-1)).toMatchObject({ done: 6, total: 6 }); // five segments and a snapshot's one part
    const newKey = changed.key.key;
    const root = join(server.files, 'change');
    for (const [path, bytes] of sealedFiles(root)) {
      if (path.includes('change-laptop')) expect(await opensWith(newKey, path, bytes), path).toBe(true);
    }
    // The desktop's files are still under the old key: the laptop read them with the old one it kept.
    expect(await laptop.texts()).toContain('desktop 2, before it knows');
    // The desktop meets files it cannot open, and a newer key check: paused with a code.
    await laptop.store.addMessage(message('l6', 'c1', 'l5', 6, 'laptop 6, after the change'));
    await laptop.round();
    await expect(desktop.round()).rejects.toMatchObject({ code: 'passphrase_changed' });
    // The old passphrase no longer unlocks (said as an earlier one); the new one does, and the desktop goes on where it stopped.
    expect(await unlockSync(storage, OLD, desktop.keys)).toMatchObject({ ok: false, code: 'old_passphrase' });
    expect(await unlockSync(storage, 'never this one', desktop.keys)).toMatchObject({ ok: false, code: 'wrong_passphrase' });
    const unlocked = await unlockSync(storage, NEW, desktop.keys);
    if (!unlocked.ok) throw new Error(unlocked.code);
    desktop.keys = unlocked.key;
    const received = await desktop.round();
    expect(received.problems).toEqual([]);
    expect(await desktop.texts()).toContain('laptop 6, after the change');
    for (const [path, bytes] of sealedFiles(root)) expect(await opensWith(newKey, path, bytes), path).toBe(true);

    // A device new after the change: the new passphrase alone opens everything.
    const joined = await joinSync(storage, NEW, false);
    if (!joined.ok) throw new Error(joined.code);
    expect(await joinSync(storage, OLD, false)).toMatchObject({ ok: false, code: 'old_passphrase' });
    const newcomer = new Profile('change-newcomer', storage, joined.key);
    expect((await newcomer.round()).problems).toEqual([]);
    expect(await newcomer.texts()).toEqual(await laptop.texts());
    // Changing it again needs this device to be on the newest key first.
    expect(await changeSyncPassphrase(storage, first.key, OLD, 'yet another passphrase')).toMatchObject({ ok: false, code: 'passphrase_changed' });
  }, 60_000);

  it('after a change, the old passphrase cannot forge: manifests it seals for a device that re-encrypted, or for a device never seen, are not believed; a key check it plants is neither followed nor unlocked; a check with a gap before it is ignored', async () => {
    const storage = storageIn('forge');
    const first = await joinSync(storage, OLD, true);
    const second = await joinSync(storage, OLD, false);
    if (!first.ok || !second.ok) throw new Error('could not join');
    const laptop = new Profile('forge-laptop', storage, first.key);
    const desktop = new Profile('forge-desktop', storage, second.key);
    await laptop.store.createConversation({ id: 'g1', profileId: 'p', model: 'm', surface: 'popup', title: 'Real' });
    await laptop.store.addMessage(message('g1m', 'g1', null, 1, 'real message'));
    await laptop.round();
    await desktop.round();
    const changed = await changeSyncPassphrase(storage, laptop.keys, OLD, NEW);
    if (!changed.ok) throw new Error(changed.code);
    laptop.keys = await publishKeyCheck(storage, changed.key);
    await laptop.round();
    await expect(desktop.round()).rejects.toMatchObject({ code: 'passphrase_changed' });
    const unlocked = await unlockSync(storage, NEW, desktop.keys);
    if (!unlocked.ok) throw new Error(unlocked.code);
    desktop.keys = unlocked.key;
    await desktop.round();
    await laptop.round();
    const before = await laptop.texts();

    // Someone with the old passphrase and the server: a manifest for the desktop (a far newer
    // version, a snapshot that would skip everything), and a device that never was.
    const oldKey = first.key.key;
    const forge = async (device: string, version: number): Promise<void> => {
      const path = `gateway-chat/manifests/${device}`;
      await storage.write(path, await sealJson(oldKey, { format: 1, device, version, segments: 1, merged: {}, snapshot: { n: 1, id: 'ffffffffffffffffffffffff', parts: 1, merged: { [device]: 1_000_000 } } }, { path, version: 0 }));
      const segment = `gateway-chat/devices/${device}/seg-1`;
      await storage.write(segment, await sealJson(oldKey, { format: 1, device, n: 1, changes: [{ type: 'field', stamp: '9999999999999-0000-x', kind: 'conversation', id: 'g1', field: 'title', value: 'FORGED' }] }, { path: segment, version: 1 }));
    };
    await forge('forge-desktop', 1_000);
    await forge('forge-intruder', 1);
    const round = await laptop.round();
    expect(round.problems.map((p) => p.path).sort()).toEqual(['gateway-chat/manifests/forge-desktop', 'gateway-chat/manifests/forge-intruder']);
    expect(round.problems.every((p) => p.reason === 'tampered')).toBe(true);
    expect((await laptop.store.getConversation('g1'))?.title).toBe('Real');
    expect(await laptop.texts()).toEqual(before);

    // A generation-3 key check made with the old passphrase: not a change the laptop follows,
    // and the old passphrase does not unlock it.
    const { keyCheck } = await createKeyCheck(OLD, PBKDF2_ITERATIONS, 3, oldKey);
    await storage.write('gateway-chat/keychecks/3.json', new TextEncoder().encode(JSON.stringify(keyCheck)));
    await storage.write('gateway-chat/keychecks/999999.json', new TextEncoder().encode('{}'));
    await expect(laptop.round()).resolves.toBeDefined();
    expect(await unlockSync(storage, OLD, laptop.keys)).toMatchObject({ ok: false, code: 'old_passphrase' });
    expect(await unlockSync(storage, OLD, undefined)).toMatchObject({ ok: false, code: 'old_passphrase' });
    // A new device with the current passphrase: the planted check is not linked to it, so it is
    // no change (and 999999, with a gap before it, is no generation).
    const newcomer = await joinSync(storage, NEW, false);
    expect(newcomer).toMatchObject({ ok: true, key: { generation: 2 } });
  }, 60_000);

  it('a file the server fails to give during re-encryption stops the round (tried again), never counts as done', async () => {
    const storage = storageIn('rekeyfail');
    const joined = await joinSync(storage, OLD, true);
    if (!joined.ok) throw new Error('could not join');
    const laptop = new Profile('rekeyfail-laptop', storage, joined.key);
    await laptop.store.createConversation({ id: 'f1', profileId: 'p', model: 'm', surface: 'popup', title: 'Three segments' });
    for (let i = 1; i <= 3; i++) {
      await laptop.store.addMessage(message(`f${i}`, 'f1', i === 1 ? null : `f${i - 1}`, i, `turn ${i}`));
      await syncDevice(laptop.store, storage, laptop.keys, laptop.sync);
    }
    const changed = await changeSyncPassphrase(storage, laptop.keys, OLD, NEW);
    if (!changed.ok) throw new Error(changed.code);
    laptop.keys = await publishKeyCheck(storage, changed.key);
    const failing = new Proxy(storage, { get: (target, name) => (name === 'read' ? async (path: string) => {
      if (path.endsWith('/seg-2')) throw new SyncStorageError('server', `${server.address}sync/${path}`, 503);
      return target.read(path);
    } : Reflect.get(target, name, target)) });
    await expect(syncDevice(laptop.store, failing, laptop.keys, laptop.sync)).rejects.toMatchObject({ code: 'server' });
    expect(laptop.sync.memory.keyGeneration ?? 1).toBe(1);
    await syncDevice(laptop.store, storage, laptop.keys, laptop.sync);
    expect(laptop.sync.memory.keyGeneration).toBe(2);
    for (const [path, bytes] of sealedFiles(join(server.files, 'rekeyfail'))) expect(await opensWith(changed.key.key, path, bytes), path).toBe(true);
  }, 60_000);

  it('a re-encryption stopped half-way resumes where it got to, and re-encrypts nothing twice', async () => {
    const storage = storageIn('resume');
    const joined = await joinSync(storage, OLD, true);
    if (!joined.ok) throw new Error('could not join');
    const laptop = new Profile('resume-laptop', storage, joined.key);
    await laptop.store.createConversation({ id: 'r1', profileId: 'p', model: 'm', surface: 'popup', title: 'Many segments' });
    // 45 segments (no snapshot: every 4 is for the other test's tuning, so this profile's is set high).
    for (let i = 1; i <= 45; i++) {
      await laptop.store.addMessage(message(`r${i}`, 'r1', i === 1 ? null : `r${i - 1}`, i, `turn ${i}`));
      await syncDevice(laptop.store, storage, laptop.keys, laptop.sync);
    }
    const changed = await changeSyncPassphrase(storage, laptop.keys, OLD, NEW);
    if (!changed.ok) throw new Error(changed.code);
    laptop.keys = await publishKeyCheck(storage, changed.key);
    // The worker stops after the first save of its progress (20 files).
    let saved: unknown;
    const stopping = async (d: DeviceSync): Promise<void> => {
      saved = structuredClone(saveDeviceSync(d));
      throw new Error('worker stopped');
    };
    await expect(syncDevice(laptop.store, storage, laptop.keys, laptop.sync, undefined, undefined, stopping)).rejects.toThrow('worker stopped');
    const restarted = restoreDeviceSync(saved)!;
    expect(restarted.memory.rekey).toEqual({ generation: 2, done: 20 });
    laptop.sync = restarted;
    const progress: SyncProgress[] = [];
    await syncDevice(laptop.store, storage, laptop.keys, laptop.sync, undefined, (p) => progress.push(p));
    const rekeyed = progress.filter((p) => p.phase === 'rekey');
    expect(rekeyed[0]).toEqual({ phase: 'rekey', done: 21, total: 45 });
    expect(rekeyed.at(-1)).toEqual({ phase: 'rekey', done: 45, total: 45 });
    expect(laptop.sync.memory.keyGeneration).toBe(2);
    expect(laptop.sync.memory.rekey).toBeUndefined();
    for (const [path, bytes] of sealedFiles(join(server.files, 'resume'))) expect(await opensWith(changed.key.key, path, bytes), path).toBe(true);
    // A new device with the new passphrase reads it all: twenty segments a round, each applied
    // before the next reads on (it never holds the whole history at once).
    const reader = new Profile('resume-reader', storage, (await openSyncKeyring(storage, NEW, false)));
    const rounds: { more: boolean; texts: number }[] = [];
    for (let more = true; more;) {
      const round = await syncDevice(reader.store, storage, reader.keys, reader.sync);
      expect(round.problems).toEqual([]);
      more = round.more;
      rounds.push({ more, texts: (await reader.texts()).length });
    }
    expect(rounds).toEqual([{ more: true, texts: 20 }, { more: true, texts: 40 }, { more: false, texts: 45 }]);
  }, 120_000);
});

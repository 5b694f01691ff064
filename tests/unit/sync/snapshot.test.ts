import 'fake-indexeddb/auto';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { HybridClock } from '@/lib/sync/clock';
import { newMemory, openSyncKey, retireDevice } from '@/lib/sync/engine';
import { syncDevice, type DeviceRound, type DeviceSync } from '@/lib/sync/device';
import { emptyState, mergedView } from '@/lib/sync/merge';
import { restoreDeviceSync, saveDeviceSync } from '@/lib/sync/persist';
import { DEFAULT_TUNING, type SnapshotTuning } from '@/lib/sync/snapshot';
import type { SyncStorage } from '@/lib/sync/storage';
import { WebDavStorage } from '@/lib/sync/webdav';
import { serverFiles } from '../../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';

let n = 0;
/** Snapshots every 5 segments, deletions collected as soon as every device is past them. */
const QUICK: SnapshotTuning = { ...DEFAULT_TUNING, snapshotEvery: 5, graceMs: 0 };

function message(id: string, conversationId: string, parentId: string | null, seq: number, text: string, role: 'user' | 'assistant' = 'user'): Message {
  return { id, conversationId, parentId, seq, role, text, reasoning: '', status: 'complete', createdAt: 1 };
}

/** Counts what a device reads, by kind of file: the storage is the real server's. */
class Counting implements SyncStorage {
  reads: string[] = [];
  constructor(private readonly inner: SyncStorage) {}
  read(path: string): ReturnType<SyncStorage['read']> {
    this.reads.push(path);
    return this.inner.read(path);
  }
  write(path: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    return this.inner.write(path, bytes);
  }
  remove(path: string): Promise<void> {
    return this.inner.remove(path);
  }
  list(prefix: string): ReturnType<SyncStorage['list']> {
    return this.inner.list(prefix);
  }
  tags(prefix: string): ReturnType<SyncStorage['tags']> {
    return this.inner.tags(prefix);
  }
}

/** A browser profile, syncing with `tuning`. */
class Profile {
  readonly store = new ConversationStore(`sync-snapshot-${n++}`);
  sync: DeviceSync;
  constructor(readonly id: string, readonly storage: SyncStorage, readonly key: CryptoKey, readonly tuning: SnapshotTuning = QUICK, offsetMs = 0) {
    this.sync = { memory: newMemory(id), state: emptyState(), clock: new HybridClock(id, () => Date.now() + offsetMs) };
  }
  round(storage: SyncStorage = this.storage): Promise<DeviceRound> {
    return syncDevice(this.store, storage, this.key, this.sync, undefined, undefined, undefined, this.tuning);
  }
  /** What a user sees: conversations (title) and their messages. */
  async seen(): Promise<unknown> {
    const { conversations, messages } = await this.store.syncRecords();
    return {
      conversations: conversations.map((c) => ({ id: c.id, title: c.title })).sort((a, b) => a.id.localeCompare(b.id)),
      messages: messages.map((m) => ({ id: m.id, conversationId: m.conversationId, parentId: m.parentId, text: m.text })).sort((a, b) => a.id.localeCompare(b.id)),
    };
  }
  /** What its merged state says (records with every field's history, and deletions). */
  merged(): unknown {
    const view = mergedView(this.sync.state);
    return JSON.parse(JSON.stringify({ records: view.records, deleted: view.deleted, messages: [...this.sync.state.messages.keys()].sort() }));
  }
}

describe('snapshots and collecting deletions, against a WebDAV server (Apache mod_dav)', () => {
  let server: WebDavServer;
  const storageIn = (folder: string): WebDavStorage => new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder });
  const filesIn = (folder: string): string[] => [...serverFiles(join(server.files, folder)).keys()].sort();
  beforeAll(async () => {
    server = await startWebDavServer();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A laptop that synced one message a round for `rounds` rounds (a segment each), in c1, with a rename and a deleted c2. */
  async function busyLaptop(folder: string, rounds: number): Promise<{ storage: WebDavStorage; key: CryptoKey; laptop: Profile }> {
    const storage = storageIn(folder);
    const key = await openSyncKey(storage, `${folder} passphrase`, true);
    const laptop = new Profile(`${folder}-laptop`, storage, key);
    await laptop.store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'popup', title: 'First title' });
    await laptop.store.createConversation({ id: 'c2', profileId: 'p', model: 'm', surface: 'popup', title: 'Deleted soon' });
    await laptop.store.addMessage(message('c2m', 'c2', null, 1, 'in c2'));
    let parent: string | null = null;
    for (let i = 1; i <= rounds; i++) {
      if (i === 2) await laptop.store.renameConversation('c1', 'Second title');
      if (i === 3) await laptop.store.deleteConversation('c2');
      await laptop.store.addMessage(message(`m${i}`, 'c1', parent, i, `turn ${i}`));
      parent = `m${i}`;
      await laptop.round();
    }
    return { storage, key, laptop };
  }

  it('a device writes a snapshot once enough segments have gone by, and a new device reads it instead of those segments, ending with the same history', async () => {
    const { storage, key, laptop } = await busyLaptop('snap', 7);
    // Seven segments: a snapshot after the fifth, covering segments 1 to 5.
    expect(laptop.sync.memory.snapshot).toMatchObject({ n: 1, parts: 1, merged: { 'snap-laptop': 5 } });
    expect(filesIn('snap')).toContain('gateway-chat/devices/snap-laptop/snap-1-1');

    const counting = new Counting(storage);
    const newcomer = new Profile('snap-newcomer', counting, key);
    const round = await newcomer.round();
    expect(round.problems).toEqual([]);
    // The snapshot, then only the segments after it.
    expect(counting.reads.filter((p) => p.includes('/devices/'))).toEqual([
      'gateway-chat/devices/snap-laptop/snap-1-1',
      'gateway-chat/devices/snap-laptop/seg-6',
      'gateway-chat/devices/snap-laptop/seg-7',
    ]);
    expect(await newcomer.seen()).toEqual(await laptop.seen());
    // The merged state itself is the same: the title's earlier value kept in its history, c2 deleted.
    await laptop.round();
    expect(newcomer.merged()).toEqual(laptop.merged());
    expect(JSON.stringify(newcomer.merged())).toContain('First title');
    expect(newcomer.sync.memory.merged).toEqual({ 'snap-laptop': 7 });
  }, 60_000);

  it('a newer snapshot replaces the older one: its parts go once the manifest names the new one', async () => {
    const { laptop } = await busyLaptop('snap2', 11);
    expect(laptop.sync.memory.snapshot?.n).toBe(2);
    const files = filesIn('snap2');
    expect(files).toContain('gateway-chat/devices/snap2-laptop/snap-2-1');
    expect(files.filter((f) => f.includes('snap-1-'))).toEqual([]);
  }, 60_000);

  it('a snapshot part that cannot be read (cut short on the server): the new device reads the segments instead, and misses nothing', async () => {
    const { storage, key, laptop } = await busyLaptop('snapcut', 6);
    truncateSync(join(server.files, 'snapcut', 'gateway-chat/devices/snapcut-laptop/snap-1-1'), 40);
    const counting = new Counting(storage);
    const newcomer = new Profile('snapcut-newcomer', counting, key);
    const round = await newcomer.round();
    expect(round.problems.map((p) => p.path)).toEqual(['gateway-chat/devices/snapcut-laptop/snap-1-1']);
    expect(counting.reads.filter((p) => p.includes('/seg-'))).toHaveLength(6);
    expect(await newcomer.seen()).toEqual(await laptop.seen());
  }, 60_000);

  it('a device offline for many segments catches up from a snapshot plus the segments since', async () => {
    const storage = storageIn('offline');
    const key = await openSyncKey(storage, 'offline passphrase', true);
    const laptop = new Profile('offline-laptop', storage, key);
    const desktop = new Profile('offline-desktop', storage, key);
    await laptop.store.createConversation({ id: 'o1', profileId: 'p', model: 'm', surface: 'popup', title: 'Long' });
    await laptop.round();
    await desktop.round();
    // The desktop goes offline; the laptop syncs eight turns, one round each.
    let parent: string | null = null;
    for (let i = 1; i <= 8; i++) {
      await laptop.store.addMessage(message(`o${i}`, 'o1', parent, i, `while away ${i}`));
      parent = `o${i}`;
      await laptop.round();
    }
    expect(laptop.sync.memory.snapshot).toBeDefined();
    const counting = new Counting(storage);
    await desktop.round(counting);
    const segmentsRead = counting.reads.filter((p) => p.includes('/seg-')).length;
    expect(counting.reads.some((p) => p.includes('/snap-'))).toBe(true);
    expect(segmentsRead).toBeLessThan(8);
    expect(await desktop.seen()).toEqual(await laptop.seen());
  }, 60_000);

  it('a deletion is collected from every device\'s merged state once each has published that it merged it; the deleted conversation\'s messages go with it', async () => {
    const storage = storageIn('collect');
    const key = await openSyncKey(storage, 'collect passphrase', true);
    const laptop = new Profile('collect-laptop', storage, key);
    const desktop = new Profile('collect-desktop', storage, key, QUICK, -3_600_000);
    await laptop.store.createConversation({ id: 'k1', profileId: 'p', model: 'm', surface: 'popup', title: 'Stays' });
    await laptop.store.createConversation({ id: 'k2', profileId: 'p', model: 'm', surface: 'popup', title: 'Goes' });
    await laptop.store.addMessage(message('k2m', 'k2', null, 1, 'gone with it'));
    await laptop.round();
    await desktop.round();
    await desktop.store.deleteConversation('k2');
    let collectedOnLaptop = 0;
    let collectedOnDesktop = 0;
    for (let i = 0; i < 4; i++) {
      collectedOnDesktop += (await desktop.round()).collected;
      collectedOnLaptop += (await laptop.round()).collected;
    }
    expect(collectedOnLaptop).toBe(1);
    expect(collectedOnDesktop).toBe(1);
    for (const profile of [laptop, desktop]) {
      expect(profile.sync.state.tombstones.size).toBe(0);
      expect([...profile.sync.state.messages.keys()]).toEqual([]);
      expect(profile.sync.state.fields.has('conversation:k2')).toBe(false);
      expect(await profile.store.getConversation('k2')).toBeUndefined();
    }
    expect(await desktop.seen()).toEqual(await laptop.seen());
    // Rounds after that are quiet: nothing sent, no manifest rewritten for nothing.
    const before = laptop.sync.memory.manifestVersion;
    await laptop.round();
    await desktop.round();
    await laptop.round();
    expect(laptop.sync.memory.manifestVersion).toBe(before);
    // A device new after the collection reads the segments (the deletion in them) and agrees.
    const newcomer = new Profile('collect-newcomer', storage, key);
    await newcomer.round();
    expect(await newcomer.seen()).toEqual(await laptop.seen());
  }, 60_000);

  it('a deletion is kept while any listed device has not published that it merged it, and for a week by default', async () => {
    const storage = storageIn('keep');
    const key = await openSyncKey(storage, 'keep passphrase', true);
    const laptop = new Profile('keep-laptop', storage, key);
    const desktop = new Profile('keep-desktop', storage, key);
    const away = new Profile('keep-away', storage, key);
    await laptop.store.createConversation({ id: 'q1', profileId: 'p', model: 'm', surface: 'popup', title: 'Goes' });
    await laptop.round();
    await desktop.round();
    await away.round();
    // `away` goes offline; the other two delete and sync many times.
    await laptop.store.deleteConversation('q1');
    for (let i = 0; i < 4; i++) {
      await laptop.round();
      await desktop.round();
    }
    expect(laptop.sync.state.tombstones.size).toBe(1);
    expect(desktop.sync.state.tombstones.size).toBe(1);
    // Back: it merges the deletion, publishes so, and then every device collects it.
    for (let i = 0; i < 3; i++) {
      await away.round();
      await laptop.round();
      await desktop.round();
    }
    expect(laptop.sync.state.tombstones.size).toBe(0);
    expect(desktop.sync.state.tombstones.size).toBe(0);
    expect(away.sync.state.tombstones.size).toBe(0);

    // With the default week's grace, a fresh deletion stays however often every device syncs.
    const patient = new Profile('keep-patient', storageIn('keep-default'), await openSyncKey(storageIn('keep-default'), 'keep passphrase', true), DEFAULT_TUNING);
    const other = new Profile('keep-other', patient.storage, patient.key, DEFAULT_TUNING);
    await patient.store.createConversation({ id: 'q2', profileId: 'p', model: 'm', surface: 'popup', title: 'Goes' });
    await patient.round();
    await other.round();
    await patient.store.deleteConversation('q2');
    for (let i = 0; i < 3; i++) {
      await patient.round();
      await other.round();
    }
    expect(patient.sync.state.tombstones.size).toBe(1);
  }, 60_000);

  it('a snapshot part written for another snapshot of the same number (a restart that wrote it again, a server serving old bytes) is not taken for the one the manifest names', async () => {
    const { storage, key, laptop } = await busyLaptop('snapid', 4);
    const before = structuredClone(saveDeviceSync(laptop.sync));
    await laptop.store.addMessage(message('m5', 'c1', 'm4', 5, 'turn 5'));
    await laptop.round();
    expect(laptop.sync.memory.snapshot?.n).toBe(1);
    const partPath = join(server.files, 'snapid', 'gateway-chat/devices/snapid-laptop/snap-1-1');
    const first = readFileSync(partPath);
    // The worker stopped before it saved: the next round writes snapshot 1 again, another id.
    laptop.sync = restoreDeviceSync(before)!;
    await laptop.round();
    expect(readFileSync(partPath).equals(first)).toBe(false);
    // The server serves the first one's bytes (sealed for the same path): refused, and the segments read instead.
    writeFileSync(partPath, first);
    const newcomer = new Profile('snapid-newcomer', storage, key);
    const round = await newcomer.round();
    expect(round.problems).toEqual([{ path: 'gateway-chat/devices/snapid-laptop/snap-1-1', reason: 'unreadable' }]);
    expect(await newcomer.seen()).toEqual(await laptop.seen());
  }, 60_000);

  it('a device the listing leaves out (a flaky or hostile server) still holds a deletion back with the horizon it last published', async () => {
    const storage = storageIn('hidden');
    const key = await openSyncKey(storage, 'hidden passphrase', true);
    const laptop = new Profile('hidden-laptop', storage, key);
    const desktop = new Profile('hidden-desktop', storage, key);
    const away = new Profile('hidden-away', storage, key);
    await laptop.store.createConversation({ id: 'h1', profileId: 'p', model: 'm', surface: 'popup', title: 'Goes' });
    await laptop.round();
    await desktop.round();
    await away.round();
    await laptop.round();
    await desktop.round();
    // From now on the server lists no manifest of `away`.
    const hiding = new Proxy(storage, { get: (target, name) => (name === 'tags' ? async (folder: string) => new Map([...(await target.tags(folder))].filter(([d]) => d !== 'hidden-away')) : Reflect.get(target, name, target)) });
    await laptop.store.deleteConversation('h1');
    for (let i = 0; i < 4; i++) {
      await laptop.round(hiding);
      await desktop.round(hiding);
    }
    expect(laptop.sync.state.tombstones.size).toBe(1);
    expect(desktop.sync.state.tombstones.size).toBe(1);
  }, 60_000);

  it('a device that stopped syncing (its manifest says so) no longer holds deletions back; what it sent before it stopped still arrives', async () => {
    const storage = storageIn('retired');
    const key = await openSyncKey(storage, 'retired passphrase', true);
    const laptop = new Profile('retired-laptop', storage, key);
    const desktop = new Profile('retired-desktop', storage, key);
    const leaving = new Profile('retired-leaving', storage, key);
    await laptop.store.createConversation({ id: 'r1', profileId: 'p', model: 'm', surface: 'popup', title: 'Goes' });
    await laptop.round();
    await desktop.round();
    await leaving.round();
    await leaving.store.createConversation({ id: 'r2', profileId: 'p', model: 'm', surface: 'popup', title: 'Written before leaving' });
    await leaving.round();
    await retireDevice(storage, key, leaving.sync.memory, leaving.sync.clock.tick());
    await laptop.store.deleteConversation('r1');
    for (let i = 0; i < 4; i++) {
      await laptop.round();
      await desktop.round();
    }
    expect(laptop.sync.state.tombstones.size).toBe(0);
    expect(desktop.sync.state.tombstones.size).toBe(0);
    expect(laptop.sync.memory.retired).toEqual(['retired-leaving']);
    expect((await desktop.store.getConversation('r2'))?.title).toBe('Written before leaving');
  }, 60_000);

  it('what a device knows of snapshots and horizons survives a restart', async () => {
    const { laptop } = await busyLaptop('persist', 6);
    const restored = restoreDeviceSync(structuredClone(saveDeviceSync(laptop.sync)))!;
    expect(restored.memory).toEqual(laptop.sync.memory);
    expect(restored.memory.snapshot?.n).toBe(1);
  }, 60_000);
});

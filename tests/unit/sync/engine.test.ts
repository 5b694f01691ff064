import { chmodSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import type { Change } from '@/lib/sync/changes';
import { HybridClock } from '@/lib/sync/clock';
import { SyncCryptoError } from '@/lib/sync/crypto';
import { newMemory, openSyncKey, SEGMENT_CHANGES, syncRound, type SyncMemory } from '@/lib/sync/engine';
import { applyChanges, emptyState, mergedView, type SyncState } from '@/lib/sync/merge';
import type { SyncStorageError} from '@/lib/sync/storage';
import { type SyncStorage } from '@/lib/sync/storage';
import { WebDavStorage } from '@/lib/sync/webdav';
import { serverFiles } from '../../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';

const PASSPHRASE = 'two devices, one history';
const MARKER = 'PLAINTEXT-MARKER-41d7';


function message(id: string, parentId: string | null, seq: number, text: string, role: 'user' | 'assistant' = 'user'): Message {
  return { id, conversationId: 'c1', parentId, seq, role, text, reasoning: '', status: 'complete', createdAt: 1 };
}

/** One device: its clock, its memory, its merged state, its changes not yet synced. */
class Device {
  memory: SyncMemory;
  state: SyncState = emptyState();
  pending: Change[] = [];
  readonly clock: HybridClock;
  constructor(readonly id: string, readonly storage: SyncStorage, readonly key: CryptoKey, offsetMs = 0) {
    this.memory = newMemory(id);
    this.clock = new HybridClock(id, () => Date.now() + offsetMs);
  }
  change(make: (stamp: string) => Change): void {
    const change = make(this.clock.tick());
    this.pending.push(change);
    applyChanges(this.state, [change]);
  }
  async sync(): Promise<ReturnType<typeof syncRound>> {
    const result = await syncRound(this.storage, this.key, this.memory, this.pending);
    this.memory = result.memory;
    this.pending = [];
    for (const change of result.changes) this.clock.observe(change.stamp);
    applyChanges(this.state, result.changes);
    return result;
  }
  view(): unknown {
    const v = mergedView(this.state);
    return JSON.parse(JSON.stringify({ records: v.records, messages: [...v.messages], deleted: v.deleted }));
  }
}

describe('a round of sync, two devices on one WebDAV server (Apache mod_dav)', () => {
  let server: WebDavServer;
  const storageFor = (password = server.password): WebDavStorage => new WebDavStorage({ address: server.address, username: server.username, password, folder: 'sync' });
  beforeAll(async () => {
    server = await startWebDavServer();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  it('merges offline turns as versions, honours a deletion and the newer title, with one clock an hour behind; the server holds only ciphertext', async () => {
    const storage = storageFor();
    const laptop = new Device('laptop01', storage, await openSyncKey(storage, PASSPHRASE, true));
    // The desktop joins with the passphrase: the key check written by the laptop proves it.
    const desktop = new Device('desktop1', storage, await openSyncKey(storage, PASSPHRASE, false), -3_600_000);

    laptop.change((stamp) => ({ type: 'message', stamp, message: message('m1', null, 1, `Hello ${MARKER}`) }));
    laptop.change((stamp) => ({ type: 'message', stamp, message: message('m2', 'm1', 2, 'Hi', 'assistant') }));
    laptop.change((stamp) => ({ type: 'field', stamp, kind: 'conversation', id: 'c1', field: 'title', value: `Title ${MARKER}` }));
    laptop.change((stamp) => ({ type: 'field', stamp, kind: 'conversation', id: 'c2', field: 'title', value: 'To delete' }));
    await laptop.sync();
    await desktop.sync();

    // Both offline now: each adds a turn to c1; the desktop deletes c2 and renames c1 (after it read the laptop's title).
    laptop.change((stamp) => ({ type: 'message', stamp, message: message('m3', 'm2', 3, 'From the laptop') }));
    desktop.change((stamp) => ({ type: 'message', stamp, message: message('m4', 'm2', 3, 'From the desktop') }));
    desktop.change((stamp) => ({ type: 'delete', stamp, kind: 'conversation', id: 'c2' }));
    desktop.change((stamp) => ({ type: 'field', stamp, kind: 'conversation', id: 'c1', field: 'title', value: 'Renamed on the desktop' }));
    await laptop.sync();
    await desktop.sync();
    await laptop.sync();

    expect(laptop.view()).toEqual(desktop.view());
    const view = mergedView(laptop.state);
    expect(view.messages.get('c1')!.filter((m) => m.parentId === 'm2').map((m) => m.text).sort()).toEqual(['From the desktop', 'From the laptop']);
    expect(view.records.find((r) => r.id === 'c1')!.fields.title).toBe('Renamed on the desktop');
    expect(view.deleted).toEqual([{ kind: 'conversation', id: 'c2' }]);

    // A new device with the passphrase gets everything from the others' segments.
    const fresh = new Device('newcomer', storage, await openSyncKey(storage, PASSPHRASE, false));
    await fresh.sync();
    expect(fresh.view()).toEqual(laptop.view());

    for (const [name, bytes] of serverFiles(server.files)) {
      expect(bytes.toString('latin1'), name).not.toContain(MARKER);
      expect(bytes.toString('latin1'), name).not.toContain('From the laptop');
    }
  });

  /** The requests logged since the `from`th (Apache logs a request just after answering it: waited for until no more come). */
  async function loggedSince(from: number): Promise<string[]> {
    // Unchanged for half a second (a loaded machine may log late).
    let seen = -1;
    let still = 0;
    while (still < 5) {
      const now = server.requests().length;
      still = now === seen ? still + 1 : 0;
      seen = now;
      await new Promise((r) => setTimeout(r, 100));
    }
    return server.requests().slice(from);
  }

  it("a long history goes up as segments of a bounded size, published together; one new message is three requests (its segment, the manifests listed, its own manifest), and an idle round is one listing", async () => {
    const storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'segments' });
    const key = await openSyncKey(storage, PASSPHRASE, true);
    const big = new Device('bigone01', storage, key);
    const reader = new Device('reader01', storage, key);
    const count = SEGMENT_CHANGES * 2 + 10;
    for (let i = 0; i < count; i++) big.change((stamp) => ({ type: 'message', stamp, message: message(`m${i}`, i === 0 ? null : `m${i - 1}`, i + 1, `text ${i}`) }));
    // Counted once the earlier requests are all logged (Apache logs each just after answering it).
    const before = (await loggedSince(0)).length;
    const progress: unknown[] = [];
    const result = await syncRound(storage, key, big.memory, big.pending, { onProgress: (p) => progress.push(p) });
    big.memory = result.memory;
    big.pending = [];
    expect(big.memory.segments).toBe(3);
    // How far it is, as it goes: for the status ("sending 2 of 3 parts").
    expect(progress).toEqual([1, 2, 3].map((done) => ({ phase: 'up', done, total: 3 })));
    expect((await loggedSince(before)).filter((r) => r.startsWith('PUT ') && r.includes('/seg-') && r.endsWith(' 201'))).toHaveLength(3);
    const down: unknown[] = [];
    const read = await syncRound(storage, key, reader.memory, [], { onProgress: (p) => down.push(p) });
    reader.memory = read.memory;
    expect(down).toEqual([1, 2, 3].map((done) => ({ phase: 'down', done, total: 3 })));
    expect(read.problems).toEqual([]);
    expect(read.changes).toHaveLength(count);

    // The big one learns of the reader (its manifest is new to it).
    await big.sync();
    // One new message: its segment, the listing of manifests (the other's unchanged: not read), its manifest.
    big.change((stamp) => ({ type: 'message', stamp, message: message('one-more', `m${count - 1}`, count + 1, 'one more') }));
    // Counted once the earlier requests are all logged (Apache logs each just after answering it).
    const start = (await loggedSince(0)).length;
    await big.sync();
    const requests = (await loggedSince(start)).filter((r) => !r.startsWith('MKCOL '));
    expect(requests.map((r) => r.split(' ')[0])).toEqual(['PUT', 'PROPFIND', 'PUT']);
    // A round with nothing to send and nothing new to read writes nothing: one listing.
    // Counted once the earlier requests are all logged (Apache logs each just after answering it).
    const idle = (await loggedSince(0)).length;
    await big.sync();
    expect((await loggedSince(idle)).map((r) => r.split(' ')[0])).toEqual(['PROPFIND']);
  }, 60_000);

  it('segments stay near 8 MB: three images of 5 MB go as three segments', async () => {
    const storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'big-images' });
    const key = await openSyncKey(storage, PASSPHRASE, true);
    const writer = new Device('imgwrite', storage, key);
    const reader = new Device('imgreadr', storage, key);
    const base64 = 'A'.repeat(5 * 1024 * 1024);
    for (const id of ['a', 'b', 'c']) writer.change((stamp) => ({ type: 'image', stamp, image: { id, conversationId: 'c1', messageId: 'm1', createdAt: 1, source: 'generated', prompt: 'p', mime: 'image/png', index: 0, base64 } }));
    await writer.sync();
    expect(writer.memory.segments).toBe(3);
    const read = await reader.sync();
    expect(read.problems).toEqual([]);
    expect(read.changes.map((c) => c.type === 'image' && c.image.id)).toEqual(['a', 'b', 'c']);
    // Gone again: the other tests read every file on the server.
    await storage.remove('gateway-chat/');
  }, 60_000);

  it('a wrong passphrase is said before anything is read or written; a wrong password is a 401 with the address', async () => {
    const before = serverFiles(server.files);
    const error = await openSyncKey(storageFor(), 'not the passphrase', false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncCryptoError);
    expect((error as SyncCryptoError).code).toBe('wrong_passphrase');
    expect(serverFiles(server.files)).toEqual(before);
    const refused = await openSyncKey(storageFor('wrong password'), PASSPHRASE, false).catch((e: unknown) => e);
    expect((refused as SyncStorageError).code).toBe('unauthorized');
  });

  it('a truncated segment is detected, the others still apply, and it is read again next round', async () => {
    const storage = storageFor();
    const key = await openSyncKey(storage, PASSPHRASE, false);
    const writer = new Device('writer01', storage, key);
    const reader = new Device('reader01', storage, key);
    for (const id of ['t1', 't2', 't3']) {
      writer.change((stamp) => ({ type: 'field', stamp, kind: 'preset', id, field: 'name', value: id }));
      await writer.sync();
    }
    const segment2 = join(server.files, 'sync/gateway-chat/devices/writer01/seg-2');
    const whole = readFileSync(segment2);
    truncateSync(segment2, 40);
    const first = await reader.sync();
    expect(first.problems).toEqual([{ path: 'gateway-chat/devices/writer01/seg-2', reason: 'tampered' }]);
    expect(mergedView(reader.state).records.filter((r) => r.kind === 'preset').map((r) => r.id)).toEqual(['t1', 't3']);
    // Mended (the writer's copy was whole): the next round reads it.
    await storage.write('gateway-chat/devices/writer01/seg-2', new Uint8Array(whole));
    const second = await reader.sync();
    expect(second.problems).toEqual([]);
    expect(mergedView(reader.state).records.filter((r) => r.kind === 'preset').map((r) => r.id)).toEqual(['t1', 't2', 't3']);
  });

  it('another device\'s file the server refuses (403) is said and read again later; this device still publishes', async () => {
    const storage = storageFor();
    const key = await openSyncKey(storage, PASSPHRASE, false);
    const writer = new Device('forbid01', storage, key);
    const reader = new Device('forbid02', storage, key);
    writer.change((stamp) => ({ type: 'field', stamp, kind: 'preset', id: 'f1', field: 'name', value: 'f1' }));
    await writer.sync();
    const segment = join(server.files, 'sync/gateway-chat/devices/forbid01/seg-1');
    chmodSync(segment, 0o000);
    reader.change((stamp) => ({ type: 'field', stamp, kind: 'preset', id: 'f2', field: 'name', value: 'f2' }));
    try {
      const first = await reader.sync();
      expect(first.problems).toEqual([{ path: 'gateway-chat/devices/forbid01/seg-1', reason: 'unreadable' }]);
      expect(reader.memory.segments).toBe(1);
      // The writer reads what the reader published meanwhile.
      expect((await writer.sync()).changes.map((c) => c.type === 'field' && c.id)).toEqual(['f2']);
    } finally {
      chmodSync(segment, 0o644);
    }
    expect((await reader.sync()).changes.map((c) => c.type === 'field' && c.id)).toEqual(['f1']);
  });

  it('the server killed mid-round: nothing corrupt is seen, and the next round completes', async () => {
    const storage = storageFor();
    const key = await openSyncKey(storage, PASSPHRASE, false);
    const dying: SyncStorage = {
      read: (path) => storage.read(path),
      list: (folder) => storage.list(folder),
      tags: (folder) => storage.tags(folder),
      remove: (path) => storage.remove(path),
      // The segment is written; the server dies before the manifest that would publish it.
      write: async (path, bytes) => {
        if (path.includes('/manifests/')) await server.kill();
        return storage.write(path, bytes);
      },
    };
    const writer = new Device('crash001', dying, key);
    const reader = new Device('watch001', storage, key);
    writer.change((stamp) => ({ type: 'field', stamp, kind: 'prompt', id: 'p1', field: 'text', value: 'kept' }));
    const pending = [...writer.pending];
    const failed = await writer.sync().catch((e: unknown) => e);
    expect((failed as SyncStorageError).code).toBe('unreachable');
    await server.restart();
    // Unpublished, the written segment is invisible to others.
    await reader.sync();
    expect(mergedView(reader.state).records.some((r) => r.id === 'p1')).toBe(false);
    // The writer kept its changes (its round did not finish) and publishes them now.
    const again = new Device('crash001', storage, key);
    again.memory = writer.memory;
    again.pending = pending;
    await again.sync();
    await reader.sync();
    expect(mergedView(reader.state).records.find((r) => r.id === 'p1')?.fields.text).toBe('kept');
  }, 30_000);
});

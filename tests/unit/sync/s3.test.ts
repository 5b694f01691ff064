import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMemory, openSyncKey, syncRound } from '@/lib/sync/engine';
import { applyChanges, emptyState, mergedView } from '@/lib/sync/merge';
import { probeStorage, type SyncStorageError } from '@/lib/sync/storage';
import { S3Storage, type S3Account } from '@/lib/sync/s3';
import { HybridClock } from '@/lib/sync/clock';
import { startS3Server, type S3Server } from '../../sync/s3-server';
import { checkTags } from '../../sync/storage-contract';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => (data === undefined ? undefined : new TextDecoder().decode(data));

describe('sync storage over S3, against @20minutes/s3rver (SigV4 signatures checked)', () => {
  let server: S3Server;
  let account: S3Account;
  beforeAll(async () => {
    server = await startS3Server();
    account = { endpoint: server.endpoint, bucket: server.bucket, region: server.region, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey, folder: 'my sync/设备' };
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes, reads, lists (objects and folders) and removes, under the prefix given', async () => {
    const storage = new S3Storage(account);
    await storage.write('gateway-chat/devices/laptop01/seg-1', bytes('one'));
    await storage.write('gateway-chat/devices/laptop01/manifest', bytes('index'));
    await storage.write('gateway-chat/keycheck.json', bytes('{}'));
    expect(text(await storage.read('gateway-chat/devices/laptop01/seg-1'))).toBe('one');
    expect(await storage.read('gateway-chat/devices/laptop01/seg-9')).toBeUndefined();
    // (This server finds a folder only one level above an object, unlike S3: the listings sync
    // makes, of the devices and of a device's files, are of that kind.)
    expect(await storage.list('gateway-chat/devices/')).toEqual(['laptop01/']);
    expect(await storage.list('gateway-chat/devices/laptop01/')).toEqual(['manifest', 'seg-1']);
    await storage.remove('gateway-chat/devices/laptop01/seg-1');
    expect(await storage.list('gateway-chat/devices/laptop01/')).toEqual(['manifest']);
    // "Erase synced data on the server": the folder, with everything in it.
    await storage.remove('gateway-chat/');
    expect(await storage.list('gateway-chat/devices/laptop01/')).toEqual([]);
    expect(await storage.read('gateway-chat/keycheck.json')).toBeUndefined();
  });

  it('tags each object in a folder (not its sub-folders); a rewritten object gets a new tag', async () => {
    await checkTags(new S3Storage(account));
  });


  it('"Test sync" passes; a wrong secret is refused by the signature check; a missing bucket is named', async () => {
    expect(await probeStorage(new S3Storage(account))).toBeUndefined();
    const wrong = await probeStorage(new S3Storage({ ...account, secretAccessKey: 'not-the-secret' }));
    expect(wrong?.step).toBe('list');
    expect((wrong?.error as SyncStorageError).code).toBe('unauthorized');
    expect((wrong?.error as SyncStorageError).status).toBe(403);
    expect(wrong?.error.message).not.toContain('not-the-secret');
    const missing = await probeStorage(new S3Storage({ ...account, bucket: 'no-such-bucket' }));
    expect((missing?.error as SyncStorageError).code).toBe('missing');
    expect((missing?.error as SyncStorageError).address).toContain('/no-such-bucket');
  });

  it('carries a round of sync between two devices', async () => {
    const storage = new S3Storage(account);
    const key = await openSyncKey(storage, 'passphrase on S3', true);
    const clock = new HybridClock('laptop01');
    const sent = await syncRound(storage, key, newMemory('laptop01'), [{ type: 'field', stamp: clock.tick(), kind: 'conversation', id: 'c1', field: 'title', value: 'Over S3' }]);
    expect(sent.problems).toEqual([]);
    const other = await syncRound(storage, await openSyncKey(storage, 'passphrase on S3', false), newMemory('desktop1'), []);
    expect(mergedView(applyChanges(emptyState(), other.changes)).records[0]!.fields.title).toBe('Over S3');
  });
});

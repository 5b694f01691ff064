import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeStorage, type SyncStorageError } from '@/lib/sync/storage';
import { WebDavStorage, multistatusHrefs } from '@/lib/sync/webdav';
import { serverFiles } from '../../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';
import { checkTags } from '../../sync/storage-contract';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => (data === undefined ? undefined : new TextDecoder().decode(data));


describe('sync storage over WebDAV, against Apache mod_dav', () => {
  let server: WebDavServer;
  let storage: WebDavStorage;
  beforeAll(async () => {
    server = await startWebDavServer();
    storage = new WebDavStorage({ address: server.address, username: server.username, password: server.password, folder: 'Sync folder/我的' });
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  it('writes (making its folders), reads, lists and removes, under the folder given', async () => {
    await storage.write('gateway-chat/devices/laptop01/seg-1', bytes('one'));
    await storage.write('gateway-chat/devices/laptop01/manifest', bytes('index'));
    await storage.write('gateway-chat/keycheck.json', bytes('{}'));
    expect(text(await storage.read('gateway-chat/devices/laptop01/seg-1'))).toBe('one');
    expect(await storage.read('gateway-chat/devices/laptop01/seg-9')).toBeUndefined();
    expect(await storage.list('gateway-chat/')).toEqual(['devices/', 'keycheck.json']);
    expect(await storage.list('gateway-chat/devices/laptop01/')).toEqual(['manifest', 'seg-1']);
    expect(await storage.list('gateway-chat/nothing-here/')).toEqual([]);
    expect([...serverFiles(server.files).keys()].sort()).toEqual(['Sync folder/我的/gateway-chat/devices/laptop01/manifest', 'Sync folder/我的/gateway-chat/devices/laptop01/seg-1', 'Sync folder/我的/gateway-chat/keycheck.json']);
    await storage.write('gateway-chat/devices/laptop01/manifest', bytes('index 2'));
    expect(text(await storage.read('gateway-chat/devices/laptop01/manifest'))).toBe('index 2');
    await storage.remove('gateway-chat/devices/laptop01/seg-1');
    await storage.remove('gateway-chat/devices/laptop01/seg-1');
    expect(await storage.list('gateway-chat/devices/laptop01/')).toEqual(['manifest']);
  });

  it('tags each object in a folder (not its sub-folders); a rewritten object gets a new tag', async () => {
    await checkTags(storage);
  });


  it('"Test sync" passes with the right password; with a wrong one it says 401, at the address, without the password', async () => {
    expect(await probeStorage(storage)).toBeUndefined();
    const wrong = new WebDavStorage({ address: server.address, username: server.username, password: 'nope', folder: 'x' });
    const failed = await probeStorage(wrong);
    expect(failed?.step).toBe('list');
    const error = failed?.error as SyncStorageError;
    expect(error.code).toBe('unauthorized');
    expect(error.status).toBe(401);
    expect(error.address).toBe(`${server.address}x/gateway-chat/`);
    expect(error.message).not.toContain('nope');
  });

  it('says unreachable when the server is down, and carries on once it is back', async () => {
    await server.kill();
    const error = await storage.read('gateway-chat/keycheck.json').catch((e: unknown) => e);
    expect((error as SyncStorageError).code).toBe('unreachable');
    await server.restart();
    expect(text(await storage.read('gateway-chat/keycheck.json'))).toBe('{}');
  }, 30_000);

  it('reads the listing\'s addresses whatever their namespace prefix', () => {
    expect(multistatusHrefs('<d:multistatus xmlns:d="DAV:"><d:response><d:href>/dav/a%20b/</d:href></d:response><d:response><d:href>/dav/a%20b/c&amp;d</d:href></d:response></d:multistatus>')).toEqual(['/dav/a b/', '/dav/a b/c&d']);
  });
});

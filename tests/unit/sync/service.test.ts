import 'fake-indexeddb/auto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncKeyring } from '@/lib/sync/crypto';
import type { Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { newDeviceId, storageFor, type SyncConfig } from '@/lib/sync/config';
import { SyncService, type SavedDevice, type SyncServiceStatus } from '@/lib/sync/service';
import type { SchedulerClock } from '@/lib/sync/scheduler';
import { changeSyncPassphrase, eraseSyncData, joinSync, testSync } from '@/lib/sync/setup';
import { defaultSettings } from '@/lib/settings/schema';
import { serverFiles } from '../../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../../sync/webdav-server';

let n = 0;

function message(id: string, conversationId: string, parentId: string | null, seq: number, text: string): Message {
  return { id, conversationId, parentId, seq, role: 'user', text, reasoning: '', status: 'complete', createdAt: 1 };
}

/** A browser profile as the background sees it: its database, its saved config, key and device state. */
function backgroundOf(config: SyncConfig | undefined, clock?: SchedulerClock) {
  const store = new ConversationStore(`sync-service-${n++}`);
  const statuses: SyncServiceStatus[] = [];
  let saved: SavedDevice | undefined;
  const profile = {
    store,
    settings: defaultSettings(),
    config,
    key: undefined as SyncKeyring | undefined,
    statuses,
    get saved() {
      return saved;
    },
    service: undefined as unknown as SyncService,
    /** Waits for the round under way (or the next) to end. */
    async settled(): Promise<SyncServiceStatus> {
      for (let i = 0; i < 500; i++) {
        const status = profile.service.status;
        if (status.state !== 'syncing' && statuses.length > 0 && statuses.at(-1)?.state !== 'syncing') return status;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('sync did not settle');
    },
  };
  profile.service = new SyncService({
    store,
    loadConfig: async () => profile.config,
    loadKey: async () => profile.key,
    saveKey: async (keys) => {
      profile.key = keys;
    },
    loadDevice: async () => saved,
    settings: {
      read: async () => profile.settings,
      write: async (change) => {
        profile.settings = change(profile.settings);
      },
    },
    saveDevice: async (device) => {
      saved = structuredClone(device);
    },
    onStatus: (status) => statuses.push(status),
    ...(clock === undefined ? {} : { clock }),
  });
  return profile;
}

describe('sync set up from the options page and run by the background, against Apache mod_dav', () => {
  let server: WebDavServer;
  const config = (folder: string, overrides: Partial<Extract<SyncConfig, { service: 'webdav' }>> = {}): SyncConfig => ({
    service: 'webdav', address: server.address, username: server.username, password: server.password, folder, deviceId: newDeviceId(), syncSettings: false, ...overrides,
  });
  beforeAll(async () => {
    server = await startWebDavServer();
  }, 30_000);
  afterAll(async () => {
    await server?.close();
  });

  it('"Test sync" says the first device is first, names a refused password with its address and status, and an unreachable server', async () => {
    const good = config('setup');
    expect(await testSync(storageFor(good))).toEqual({ ok: true, firstDevice: true });
    const refused = await testSync(storageFor(config('setup', { password: 'wrong' })));
    expect(refused).toMatchObject({ ok: false, code: 'unauthorized', step: 'list', status: 401 });
    expect(refused.ok === false && refused.address).toContain('/dav/');
    expect(JSON.stringify(refused)).not.toContain(server.password);
    const nowhere = await testSync(storageFor(config('setup', { address: 'http://127.0.0.1:9/dav/' })));
    expect(nowhere).toMatchObject({ ok: false, code: 'unreachable', step: 'list' });

    const first = await joinSync(storageFor(good), 'correct horse', true);
    expect(first.ok).toBe(true);
    expect(await testSync(storageFor(good))).toEqual({ ok: true, firstDevice: false });
    expect(await joinSync(storageFor(good), 'wrong horse', false)).toMatchObject({ ok: false, code: 'wrong_passphrase' });
    expect(await joinSync(storageFor(good), '', false)).toMatchObject({ ok: false, code: 'empty_passphrase' });
    // The first device must choose one long enough.
    expect(await joinSync(storageFor(config('setup-short')), 'short one', true)).toMatchObject({ ok: false, code: 'short_passphrase' });
    expect((await joinSync(storageFor(good), 'correct horse', false)).ok).toBe(true);
  }, 60_000);

  it('two backgrounds sync a conversation both ways, say when they synced, and "Erase" leaves nothing on the server', async () => {
    const laptop = backgroundOf(config('service'));
    const desktop = backgroundOf(config('service'));
    const storage = storageFor(laptop.config!);
    const joined = await joinSync(storage, 'pass phrase', true);
    const joinedToo = await joinSync(storage, 'pass phrase', false);
    if (!joined.ok || !joinedToo.ok) throw new Error('could not join');
    laptop.key = joined.key;
    desktop.key = joinedToo.key;

    await laptop.store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'popup', title: 'From the laptop' });
    laptop.settings = { ...laptop.settings, presets: [{ id: 'pr1', name: 'Reviewer', systemPrompt: 'Review it.' }], appearance: { theme: 'dark', language: 'browser' } };
    await laptop.store.addMessage(message('m1', 'c1', null, 1, 'hello'));
    await laptop.service.start();
    expect(await laptop.settled()).toMatchObject({ state: 'idle', lastSyncedAt: expect.any(Number) });
    expect(laptop.statuses.map((s) => s.state)).toEqual(['syncing', 'idle']);
    expect(laptop.service.lastRound).toMatchObject({ sent: expect.any(Number), received: 0 });

    await desktop.service.start();
    await desktop.settled();
    expect((await desktop.store.getConversation('c1'))?.title).toBe('From the laptop');
    expect((await desktop.store.messages('c1')).map((m) => m.text)).toEqual(['hello']);
    // Presets sync; settings only when "Sync settings" is ticked (it is not here).
    expect(desktop.settings.presets.map((p) => p.name)).toEqual(['Reviewer']);
    expect(desktop.settings.appearance.theme).toBe('system');

    await desktop.store.renameConversation('c1', 'Renamed on the desktop');
    desktop.service.now();
    await desktop.settled();
    laptop.service.now();
    await laptop.settled();
    expect((await laptop.store.getConversation('c1'))?.title).toBe('Renamed on the desktop');
    // Saved with where it belongs: a restarted background goes on from it (nothing sent again).
    expect(laptop.saved?.destination).toContain(server.address);

    const ours = (): string[] => [...serverFiles(server.files).keys()].filter((f) => f.startsWith('service/'));
    expect(ours().length).toBeGreaterThan(3);
    const erased = await eraseSyncData(storage);
    expect(erased).toEqual({ ok: true });
    expect(ours()).toEqual([]);
    // The other device, still set up, finds its files gone: it pauses and writes nothing.
    desktop.service.now();
    expect(await desktop.settled()).toMatchObject({ state: 'paused', code: 'erased' });
    expect(ours()).toEqual([]);
  }, 120_000);

  it('without its key a device pauses and says so; without a config it is off; pointed elsewhere it starts over there', async () => {
    const device = backgroundOf(config('nokey'));
    await device.service.start();
    expect(await device.settled()).toMatchObject({ state: 'paused', code: 'no_key' });

    const off = backgroundOf(undefined);
    await off.service.start();
    expect(off.service.status).toEqual({ state: 'off' });
    expect(off.statuses).toEqual([{ state: 'off' }]);

    const moving = backgroundOf(config('first-place'));
    const first = await joinSync(storageFor(moving.config!), 'moving passphrase', true);
    if (!first.ok) throw new Error('could not join');
    moving.key = first.key;
    await moving.store.createConversation({ id: 'c9', profileId: 'p', model: 'm', surface: 'popup', title: 'Moves along' });
    await moving.service.start();
    await moving.settled();
    moving.config = { ...moving.config!, folder: 'second-place' };
    const second = await joinSync(storageFor(moving.config), 'moving passphrase', true);
    if (!second.ok) throw new Error('could not join');
    moving.key = second.key;
    await moving.service.settingsChanged();
    await moving.settled();
    // Everything this device has is published to the new place too.
    const reader = backgroundOf({ ...moving.config, deviceId: newDeviceId() });
    reader.key = second.key;
    await reader.service.start();
    await reader.settled();
    expect((await reader.store.getConversation('c9'))?.title).toBe('Moves along');
  }, 120_000);
  it('a passphrase change whose page closed before its key check was written: the background writes it before it seals anything with the new key', async () => {
    const laptop = backgroundOf(config('pending'));
    const storage = storageFor(laptop.config!);
    const joined = await joinSync(storage, 'the passphrase before', true);
    if (!joined.ok) throw new Error(joined.code);
    laptop.key = joined.key;
    await laptop.store.createConversation({ id: 'p1', profileId: 'p', model: 'm', surface: 'popup', title: 'Before the change' });
    await laptop.service.start();
    await laptop.settled();
    // The page kept the new keys, then closed before writing the check.
    const changed = await changeSyncPassphrase(storage, laptop.key, 'the passphrase before', 'the passphrase after');
    if (!changed.ok) throw new Error(changed.code);
    expect(changed.key.pending).toBeDefined();
    laptop.key = changed.key;
    expect(existsSync(join(server.files, 'pending', 'gateway-chat', 'keychecks', '2.json'))).toBe(false);
    laptop.service.now();
    expect((await laptop.settled()).state).toBe('idle');
    expect(existsSync(join(server.files, 'pending', 'gateway-chat', 'keychecks', '2.json'))).toBe(true);
    expect(laptop.key?.pending).toBeUndefined();
    // The new passphrase is the storage's now, and everything opens with it.
    const reader = backgroundOf({ ...laptop.config!, deviceId: newDeviceId() });
    const join2 = await joinSync(storage, 'the passphrase after', false);
    if (!join2.ok) throw new Error(join2.code);
    reader.key = join2.key;
    await reader.service.start();
    expect((await reader.settled()).state).toBe('idle');
    expect((await reader.store.getConversation('p1'))?.title).toBe('Before the change');
  }, 60_000);
  it('what a round writes to the database is not a change to sync a minute later; an edit made here is', async () => {
    const laptop = backgroundOf(config('own-writes'));
    const storage = storageFor(laptop.config!);
    const joined = await joinSync(storage, 'own writes passphrase', true);
    if (!joined.ok) throw new Error(joined.code);
    laptop.key = joined.key;
    await laptop.store.createConversation({ id: 'o1', profileId: 'p', model: 'm', surface: 'popup', title: 'From the laptop' });
    await laptop.service.start();
    await laptop.settled();
    // The desktop's scheduler on a clock that notes the timers asked for.
    const timers: number[] = [];
    const clock: SchedulerClock = { now: () => Date.now(), setTimeout: (run, ms) => { timers.push(ms); return setTimeout(run, ms); }, clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) };
    const desktop = backgroundOf({ ...laptop.config!, deviceId: newDeviceId() }, clock);
    desktop.key = joined.key;
    // Opened first (a database just created says all its tables changed).
    await desktop.store.syncRecords();
    const unwatch = desktop.store.watchSyncChanges(() => desktop.service.changed(), () => undefined);
    try {
      await desktop.service.start();
      await desktop.settled();
      expect((await desktop.store.getConversation('o1'))?.title).toBe('From the laptop');
      await new Promise((r) => setTimeout(r, 400));
      expect(timers.filter((ms) => ms === 60_000)).toEqual([]);
      await desktop.store.createConversation({ id: 'o2', profileId: 'p', model: 'm', surface: 'popup', title: 'From the desktop' });
      await new Promise((r) => setTimeout(r, 100));
      expect(timers.filter((ms) => ms === 60_000)).toEqual([60_000]);
    } finally {
      unwatch();
    }
  }, 60_000);
});

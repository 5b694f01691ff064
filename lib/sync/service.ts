/**
 * Sync in the background (issue 31), framework-free: where it syncs to and with which key come
 * from the adapter (storage.local and IndexedDB, lib/sync/sync.adapter.ts); a round is
 * `syncDevice` over the conversation store; when rounds run is the scheduler's business. The
 * device's sync is saved after every round, with the destination it belongs to: pointed
 * somewhere else, a device starts over there (its local data published whole, nothing lost).
 */
import { HybridClock } from './clock';
import { storageFor, type SyncConfig } from './config';
import { SyncCryptoError, type SyncKeyring } from './crypto';
import { syncDevice, type DeviceSync, type SettingsSide, type SyncedStore } from './device';
import { newMemory, retireDevice } from './engine';
import { publishKeyCheck } from './keys';
import { emptyState } from './merge';
import { restoreDeviceSync, saveDeviceSync, type SavedSync } from './persist';
import { SyncScheduler, type SchedulerClock, type SyncProgress, type SyncStatus } from './scheduler';

/** How long after a round's own write its news may still arrive (Dexie relays it; storage.onChanged). */
const OWN_WRITE_NEWS_MS = 250;

/** What the UI shows: sync set up or not, and the scheduler's status. */
export type SyncServiceStatus = { state: 'off' } | SyncStatus;

export interface SavedDevice {
  /** Where its state belongs (`destinationOf`). */
  destination: string;
  sync: SavedSync;
}

export interface SyncServiceDeps {
  store: SyncedStore;
  loadConfig(): Promise<SyncConfig | undefined>;
  loadKey(): Promise<CryptoKey | SyncKeyring | undefined>;
  /** Keeps the keys (a pending key check written: `publishKeyCheck`). */
  saveKey?(keys: SyncKeyring): Promise<void>;
  loadDevice(): Promise<unknown>;
  /** This device's settings (presets, actions, and the settings when the user syncs them). */
  settings?: Omit<SettingsSide, 'withSettings'>;
  saveDevice(device: SavedDevice): Promise<void>;
  onStatus(status: SyncServiceStatus): void;
  /** Held while a round runs (the MV3 worker is kept up). */
  busy?(running: boolean): void;
  fetcher?: typeof fetch;
  clock?: SchedulerClock;
}

/** Where a config's data lives: the service, its address and the folder (not its credentials). */
export function destinationOf(config: SyncConfig): string {
  const where = config.service === 'webdav' ? config.address : `${config.endpoint} ${config.bucket}`;
  return `${config.service} ${where} ${config.folder} ${config.deviceId}`;
}

export class SyncService {
  private readonly scheduler: SyncScheduler;
  private configured = false;
  private leaving = false;
  private ownWrites = 0;
  /** The round's summary, for tests and the UI: changes sent and received. */
  lastRound: { sent: number; received: number; problems: number } | undefined;

  constructor(private readonly deps: SyncServiceDeps) {
    this.scheduler = new SyncScheduler(() => this.round(), (status) => {
      if (this.configured) deps.onStatus(status);
    }, deps.clock);
  }

  get status(): SyncServiceStatus {
    return this.configured ? this.scheduler.status : { state: 'off' };
  }

  /** The worker started: a round if sync is set up. */
  async start(): Promise<void> {
    this.configured = (await this.deps.loadConfig()) !== undefined;
    if (!this.configured) {
      this.deps.onStatus({ state: 'off' });
      return;
    }
    this.scheduler.start();
  }

  /** Sync was set up, changed or stopped on this device. */
  async settingsChanged(): Promise<void> {
    this.configured = (await this.deps.loadConfig()) !== undefined;
    // Gone: a setup after this is a new device, which syncs.
    if (!this.configured) this.leaving = false;
    if (!this.configured) this.deps.onStatus({ state: 'off' });
    else this.scheduler.now();
  }

  /** Something changed in the local database (or the settings). */
  changed(): void {
    // A round's own writes (what arrived, put in the database and the settings) are nothing new
    // to send: no round a minute later for them.
    if (this.ownWrites > 0) return;
    if (this.configured) this.scheduler.changed();
  }

  /** A write of the round's own, during which (and a moment after: the news of it is relayed) `changed` is not a change. */
  private async ownWrite<T>(write: () => Promise<T>): Promise<T> {
    this.ownWrites++;
    try {
      return await write();
    } finally {
      setTimeout(() => {
        this.ownWrites--;
      }, OWN_WRITE_NEWS_MS);
    }
  }

  alarm(): void {
    if (this.configured) this.scheduler.alarm();
  }

  /** "Sync now". */
  now(): void {
    if (this.configured) this.scheduler.now();
  }

  /**
   * "Stop syncing on this device", before the page forgets the details: once any round running
   * has ended, its manifest says it stopped (the others then no longer wait on it to collect
   * deletions). No round starts meanwhile. Best effort: a server that cannot be reached now
   * leaves it listed, which only keeps deletions longer.
   */
  async leave(): Promise<void> {
    this.leaving = true;
    await this.scheduler.idle();
    const config = await this.deps.loadConfig();
    const key = await this.deps.loadKey();
    if (config === undefined || key === undefined) return;
    const device = await this.device(config);
    await retireDevice(storageFor(config, this.deps.fetcher), key, device.memory, device.clock.tick());
  }

  private async device(config: SyncConfig): Promise<DeviceSync> {
    const saved = await this.deps.loadDevice();
    const destination = destinationOf(config);
    if (typeof saved === 'object' && saved !== null && 'destination' in saved && saved.destination === destination && 'sync' in saved) {
      const restored = restoreDeviceSync(saved.sync);
      if (restored !== undefined && restored.memory.device === config.deviceId) return restored;
    }
    return { memory: newMemory(config.deviceId), state: emptyState(), clock: new HybridClock(config.deviceId) };
  }

  private async round(): Promise<{ unreadable: number } | undefined> {
    const config = await this.deps.loadConfig();
    // Stopped (or stopping) meanwhile: nothing to do.
    if (config === undefined || this.leaving) return undefined;
    let key = await this.deps.loadKey();
    if (key === undefined) throw new SyncCryptoError('no_key');
    this.deps.busy?.(true);
    try {
      // A passphrase change whose page closed before its key check was written: written first,
      // before anything is sealed with its key.
      const storage = storageFor(config, this.deps.fetcher);
      if ('pending' in key && key.pending !== undefined) {
        key = await publishKeyCheck(storage, key);
        await this.deps.saveKey?.(key);
      }
      const device = await this.device(config);
      const own = this.deps.settings;
      const settings = own === undefined ? undefined : { read: () => own.read(), write: (change: Parameters<typeof own.write>[0]) => this.ownWrite(() => own.write(change)), withSettings: config.syncSettings };
      const base = this.deps.store;
      const store: SyncedStore = {
        images: base.images,
        syncRecords: () => base.syncRecords(),
        syncDeletions: () => base.syncDeletions(),
        syncImageIds: () => base.syncImageIds(),
        applySyncUpdates: (...args) => this.ownWrite(() => base.applySyncUpdates(...args)),
        forgetSyncDeletions: (...args) => this.ownWrite(() => base.forgetSyncDeletions(...args)),
      };
      // How far the round is, said at most twice a second; a history read over several rounds
      // (`DeviceRound.more`) counts on from the files the ones before read.
      let said = 0;
      let readBefore = 0;
      let lastDown = 0;
      const progress = (at: SyncProgress): void => {
        if (at.phase === 'down') lastDown = at.done;
        const now = Date.now();
        if (now - said < 500 && at.done !== at.total) return;
        said = now;
        const status = this.scheduler.status;
        const shown = at.phase === 'down' ? { ...at, done: readBefore + at.done, total: readBefore + at.total } : at;
        if (status.state === 'syncing') this.deps.onStatus({ ...status, progress: shown });
      };
      const save = (at: DeviceSync): Promise<void> => this.deps.saveDevice({ destination: destinationOf(config), sync: saveDeviceSync(at) });
      const total = { sent: 0, received: 0 };
      for (;;) {
        lastDown = 0;
        const round = await syncDevice(store, storage, key, device, settings, progress, save);
        total.sent += round.sent;
        total.received += round.received;
        readBefore += lastDown;
        if (round.more && (await this.deps.loadConfig()) !== undefined) continue;
        this.lastRound = { ...total, problems: round.problems.length };
        return { unreadable: round.problems.length };
      }
    } finally {
      this.deps.busy?.(false);
    }
  }
}

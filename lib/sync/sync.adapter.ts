/**
 * The browser's side of sync (issue 31), thin: where sync goes and its credentials in
 * `storage.local` (like the API key: never `storage.sync`), its status there too for pages to
 * watch (codes, no credential), and, in IndexedDB, the key the passphrase gave (a
 * non-extractable CryptoKey: the passphrase itself is never kept) and the device's sync between
 * rounds. Everything read is parsed.
 */
import { storage } from '@wxt-dev/storage';
import Dexie, { type Table } from 'dexie';
import * as z from 'zod/mini';
import { SyncConfigSchema, type SyncConfig } from './config';
import type { SavedDevice, SyncServiceStatus } from './service';
import { keyringOf, type SyncKeyring } from './crypto';

const CONFIG_KEY = 'local:syncConfig';
const STATUS_KEY = 'local:syncStatus';

export async function loadSyncConfig(): Promise<SyncConfig | undefined> {
  const parsed = SyncConfigSchema.safeParse(await storage.getItem(CONFIG_KEY));
  return parsed.success ? parsed.data : undefined;
}

export async function saveSyncConfig(config: SyncConfig): Promise<void> {
  await storage.setItem(CONFIG_KEY, SyncConfigSchema.parse(config));
}

/** The config changed (set up, edited, stopped), in any page or the background. */
export function watchSyncConfig(onChange: (config: SyncConfig | undefined) => void): () => void {
  return storage.watch(CONFIG_KEY, (value) => {
    const parsed = SyncConfigSchema.safeParse(value);
    onChange(parsed.success ? parsed.data : undefined);
  });
}

export const SyncStatusSchema = z.union([
  z.object({ state: z.literal('off') }),
  z.object({ state: z.literal('idle'), lastSyncedAt: z.optional(z.number()), unreadable: z.optional(z.number()) }),
  z.object({ state: z.literal('syncing'), lastSyncedAt: z.optional(z.number()), progress: z.optional(z.object({ phase: z.enum(['up', 'down', 'rekey']), done: z.number(), total: z.number() })) }),
  z.object({ state: z.literal('retrying'), lastSyncedAt: z.optional(z.number()), code: z.string(), address: z.optional(z.string()), status: z.optional(z.number()), retryAt: z.number() }),
  z.object({ state: z.literal('paused'), lastSyncedAt: z.optional(z.number()), code: z.string(), address: z.optional(z.string()), status: z.optional(z.number()) }),
]);

export async function saveSyncStatus(status: SyncServiceStatus): Promise<void> {
  await storage.setItem(STATUS_KEY, status);
}

export async function loadSyncStatus(): Promise<SyncServiceStatus> {
  const parsed = SyncStatusSchema.safeParse(await storage.getItem(STATUS_KEY));
  return parsed.success ? (parsed.data as SyncServiceStatus) : { state: 'off' };
}

export function watchSyncStatus(onChange: (status: SyncServiceStatus) => void): () => void {
  return storage.watch(STATUS_KEY, (value) => {
    const parsed = SyncStatusSchema.safeParse(value);
    onChange(parsed.success ? (parsed.data as SyncServiceStatus) : { state: 'off' });
  });
}

/** This device's sync secrets and memory: IndexedDB, this extension's alone. */
class SyncDatabase extends Dexie {
  entries!: Table<{ id: string; value: unknown }, string>;
  constructor() {
    super('gateway-chat-sync');
    this.version(1).stores({ entries: 'id' });
  }
}

let database: SyncDatabase | undefined;
const db = (): SyncDatabase => (database ??= new SyncDatabase());

/** The keys the passphrase gave (a passphrase changed since: the newest, and the older ones). */
export async function saveSyncKey(key: CryptoKey | SyncKeyring): Promise<void> {
  await db().entries.put({ id: 'key', value: keyringOf(key) });
}

const isKey = (value: unknown): value is CryptoKey => typeof CryptoKey !== 'undefined' && value instanceof CryptoKey;
const KeyringSchema = z.object({ generation: z.number().check(z.int(), z.positive()), key: z.custom<CryptoKey>(isKey), older: z.array(z.custom<CryptoKey>(isKey)), pending: z.optional(z.string()) });

export async function loadSyncKey(): Promise<SyncKeyring | undefined> {
  const row = await db().entries.get('key');
  if (row === undefined) return undefined;
  // Kept before passphrases could change: the key alone.
  if (isKey(row.value)) return keyringOf(row.value);
  const parsed = KeyringSchema.safeParse(row.value);
  return parsed.success ? parsed.data : undefined;
}

export async function loadDeviceSync(): Promise<unknown> {
  return (await db().entries.get('device'))?.value;
}

export async function saveDeviceSync(device: SavedDevice): Promise<void> {
  await db().entries.put({ id: 'device', value: device });
}

/**
 * "Stop syncing on this device": the config, key and memory go; the conversations stay. The
 * status says sync is off.
 */
export async function stopSyncHere(): Promise<void> {
  await storage.removeItem(CONFIG_KEY);
  await db().entries.clear();
  await saveSyncStatus({ state: 'off' });
}

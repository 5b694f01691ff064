/**
 * A device's whole round of sync, between its conversation store and the storage (README.md):
 * its changes since the last round (lib/sync/local.ts) published, the other devices' read and
 * merged, and the database brought to the merged state.
 */
import type { ConversationStore } from '@/lib/conversations/store';
import type { HybridClock } from './clock';
import { publishSnapshot, syncRound, type SyncMemory, type SyncProblem } from './engine';
import { planLocalChanges, planLocalUpdates } from './local';
import { applyChanges, collectTombstones, mergedView, settle, type SyncState } from './merge';
import { collectableBefore, DEFAULT_TUNING, horizonMatters, missesMessages, snapshotChanges, snapshotDue, wallOf, type SnapshotTuning } from './snapshot';
import type { ExportedImage } from '@/lib/transfer/history-file';
import type { SyncStorage } from './storage';
import { planSettingsChanges, planSettingsUpdate, type SettingsMemory } from './settings';
import { imageForSync, imageFromSync } from './images';
import type { SyncProgress } from './scheduler';
import type { Settings } from '@/lib/settings/schema';
import type { Message } from '@/lib/conversations/records';
import type { Change } from './changes';
import { keyringOf, type SyncKeyring } from './crypto';
import { reencryptOwn } from './keys';

/** The device's settings, for presets, actions and (when the user ticks it) settings to sync. */
export interface SettingsSide {
  /** The settings as stored, or undefined when they cannot be read (then they do not sync this round). */
  read(): Promise<Settings | undefined>;
  /** Applies a change to the settings as stored when it is written. */
  write(change: (now: Settings) => Settings): Promise<void>;
  /** The non-secret settings sync too ("Sync settings"). */
  withSettings: boolean;
}

export interface DeviceSync {
  memory: SyncMemory;
  state: SyncState;
  clock: HybridClock;
  /** Conversations whose merged record waited for a reply streaming here (`LocalUpdates.deferred`). */
  deferred?: string[];
  /** The presets' and actions' ids when the settings last matched the state. */
  settingsKnown?: SettingsMemory;
}

export interface DeviceRound {
  /** Changes this device published. */
  sent: number;
  /** Changes read from the other devices. */
  received: number;
  /** Deletions collected this round. */
  collected: number;
  /** A snapshot was written this round. */
  snapshot: boolean;
  problems: SyncProblem[];
  /** It stopped reading at `SnapshotTuning.maxReads`: another round goes on from there. */
  more: boolean;
}

/** The part of the conversation store a round uses. */
export type SyncedStore = Pick<ConversationStore, 'syncRecords' | 'syncDeletions' | 'applySyncUpdates' | 'forgetSyncDeletions' | 'syncImageIds'> & { images: Pick<ConversationStore['images'], 'getMany'> };

/**
 * One round for `store` (the caller keeps `device` for the next). `checkpoint` saves it: called
 * as soon as the round has published (its memory then names segments the server has, and the
 * state holds everything read, messages included), so that a failure or a stop while the
 * database is brought up to date never makes the next round write the same segment number
 * again; and once more at the end.
 */
export async function syncDevice(store: SyncedStore, storage: SyncStorage, keys: CryptoKey | SyncKeyring, device: DeviceSync, settings?: SettingsSide, onProgress?: (progress: SyncProgress) => void, checkpoint: (device: DeviceSync) => Promise<void> = async () => undefined, tuning: SnapshotTuning = DEFAULT_TUNING): Promise<DeviceRound> {
  const key = keyringOf(keys);
  // After a passphrase change: this device's own files re-encrypted first (resumed where a stop left it).
  if ((device.memory.keyGeneration ?? 1) < key.generation) {
    device.memory = await reencryptOwn(storage, key, device.memory, onProgress, async (memory) => {
      device.memory = memory;
      await checkpoint(device);
    });
    await checkpoint(device);
  }
  const local = { ...(await store.syncRecords()), imageIds: new Set(await store.syncImageIds()) };
  const deletedHere = await store.syncDeletions();
  const stamp = (): string => device.clock.tick();
  const outgoing = planLocalChanges(local, device.state, stamp, deletedHere, device.deferred);
  // Images not sent yet, with their bytes (not a partial one: the final one replaces it; not while their reply streams).
  const busy = new Set(local.messages.filter((m) => m.status === 'streaming').map((m) => m.conversationId));
  const unsent = [...local.imageIds].filter((id) => !device.state.images.has(id));
  if (unsent.length > 0) {
    for (const record of await store.images.getMany(unsent)) {
      if (record.partial === true || busy.has(record.conversationId)) continue;
      outgoing.push({ type: 'image', stamp: stamp(), image: await imageForSync(record) });
    }
  }
  const localSettings = await settings?.read();
  if (settings !== undefined && localSettings !== undefined) outgoing.push(...planSettingsChanges(localSettings, device.state, stamp, device.settingsKnown, settings.withSettings));
  const now = wallOf(device.clock.tick());
  const result = await syncRound(storage, key, device.memory, outgoing, {
    ...(onProgress === undefined ? {} : { onProgress }),
    clock: () => device.clock.tick(),
    horizonMatters: horizonMatters(device.state, now, tuning.graceMs),
    maxReads: tuning.maxReads,
  });
  // Published: now part of the state, as what arrived is.
  applyChanges(device.state, outgoing);
  for (const change of result.changes) device.clock.observe(change.stamp);
  // The other devices' clocks, as their manifests say them: a deletion's age is told by this clock.
  for (const stamp of Object.values(result.memory.heard)) device.clock.observe(stamp);
  applyChanges(device.state, result.changes);
  device.memory = result.memory;
  const view = mergedView(device.state);
  const updates = planLocalUpdates(view, local);
  const settingsUpdate = settings !== undefined && localSettings !== undefined ? planSettingsUpdate(view, localSettings, settings.withSettings) : undefined;
  // Saved as behind the state until the database and the settings have what arrived: if this
  // round stops before they do, the next one takes their old values for old, not for edits.
  device.deferred = [...new Set([...(device.deferred ?? []), ...updates.deferred, ...updates.putConversations.map((c) => c.id), ...updates.deleteConversations])];
  if (settingsUpdate?.update !== undefined) device.settingsKnown = { ...(device.settingsKnown ?? { preset: [], action: [] }), behind: true };
  await checkpoint(device);
  const putImages = updates.putImages.map(imageFromSync).filter((image) => image !== undefined);
  await store.applySyncUpdates({ ...updates, putImages }, local.conversations);
  device.deferred = updates.deferred;
  if (settings !== undefined && settingsUpdate !== undefined) {
    if (settingsUpdate.update !== undefined) await settings.write(settingsUpdate.update);
    device.settingsKnown = settingsUpdate.known;
  }
  // Deletions every device is past go, with what they kept; then, now and then, a snapshot.
  const before = collectableBefore(device.memory, now, tuning.graceMs);
  const collected = before === undefined ? 0 : collectTombstones(device.state, before, new Set(device.deferred));
  let snapshot = false;
  // Not while catching up (the rounds right after read on): once caught up, if due.
  if (result.more !== true && snapshotDue(device.memory, tuning.snapshotEvery)) {
    const changes = await snapshotOf(store, device.state, local.messages);
    if (changes !== undefined) {
      device.memory = await publishSnapshot(storage, key, device.memory, changes, device.clock.tick(), onProgress, async (memory) => {
        device.memory = memory;
        await checkpoint(device);
      });
      snapshot = true;
    }
  }
  settle(device.state);
  await store.forgetSyncDeletions(deletedHere);
  await checkpoint(device);
  return { sent: outgoing.length, received: result.changes.length, problems: result.problems, more: result.more === true, collected, snapshot };
}

/** The changes that rebuild the merged state (snapshot.ts), bodies from the state or the database. */
async function snapshotOf(store: SyncedStore, state: SyncState, messages: readonly Message[]): Promise<Change[] | undefined> {
  const byId = new Map(messages.map((m) => [m.id, m]));
  // Checked before any image is read: a snapshot that cannot be whole costs nothing.
  if (missesMessages(state, (id) => byId.get(id))) return undefined;
  const wanted = [...state.images.keys()].filter((id) => !state.imageBodies.has(id));
  const images = new Map<string, ExportedImage>();
  for (const record of wanted.length === 0 ? [] : await store.images.getMany(wanted)) if (record.partial !== true) images.set(record.id, await imageForSync(record));
  return snapshotChanges(state, (id) => byId.get(id), (id) => images.get(id));
}

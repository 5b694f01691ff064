/**
 * A device's whole round of sync, between its conversation store and the storage (README.md):
 * its changes since the last round (lib/sync/local.ts) published, the other devices' read and
 * merged, and the database brought to the merged state.
 */
import type { ConversationStore } from '@/lib/conversations/store';
import type { HybridClock } from './clock';
import { syncRound, type SyncMemory, type SyncProblem } from './engine';
import { planLocalChanges, planLocalUpdates } from './local';
import { applyChanges, mergedView, settle, type SyncState } from './merge';
import type { SyncStorage } from './storage';

export interface DeviceSync {
  memory: SyncMemory;
  state: SyncState;
  clock: HybridClock;
  /** Conversations whose merged record waited for a reply streaming here (`LocalUpdates.deferred`). */
  deferred?: string[];
}

export interface DeviceRound {
  /** Changes this device published. */
  sent: number;
  /** Changes read from the other devices. */
  received: number;
  problems: SyncProblem[];
}

/** One round for `store` (the caller keeps `device` for the next, and saves it). */
/** The part of the conversation store a round uses. */
export type SyncedStore = Pick<ConversationStore, 'syncRecords' | 'syncDeletions' | 'applySyncUpdates' | 'forgetSyncDeletions'>;

export async function syncDevice(store: SyncedStore, storage: SyncStorage, key: CryptoKey, device: DeviceSync): Promise<DeviceRound> {
  const local = await store.syncRecords();
  const deletedHere = await store.syncDeletions();
  const outgoing = planLocalChanges(local, device.state, () => device.clock.tick(), deletedHere, device.deferred);
  const result = await syncRound(storage, key, device.memory, outgoing);
  // Published: now part of the state, as what arrived is.
  applyChanges(device.state, outgoing);
  for (const change of result.changes) device.clock.observe(change.stamp);
  applyChanges(device.state, result.changes);
  device.memory = result.memory;
  const updates = planLocalUpdates(mergedView(device.state), local);
  await store.applySyncUpdates(updates, local.conversations);
  device.deferred = updates.deferred;
  settle(device.state);
  await store.forgetSyncDeletions(deletedHere);
  return { sent: outgoing.length, received: result.changes.length, problems: result.problems };
}

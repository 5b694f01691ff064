/**
 * Snapshots and collecting deletions (README.md, "Snapshots and catching up").
 *
 * A snapshot is the merged state written out as the changes that rebuild it (each message and
 * image with its first stamp, each field with its winner and the values it won over, each
 * deletion not yet collected), as of the segments the device had merged (`merged`, its own
 * included). A device far behind, or new, reads it instead of the segments it covers; the merge
 * takes it as it takes any changes, so a snapshot that says more than its vector is harmless.
 *
 * A deletion is collected (forgotten with the record's fields and messages) once every device's
 * published horizon is past it: each has merged it, and everything older; and it is a week old,
 * so that a device not listed yet (a new one, its clock a little behind) cannot send an older edit
 * that would bring the record back without its messages.
 */
import type { Message } from '@/lib/conversations/records';
import type { ExportedImage } from '@/lib/transfer/history-file';
import type { Change, RecordKind } from './changes';
import { compareStamps, formatStamp, parseStamp } from './clock';
import type { SyncMemory } from './engine';
import { isAlive, type SyncState } from './merge';

/** A snapshot once the segments published by all devices exceed the newest snapshot's by this many. */
export const SNAPSHOT_EVERY = 100;
/** A deletion is at least this old before it is collected. */
export const TOMBSTONE_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Segments (of about 5,000 changes) a round reads at most: the rest in the rounds right after,
 * so a device catching up holds tens of thousands of messages at a time, not a year of them.
 */
export const MAX_READS_PER_ROUND = 20;

export interface SnapshotTuning {
  snapshotEvery: number;
  graceMs: number;
  maxReads: number;
}

export const DEFAULT_TUNING: SnapshotTuning = { snapshotEvery: SNAPSHOT_EVERY, graceMs: TOMBSTONE_GRACE_MS, maxReads: MAX_READS_PER_ROUND };

/** How many segments, of every device, this device has merged (its own are all in its state). */
function mergedCount(memory: SyncMemory): number {
  return Object.values(memory.merged).reduce((total, n) => total + n, memory.segments);
}

/** Whether this device should write a snapshot now. */
export function snapshotDue(memory: SyncMemory, every: number): boolean {
  return mergedCount(memory) - memory.snapshotCover >= every;
}

/** Whether a conversation is live in `state`, each asked once (a deleted one's activity is a scan). */
function livenessOf(state: SyncState): (conversationId: string) => boolean {
  const alive = new Map<string, boolean>();
  return (conversationId) => {
    let live = alive.get(conversationId);
    if (live === undefined) {
      live = isAlive(state, 'conversation', conversationId);
      alive.set(conversationId, live);
    }
    return live;
  };
}

/** Whether a live conversation's message is neither in the state nor at hand (then no snapshot yet). */
export function missesMessages(state: SyncState, message: (id: string) => Message | undefined): boolean {
  const isLive = livenessOf(state);
  for (const [id, { conversationId }] of state.messages) if (!state.bodies.has(id) && message(id) === undefined && isLive(conversationId)) return true;
  return false;
}

/**
 * The changes that rebuild `state`: message and image bodies from the state, else from the
 * database (`message`, `image`). Undefined when a live conversation's message or image is in
 * neither (the snapshot would miss it): the next round tries again. A deleted conversation's
 * bodies that are gone are left out: its deletion is newer than all of them, so it stays deleted.
 */
export function snapshotChanges(state: SyncState, message: (id: string) => Message | undefined, image: (id: string) => ExportedImage | undefined): Change[] | undefined {
  const changes: Change[] = [];
  const isLive = livenessOf(state);
  // Each message and image with the stamp of its first copy, its body from the state or the database.
  const bodies = <T>(entries: Map<string, { conversationId: string; stamp: string }>, kept: Map<string, T>, atHand: (id: string) => T | undefined, change: (stamp: string, body: T) => Change): boolean => {
    for (const [id, { conversationId, stamp }] of entries) {
      const body = kept.get(id) ?? atHand(id);
      if (body !== undefined) changes.push(change(stamp, body));
      else if (isLive(conversationId)) return false;
    }
    return true;
  };
  if (!bodies(state.messages, state.bodies, message, (stamp, body) => ({ type: 'message', stamp, message: body }))) return undefined;
  if (!bodies(state.images, state.imageBodies, image, (stamp, body) => ({ type: 'image', stamp, image: body }))) return undefined;
  for (const [key, fields] of state.fields) {
    const { kind, id } = splitKey(key);
    for (const [field, register] of fields) {
      changes.push({ type: 'field', stamp: register.stamp, kind, id, field, value: register.value });
      for (const lost of register.history) changes.push({ type: 'field', stamp: lost.stamp, kind, id, field, value: lost.value });
    }
  }
  for (const [key, stamp] of state.tombstones) changes.push({ type: 'delete', stamp, ...splitKey(key) });
  return changes;
}

function splitKey(key: string): { kind: RecordKind; id: string } {
  const colon = key.indexOf(':');
  return { kind: key.slice(0, colon) as RecordKind, id: key.slice(colon + 1) };
}

/** The stamp of `wall` ms, before any change made then. */
const stampAt = (wall: number): string => formatStamp({ wall: Math.max(0, wall), counter: 0, device: '' });

/**
 * Deletions stamped before this may be collected: every device listed has published a horizon
 * past it (this one too), and it is `graceMs` old. Undefined while any device has not.
 */
export function collectableBefore(memory: SyncMemory, now: number, graceMs: number): string | undefined {
  let before = memory.horizon;
  if (before === undefined) return undefined;
  const retired = new Set(memory.retired);
  for (const other of memory.devices) {
    // Stopped syncing: it sends nothing more, and what it sent is counted in this device's horizon.
    if (retired.has(other)) continue;
    const horizon = memory.horizons[other];
    if (horizon === undefined) return undefined;
    if (compareStamps(horizon, before) < 0) before = horizon;
  }
  const old = stampAt(now - graceMs);
  return compareStamps(old, before) < 0 ? old : before;
}

/**
 * Whether this device's horizon moving from `from` (as last published) to `to` passes a deletion
 * old enough to collect: then its manifest is rewritten to say so, though nothing else changed.
 */
export function horizonMatters(state: SyncState, now: number, graceMs: number): (from: string | undefined, to: string) => boolean {
  const old = stampAt(now - graceMs);
  return (from, to) => {
    for (const stamp of state.tombstones.values()) {
      if (compareStamps(stamp, to) >= 0 || compareStamps(stamp, old) >= 0) continue;
      if (from === undefined || compareStamps(stamp, from) >= 0) return true;
    }
    return false;
  };
}

/** The wall time a stamp says. */
export function wallOf(stamp: string): number {
  return parseStamp(stamp)?.wall ?? 0;
}

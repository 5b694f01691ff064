/**
 * The merge (README.md): a pure function of the set of changes. Applying the same changes in any
 * order, any number of times, gives the same state, so devices may sync in any order, retry
 * anything and read a segment twice.
 */
import type { Message } from '@/lib/conversations/records';
import type { ExportedImage } from '@/lib/transfer/history-file';
import type { Change, RecordKind } from './changes';
import { compareStamps } from './clock';

/** How many losing values a field keeps (a concurrent rename can be found again). */
export const FIELD_HISTORY = 5;

export interface FieldValue {
  value: unknown;
  stamp: string;
}

interface Register extends FieldValue {
  /** The values it won over, newest first. */
  history: FieldValue[];
}

export interface SyncState {
  /** Every message merged, by id: its conversation and the stamp of its first copy (not its text: the database holds that). */
  messages: Map<string, { conversationId: string; stamp: string }>;
  /**
   * Messages merged whose records the local database may not have yet: kept until it has
   * (`settle`), saved with the state meanwhile, so nothing read is lost to a stop in between.
   */
  bodies: Map<string, Message>;
  /** Fields by record (`kind:id`), then by name. */
  fields: Map<string, Map<string, Register>>;
  /** Deletions by record (`kind:id`): the newest. */
  tombstones: Map<string, string>;
  /** Every image merged, by id: its conversation and stamp (its bytes are the database's). */
  images: Map<string, { conversationId: string; stamp: string }>;
  /** Images merged whose records the database may not have yet (as `bodies`, until `settle`). */
  imageBodies: Map<string, ExportedImage>;
}

export function emptyState(): SyncState {
  return { messages: new Map(), bodies: new Map(), fields: new Map(), tombstones: new Map(), images: new Map(), imageBodies: new Map() };
}

const recordKey = (kind: RecordKind, id: string): string => `${kind}:${id}`;

function keepInHistory(history: FieldValue[], entry: FieldValue): FieldValue[] {
  if (history.some((h) => h.stamp === entry.stamp)) return history;
  return [...history, entry].sort((a, b) => compareStamps(b.stamp, a.stamp)).slice(0, FIELD_HISTORY);
}

export function applyChange(state: SyncState, change: Change): void {
  if (change.type === 'message') {
    const had = state.messages.get(change.message.id);
    // The same message twice is the same message; the older copy's stamp is kept, whichever came first.
    if (had === undefined || compareStamps(change.stamp, had.stamp) < 0) state.messages.set(change.message.id, { conversationId: change.message.conversationId, stamp: change.stamp });
    // Sent again for a conversation coming back after a deletion: kept, for the devices that deleted its rows.
    if (had === undefined || state.tombstones.has(recordKey('conversation', change.message.conversationId))) state.bodies.set(change.message.id, change.message);
    return;
  }
  if (change.type === 'image') {
    const had = state.images.get(change.image.id);
    if (had === undefined || compareStamps(change.stamp, had.stamp) < 0) state.images.set(change.image.id, { conversationId: change.image.conversationId, stamp: change.stamp });
    if (had === undefined) state.imageBodies.set(change.image.id, change.image);
    return;
  }
  const key = recordKey(change.kind, change.id);
  if (change.type === 'delete') {
    const had = state.tombstones.get(key);
    if (had === undefined || compareStamps(change.stamp, had) > 0) state.tombstones.set(key, change.stamp);
    return;
  }
  let fields = state.fields.get(key);
  if (fields === undefined) {
    fields = new Map();
    state.fields.set(key, fields);
  }
  const had = fields.get(change.field);
  const incoming = { value: change.value, stamp: change.stamp };
  if (had === undefined) {
    fields.set(change.field, { ...incoming, history: [] });
    return;
  }
  const order = compareStamps(change.stamp, had.stamp);
  if (order > 0) fields.set(change.field, { ...incoming, history: keepInHistory(had.history, { value: had.value, stamp: had.stamp }) });
  else if (order < 0) had.history = keepInHistory(had.history, incoming);
}

/**
 * The database now holds the messages of every live conversation: their records need not be kept
 * here. A deleted conversation's stay (a later change may bring it back whole) until its deletion
 * is collected.
 */
export function settle(state: SyncState): void {
  for (const [id, message] of state.bodies) if (isAlive(state, 'conversation', message.conversationId)) state.bodies.delete(id);
  for (const [id, image] of state.imageBodies) if (isAlive(state, 'conversation', image.conversationId)) state.imageBodies.delete(id);
}

export function applyChanges(state: SyncState, changes: Iterable<Change>): SyncState {
  for (const change of changes) applyChange(state, change);
  return state;
}

/** The newest stamp of anything said about a record (its fields, and a conversation's messages). */
function newestActivity(state: SyncState, kind: RecordKind, id: string): string | undefined {
  let newest: string | undefined;
  const see = (stamp: string): void => {
    if (newest === undefined || compareStamps(stamp, newest) > 0) newest = stamp;
  };
  for (const register of state.fields.get(recordKey(kind, id))?.values() ?? []) see(register.stamp);
  if (kind === 'conversation') for (const { conversationId, stamp } of state.messages.values()) if (conversationId === id) see(stamp);
  return newest;
}

/**
 * Whether a record is there: never deleted, or changed after its newest deletion (on a device
 * that had not seen it: the record then comes back whole, so nothing written after is lost).
 */
export function isAlive(state: SyncState, kind: RecordKind, id: string): boolean {
  const tombstone = state.tombstones.get(recordKey(kind, id));
  if (tombstone === undefined) return true;
  const newest = newestActivity(state, kind, id);
  return newest !== undefined && compareStamps(newest, tombstone) > 0;
}

export interface MergedRecord {
  kind: RecordKind;
  id: string;
  fields: Record<string, unknown>;
  /** Each field's losing values, newest first (for fields that had any). */
  history: Record<string, FieldValue[]>;
}

export interface MergedView {
  records: MergedRecord[];
  /** Each live conversation's messages not yet settled in the database, by conversation id, in `seq` order. */
  messages: Map<string, Message[]>;
  /** Records deleted (and not brought back): to delete locally. */
  deleted: { kind: RecordKind; id: string }[];
  /** Each live conversation's images not yet settled in the database. */
  images: ExportedImage[];
}

/** What the merged state says each record is: the same on every device that read the same changes. */
export function mergedView(state: SyncState): MergedView {
  const records: MergedRecord[] = [];
  const deleted: MergedView['deleted'] = [];
  const keys = new Set([...state.fields.keys(), ...state.tombstones.keys()]);
  for (const { conversationId } of state.messages.values()) keys.add(recordKey('conversation', conversationId));
  for (const key of [...keys].sort()) {
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon) as RecordKind;
    const id = key.slice(colon + 1);
    if (!isAlive(state, kind, id)) {
      deleted.push({ kind, id });
      continue;
    }
    const fields: Record<string, unknown> = {};
    const history: Record<string, FieldValue[]> = {};
    for (const [name, register] of [...(state.fields.get(key) ?? new Map<string, Register>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      fields[name] = register.value;
      if (register.history.length > 0) history[name] = register.history;
    }
    records.push({ kind, id, fields, history });
  }
  const live = new Set(records.filter((r) => r.kind === 'conversation').map((r) => r.id));
  const messages = new Map<string, Message[]>();
  for (const message of state.bodies.values()) {
    if (!live.has(message.conversationId)) continue;
    let list = messages.get(message.conversationId);
    if (list === undefined) {
      list = [];
      messages.set(message.conversationId, list);
    }
    list.push(message);
  }
  for (const list of messages.values()) list.sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const images = [...state.imageBodies.values()].filter((image) => live.has(image.conversationId));
  return { records, messages, deleted, images };
}

/**
 * Forgets deletions every device has merged past (`seenByAll`: every device has merged every
 * change stamped before it, and sends only newer ones; snapshot.ts): with them, the deleted
 * records' fields and messages, which no one will ask for again. `keep`: conversations whose
 * deletion this device has not applied yet.
 */
export function collectTombstones(state: SyncState, seenByAll: string, keep: ReadonlySet<string> = new Set()): number {
  let collected = 0;
  for (const [key, stamp] of state.tombstones) {
    if (compareStamps(stamp, seenByAll) >= 0) continue;
    const colon = key.indexOf(':');
    const kind = key.slice(0, colon) as RecordKind;
    const id = key.slice(colon + 1);
    // A conversation held back for a reply streaming here has not taken its deletion yet.
    if (isAlive(state, kind, id) || (kind === 'conversation' && keep.has(id))) continue;
    state.tombstones.delete(key);
    state.fields.delete(key);
    if (kind === 'conversation') {
      for (const [messageId, { conversationId }] of state.messages) if (conversationId === id) state.messages.delete(messageId);
      for (const [messageId, message] of state.bodies) if (message.conversationId === id) state.bodies.delete(messageId);
      for (const [imageId, image] of state.images) if (image.conversationId === id) state.images.delete(imageId);
      for (const [imageId, image] of state.imageBodies) if (image.conversationId === id) state.imageBodies.delete(imageId);
    }
    collected++;
  }
  return collected;
}

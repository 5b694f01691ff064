/**
 * One round of sync (README.md): publish this device's pending changes as a new segment (written
 * first, then named in its manifest), then read every other device's manifest and the segments
 * it names that this device has not merged yet. What it reads is returned, to be merged
 * (merge.ts) and applied locally; what it could not read is said, and read again next round.
 */
import type * as z from 'zod/mini';
import { isDeviceId, ManifestSchema, SegmentSchema, SnapshotPartSchema, SYNC_FORMAT, syncPaths, type Change, type Manifest } from './changes';
import { compareStamps } from './clock';
import { createKeyCheck, KEY_CHECK_PATH, keyCheckPlace, keyringOf, linkedTo, openJsonWith, sealJson, SyncCryptoError, unlock, type SyncCryptoFailure, type SyncKeyring } from './crypto';
import { SyncStorageError, type SyncStorage } from './storage';
import { changeWeight } from './images';
import type { SyncProgress } from './scheduler';

/** What a device remembers between rounds (kept locally, never synced). */
export interface SyncMemory {
  device: string;
  /** Its own segments published (named in its manifest). */
  segments: number;
  /** Its manifest's version as last written. */
  manifestVersion: number;
  /** How many segments of each other device it has merged, in order. */
  merged: Record<string, number>;
  /** The newest manifest version read from each other device (an older one is a rollback). */
  seenVersions: Record<string, number>;
  /** Each other device's manifest tag when it was last read whole: unchanged, it is not read again. */
  seenTags: Record<string, string>;
  /** Each other device's clock in the newest manifest of it whose segments are all merged here. */
  heard: Record<string, string>;
  /** Each other device's horizon as it last published it. */
  horizons: Record<string, string>;
  /** Every other device a listing has shown (kept when one is missing from a listing). */
  devices: string[];
  /** This device's own horizon as last published. */
  horizon?: string;
  /** Its newest snapshot, as named in its manifest. */
  snapshot?: SnapshotInfo;
  /** How many segments (of all devices) the newest snapshot it knows of, its own or another's, covers. */
  snapshotCover: number;
  /** The key generation its manifest was last sealed with (undefined: the first). */
  sealedWith?: number;
  /** The key generation all its segments and its snapshot are sealed with (undefined: the first; keys.ts). */
  keyGeneration?: number;
  /** A re-encryption under way (keys.ts): to which generation, and how many of its files are done. */
  rekey?: { generation: number; done: number };
  /**
   * The devices listed when this device took its current key generation: only their files may
   * still open with an older key (they were sealed before the change), and only until their
   * manifest opens with the current key (`keyed`). A device that appears later, or an object an
   * old passphrase sealed since, is not believed.
   */
  legacy?: { generation: number; devices: string[] };
  /** Each other device's key generation, once its manifest opened with this device's current key. */
  keyed?: Record<string, number>;
  /** The other devices whose manifest says they stopped syncing. */
  retired?: string[];
}

export interface SnapshotInfo {
  n: number;
  id: string;
  parts: number;
  merged: Record<string, number>;
}

export function newMemory(device: string): SyncMemory {
  if (!isDeviceId(device)) throw new Error('a device id is 8 to 64 letters, digits, - or _');
  return { device, segments: 0, manifestVersion: 0, merged: {}, seenVersions: {}, seenTags: {}, heard: {}, horizons: {}, devices: [], snapshotCover: 0 };
}

/** Something this round could not read (read again next round): a code and where. */
export interface SyncProblem {
  path: string;
  reason: SyncCryptoFailure | 'unreadable' | 'missing' | 'rolled_back';
}

export interface RoundResult {
  memory: SyncMemory;
  /** `maxReads` stopped the reading: another round goes on from there. */
  more?: boolean;
  /** Other devices' changes read this round. */
  changes: Change[];
  problems: SyncProblem[];
}

/** Changes per segment at most (a message is one change): a few MB. */
export const SEGMENT_CHANGES = 5_000;
/** About the most a segment holds (images make changes of megabytes): one more change starts another. */
export const SEGMENT_BYTES = 8 * 1024 * 1024;

/** `pending` cut into segments of at most SEGMENT_CHANGES changes and about SEGMENT_BYTES. */
function segmentsOf(pending: readonly Change[]): Change[][] {
  const out: Change[][] = [];
  let batch: Change[] = [];
  let bytes = 0;
  for (const change of pending) {
    const weight = changeWeight(change);
    if (batch.length > 0 && (batch.length >= SEGMENT_CHANGES || bytes + weight > SEGMENT_BYTES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(change);
    bytes += weight;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

// The manifest is rewritten: its version is inside it (authenticated), and only grows.
const MANIFEST_PLACE_VERSION = 0;
/** Segments and snapshot parts: written once (re-encrypted in place, same content, after a passphrase change). */
export const SEGMENT_PLACE_VERSION = 1;

/** Where generation `generation`'s key check is on the storage. */
export const keyCheckPath = (generation: number): string => `gateway-chat/${keyCheckPlace(generation).path}`;

/**
 * The newest key check's generation on this storage (a passphrase change writes a new one,
 * keys.ts), or undefined when sync was never set up there.
 */
async function newestGeneration(storage: SyncStorage): Promise<number | undefined> {
  const found = new Set<number>();
  for (const name of await storage.list('gateway-chat/keychecks/')) {
    const m = /^(\d{1,6})\.json$/.exec(name);
    if (m !== null) found.add(Number(m[1]));
  }
  // Generations follow one another: a check with a gap before it (999999.json) is not one.
  let newest = 1;
  while (found.has(newest + 1)) newest++;
  if (newest > 1) return newest;
  return (await storage.read(`gateway-chat/${KEY_CHECK_PATH}`)) === undefined ? undefined : 1;
}

/** Generation `generation`'s key check, as stored (parsed by `unlock`). */
export async function readKeyCheck(storage: SyncStorage, generation: number): Promise<unknown> {
  const stored = await storage.read(keyCheckPath(generation));
  if (stored === undefined) throw new SyncCryptoError('bad_key_check');
  try {
    return JSON.parse(new TextDecoder().decode(stored));
  } catch {
    throw new SyncCryptoError('bad_key_check');
  }
}

/**
 * Whether the next generation's key check is there and was written by a device holding `keys`'
 * key (a real change of passphrase, not a file the server made up).
 */
export async function changedSince(storage: SyncStorage, keys: SyncKeyring): Promise<boolean> {
  if ((await storage.read(keyCheckPath(keys.generation + 1))) === undefined) return false;
  try {
    return await linkedTo(await readKeyCheck(storage, keys.generation + 1), keys.generation + 1, keys.key);
  } catch {
    return false;
  }
}

/**
 * The keys for `passphrase` on this storage. The first device (`create`, after the passphrase was
 * typed twice) writes the key check; any other is proved against the newest key check, and
 * refused with a code before anything is written.
 */
export async function openSyncKeyring(storage: SyncStorage, passphrase: string, create: boolean): Promise<SyncKeyring> {
  const generation = await newestGeneration(storage);
  if (generation === undefined) {
    if (!create) throw new SyncCryptoError('bad_key_check');
    const { keyCheck, key } = await createKeyCheck(passphrase);
    await storage.write(keyCheckPath(1), new TextEncoder().encode(JSON.stringify(keyCheck)));
    return { generation: 1, key, older: [] };
  }
  let key: CryptoKey | undefined;
  let failure: unknown;
  try {
    key = await unlock(passphrase, await readKeyCheck(storage, generation), generation);
  } catch (error) {
    if (!(error instanceof SyncCryptoError) || error.code !== 'wrong_passphrase') throw error;
    failure = error;
  }
  // An earlier passphrase of this storage is refused, even where a newer check takes it (one
  // a server or an old passphrase's holder planted): the user is told to use the current one.
  for (let older = generation - 1; older >= 1; older--) {
    let opened: CryptoKey | undefined;
    try {
      opened = await unlock(passphrase, await readKeyCheck(storage, older), older);
    } catch {
      // Not this one's passphrase: as it should be.
    }
    if (opened === undefined) continue;
    // The checks after it were not written by a holder of its key: no real change followed it,
    // and it is the current one.
    if (key === undefined && !(await linkedTo(await readKeyCheck(storage, older + 1).catch(() => undefined), older + 1, opened))) return { generation: older, key: opened, older: [] };
    throw new SyncCryptoError('old_passphrase');
  }
  if (key === undefined) throw failure;
  return { generation, key, older: [] };
}

/** The key `openSyncKeyring` gives (the storage's newest). */
export async function openSyncKey(storage: SyncStorage, passphrase: string, create: boolean): Promise<CryptoKey> {
  return (await openSyncKeyring(storage, passphrase, create)).key;
}

async function readSealed<T>(storage: SyncStorage, key: SyncKeyring, path: string, version: number, schema: z.ZodMiniType<T>, fits: (value: T) => boolean): Promise<T | SyncProblem> {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    bytes = await storage.read(path);
  } catch (error) {
    // Another device's file the server will not give (403, 5xx): said, and read again next
    // round; this device still publishes. A refused password or no answer stops the round.
    if (error instanceof SyncStorageError && error.code !== 'unauthorized' && error.code !== 'unreachable') return { path, reason: 'unreadable' };
    throw error;
  }
  if (bytes === undefined) return { path, reason: 'missing' };
  try {
    const value = await openJsonWith(key, bytes, { path, version }, schema);
    return value === undefined || !fits(value) ? { path, reason: 'unreadable' } : value;
  } catch (error) {
    if (error instanceof SyncCryptoError) return { path, reason: error.code };
    throw error;
  }
}

const isProblem = (value: unknown): value is SyncProblem => typeof value === 'object' && value !== null && 'reason' in value && 'path' in value && !('format' in value);

export interface RoundOptions {
  /** A name for people, in the manifest. */
  label?: string;
  onProgress?: (progress: SyncProgress) => void;
  /** The device's clock (a fresh stamp): the manifest says it, and the device's horizon comes from it. */
  clock?: () => string;
  /**
   * Whether this device's horizon moving from `from` to `to` lets a deletion be collected
   * (snapshot.ts): only then is an otherwise unchanged manifest rewritten for it.
   */
  horizonMatters?: (from: string | undefined, to: string) => boolean;
  /**
   * Reads at most this many segments (and snapshot parts) of other devices: what was read is
   * merged and applied before the next round reads on (`RoundResult.more`), so a device
   * catching up on a long history never holds all of it at once.
   */
  maxReads?: number;
}

/** What a round read of another device's manifest. */
interface ReadManifest {
  device: string;
  tag: string;
  manifest: Manifest;
}

const sum = (vector: Record<string, number>, except?: string): number => Object.entries(vector).reduce((total, [d, n]) => (d === except ? total : total + n), 0);

/** `a` and `b` say the same. */
const sameVector = (a: Record<string, number>, b: Record<string, number>): boolean => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * Of the snapshots just read about, the one that saves this device the most reads (segments it
 * has not merged that the snapshot covers, less the snapshot's own parts), if any saves some.
 */
function bestSnapshot(fresh: readonly ReadManifest[], self: string, merged: Record<string, number>): ReadManifest | undefined {
  let best: ReadManifest | undefined;
  let bestGain = 0;
  for (const read of fresh) {
    const snapshot = read.manifest.snapshot;
    if (snapshot === undefined) continue;
    let skipped = 0;
    for (const [d, n] of Object.entries(snapshot.merged)) if (d !== self && isDeviceId(d)) skipped += Math.max(0, n - (merged[d] ?? 0));
    const gain = skipped - snapshot.parts;
    if (gain > bestGain) {
      best = read;
      bestGain = gain;
    }
  }
  return best;
}

export async function syncRound(storage: SyncStorage, keys: CryptoKey | SyncKeyring, memory: SyncMemory, pending: readonly Change[], options: RoundOptions = {}): Promise<RoundResult> {
  const { onProgress = () => undefined } = options;
  const key = keyringOf(keys);
  const device = memory.device;
  let segments = memory.segments;
  // 1. This device's changes: each segment written whole first; only the manifest publishes them.
  // A first sync of a long history is many segments of a bounded size (memory, and a request
  // that a proxy or a slow link does not cut off).
  const batches = segmentsOf(pending);
  for (const [i, batch] of batches.entries()) {
    const n = segments + 1;
    const path = syncPaths.segment(device, n);
    await storage.write(path, await sealJson(key.key, { format: SYNC_FORMAT, device, n, changes: batch }, { path, version: SEGMENT_PLACE_VERSION }));
    segments = n;
    if (batches.length > 1) onProgress({ phase: 'up', done: i + 1, total: batches.length });
  }
  // 2. Everyone else's: the manifests that changed since last read, then (for a device far
  // behind, or new) a snapshot that spares it many segments, then the segments.
  const merged = { ...memory.merged };
  const seenVersions = { ...memory.seenVersions };
  const seenTags = { ...memory.seenTags };
  const heard = { ...memory.heard };
  const horizons = { ...memory.horizons };
  let snapshotCover = memory.snapshotCover;
  const changes: Change[] = [];
  const problems: SyncProblem[] = [];
  const manifests = await storage.tags(syncPaths.manifests());
  // This device published before, and its manifest is gone: the synced data was erased (from
  // another device, say) or replaced. Nothing is written over it: the user sets sync up again.
  if (memory.manifestVersion > 0 && !manifests.has(device)) throw new SyncCryptoError('erased');
  const listed = [...manifests.keys()].filter((other) => other !== device && isDeviceId(other));
  // Every device ever listed counts for the horizon (one missing from a listing, a flaky server
  // or a hostile one, still holds deletions back with the horizon it last published).
  const devices = [...new Set([...memory.devices, ...listed])];
  const legacy = memory.legacy?.generation === key.generation ? memory.legacy : { generation: key.generation, devices: key.older.length === 0 ? [] : [...memory.devices] };
  const keyed = { ...memory.keyed };
  // The keys another device's files may open with: the current one, and older ones only for a
  // device that was there before the change and has not re-encrypted yet.
  const current: SyncKeyring = { ...key, older: [] };
  const keysFor = (other: string): SyncKeyring => (keyed[other] === key.generation || !legacy.devices.includes(other) ? current : key);
  const fresh: ReadManifest[] = [];
  const retired = new Set(memory.retired);
  for (const other of listed) {
    const tag = manifests.get(other)!;
    // Not rewritten since it was last read whole: nothing new from that device.
    if (seenTags[other] === tag) continue;
    const manifestPath = syncPaths.manifest(other);
    let manifest = await readSealed(storage, current, manifestPath, MANIFEST_PLACE_VERSION, ManifestSchema, (m) => m.device === other);
    if (!isProblem(manifest)) keyed[other] = key.generation;
    else if (manifest.reason === 'tampered' && keysFor(other) !== current) manifest = await readSealed(storage, key, manifestPath, MANIFEST_PLACE_VERSION, ManifestSchema, (m) => m.device === other);
    if (isProblem(manifest)) {
      // Gone since the listing (erased, say): nothing to read.
      if (manifest.reason !== 'missing') problems.push(manifest);
      continue;
    }
    if (manifest.version < (seenVersions[other] ?? 0)) {
      problems.push({ path: manifestPath, reason: 'rolled_back' });
      continue;
    }
    seenVersions[other] = manifest.version;
    if (manifest.horizon === undefined) delete horizons[other];
    else horizons[other] = manifest.horizon;
    if (manifest.snapshot !== undefined) snapshotCover = Math.max(snapshotCover, sum(manifest.snapshot.merged));
    if (manifest.retired === true) retired.add(other);
    fresh.push({ device: other, tag, manifest });
  }
  let toRead = fresh.reduce((total, { device: other, manifest }) => total + Math.max(0, manifest.segments - (merged[other] ?? 0)), 0);
  let read = 0;
  const chosen = bestSnapshot(fresh, device, merged);
  if (chosen !== undefined) {
    const snapshot = chosen.manifest.snapshot!;
    toRead += snapshot.parts;
    const parts: Change[] = [];
    let whole = true;
    for (let part = 1; part <= snapshot.parts; part++) {
      const path = syncPaths.snapshot(chosen.device, snapshot.n, part);
      const got = await readSealed(storage, keysFor(chosen.device), path, SEGMENT_PLACE_VERSION, SnapshotPartSchema, (p) => p.device === chosen.device && p.n === snapshot.n && p.id === snapshot.id && p.part === part);
      if (isProblem(got)) {
        // Replaced by a newer one meanwhile, or unreadable: the segments are read instead.
        if (got.reason !== 'missing') problems.push(got);
        whole = false;
        break;
      }
      parts.push(...got.changes);
      read++;
      onProgress({ phase: 'down', done: read, total: toRead });
    }
    if (whole) {
      changes.push(...parts);
      // Never past what this device knows a device has published (its manifest read this
      // round; else what was merged already): a snapshot cannot make it skip a segment.
      const published = new Map(fresh.map((r) => [r.device, r.manifest.segments]));
      for (const [d, n] of Object.entries(snapshot.merged)) {
        if (d === device || !isDeviceId(d)) continue;
        const upTo = Math.min(n, published.get(d) ?? merged[d] ?? 0);
        if (upTo > (merged[d] ?? 0)) merged[d] = upTo;
      }
      toRead = read + fresh.reduce((total, { device: other, manifest }) => total + Math.max(0, manifest.segments - (merged[other] ?? 0)), 0);
    }
  }
  const maxReads = options.maxReads ?? Number.POSITIVE_INFINITY;
  let more = false;
  for (const { device: other, tag, manifest } of fresh) {
    let contiguous = true;
    const from = (merged[other] ?? 0) + 1;
    for (let n = from; n <= manifest.segments; n++) {
      if (read >= maxReads) {
        // Enough for one round: this device's manifest is read again next round, and the
        // segments after the last one read with it.
        more = true;
        contiguous = false;
        break;
      }
      const path = syncPaths.segment(other, n);
      const segment = await readSealed(storage, keysFor(other), path, SEGMENT_PLACE_VERSION, SegmentSchema, (g) => g.device === other && g.n === n);
      if (isProblem(segment)) {
        // The others still apply (the merge does not care about order); this one is read again next round.
        problems.push(segment);
        contiguous = false;
        continue;
      }
      changes.push(...segment.changes);
      if (contiguous) merged[other] = n;
      read++;
      if (toRead > 1) onProgress({ phase: 'down', done: read, total: toRead });
    }
    // Read whole: skipped until it changes (a segment that failed keeps it to be read again),
    // and everything it sent before its clock is here.
    if (contiguous) {
      seenTags[other] = tag;
      if (manifest.clock !== undefined) heard[other] = manifest.clock;
    }
  }
  // Files no key here opens, and a newer key check on the server: the passphrase was changed
  // elsewhere. Paused until it is entered here (nothing read is lost: read again then).
  if (problems.some((p) => p.reason === 'tampered') && (await changedSince(storage, key))) throw new SyncCryptoError('passphrase_changed');
  const next: SyncMemory = { ...memory, segments, merged, seenVersions, seenTags, heard, horizons, devices, snapshotCover, legacy, keyed, ...(retired.size > 0 ? { retired: [...retired] } : {}) };
  // 3. The manifest last: it publishes the segments, and says how far this device has read.
  // Nothing published and nothing more read: left as it is (other devices then skip it too),
  // unless this device's horizon has passed a deletion the others wait on to collect it.
  const clock = options.clock?.();
  // A device that stopped syncing, once everything it published is here, holds nothing back.
  const holding = devices.filter((d) => !(retired.has(d) && seenTags[d] === manifests.get(d)));
  const horizon = clock === undefined ? undefined : horizonOf(clock, holding, heard);
  const horizonMoved = horizon !== undefined && horizon !== memory.horizon && (options.horizonMatters?.(memory.horizon, horizon) ?? false);
  const resealed = (memory.sealedWith ?? 1) !== key.generation;
  const result = { changes, problems, ...(more ? { more } : {}) };
  if (segments === memory.segments && sameVector(merged, memory.merged) && memory.manifestVersion > 0 && !horizonMoved && !resealed) {
    return { memory: next, ...result };
  }
  return { memory: await writeManifest(storage, key, next, clock, horizon, options.label), ...result };
}

/**
 * This device's horizon: every change stamped before it, from any device, is merged here. Its
 * own changes are all here, and it stamps nothing older than its clock; of each other device
 * listed, it has everything sent before the clock of that device's newest manifest it read whole.
 * A device never read whole leaves no horizon.
 */
function horizonOf(clock: string, devices: readonly string[], heard: Record<string, string>): string | undefined {
  let horizon = clock;
  for (const other of devices) {
    const stamp = heard[other];
    if (stamp === undefined) return undefined;
    if (compareStamps(stamp, horizon) < 0) horizon = stamp;
  }
  return horizon;
}

/** The device's manifest, replaced (a new version) with what `memory` says; the memory that results. */
async function writeManifest(storage: SyncStorage, key: SyncKeyring, memory: SyncMemory, clock: string | undefined, horizon: string | undefined, label?: string, retired?: true): Promise<SyncMemory> {
  const version = memory.manifestVersion + 1;
  const manifest: Manifest = {
    format: SYNC_FORMAT,
    device: memory.device,
    version,
    segments: memory.segments,
    merged: memory.merged,
    ...(memory.snapshot === undefined ? {} : { snapshot: memory.snapshot }),
    ...(clock === undefined ? {} : { clock }),
    ...(horizon === undefined ? {} : { horizon }),
    ...(label === undefined ? {} : { label }),
    ...(retired === undefined ? {} : { retired }),
  };
  const manifestPath = syncPaths.manifest(memory.device);
  await storage.write(manifestPath, await sealJson(key.key, manifest, { path: manifestPath, version: MANIFEST_PLACE_VERSION }));
  const next: SyncMemory = { ...memory, manifestVersion: version, sealedWith: key.generation };
  if (horizon === undefined) delete next.horizon;
  else next.horizon = horizon;
  return next;
}

/**
 * Publishes a snapshot (snapshot.ts): `changes` rebuild this device's merged state as of
 * `memory`. Its parts are written first, then the manifest names them; the previous snapshot's
 * parts (this device's own) are deleted after.
 */
export async function publishSnapshot(storage: SyncStorage, keys: CryptoKey | SyncKeyring, memory: SyncMemory, changes: readonly Change[], clock: string, onProgress: (progress: SyncProgress) => void = () => undefined, published: (memory: SyncMemory) => Promise<void> = async () => undefined): Promise<SyncMemory> {
  const key = keyringOf(keys);
  const device = memory.device;
  const previous = memory.snapshot;
  const n = (previous?.n ?? 0) + 1;
  const id = [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const batches = segmentsOf(changes);
  if (batches.length === 0) batches.push([]);
  for (const [i, batch] of batches.entries()) {
    const part = i + 1;
    const path = syncPaths.snapshot(device, n, part);
    await storage.write(path, await sealJson(key.key, { format: SYNC_FORMAT, device, n, id, part, changes: batch }, { path, version: SEGMENT_PLACE_VERSION }));
    onProgress({ phase: 'up', done: part, total: batches.length });
  }
  const snapshot: SnapshotInfo = { n, id, parts: batches.length, merged: { ...memory.merged, [device]: memory.segments } };
  const next = await writeManifest(storage, key, { ...memory, snapshot, snapshotCover: Math.max(memory.snapshotCover, sum(snapshot.merged)) }, clock, memory.horizon);
  // Saved before anything else: a stop now never writes this manifest version or number again.
  await published(next);
  if (previous !== undefined) {
    for (let part = 1; part <= previous.parts; part++) {
      try {
        await storage.remove(syncPaths.snapshot(device, previous.n, part));
      } catch {
        // Left behind: named by no manifest, so read by no one.
      }
    }
  }
  return next;
}

/**
 * "Stop syncing on this device": its manifest says so, as a new version (what it published
 * stays, for the devices that have not read it yet). Nothing when it never published.
 */
export async function retireDevice(storage: SyncStorage, keys: CryptoKey | SyncKeyring, memory: SyncMemory, clock: string): Promise<void> {
  if (memory.manifestVersion === 0) return;
  await writeManifest(storage, keyringOf(keys), memory, clock, memory.horizon, undefined, true);
}

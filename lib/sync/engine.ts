/**
 * One round of sync (README.md): publish this device's pending changes as a new segment (written
 * first, then named in its manifest), then read every other device's manifest and the segments
 * it names that this device has not merged yet. What it reads is returned, to be merged
 * (merge.ts) and applied locally; what it could not read is said, and read again next round.
 */
import type * as z from 'zod/mini';
import { isDeviceId, ManifestSchema, SegmentSchema, SYNC_FORMAT, syncPaths, type Change, type Manifest } from './changes';
import { createKeyCheck, KEY_CHECK_PATH, openJson, sealJson, SyncCryptoError, unlock, type SyncCryptoFailure } from './crypto';
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
}

export function newMemory(device: string): SyncMemory {
  if (!isDeviceId(device)) throw new Error('a device id is 8 to 64 letters, digits, - or _');
  return { device, segments: 0, manifestVersion: 0, merged: {}, seenVersions: {}, seenTags: {} };
}

/** Something this round could not read (read again next round): a code and where. */
export interface SyncProblem {
  path: string;
  reason: SyncCryptoFailure | 'unreadable' | 'missing' | 'rolled_back';
}

export interface RoundResult {
  memory: SyncMemory;
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
const SEGMENT_PLACE_VERSION = 1;

/**
 * The key for `passphrase` on this storage. The first device (`create`, after the passphrase was
 * typed twice) writes the key check; any other is refused with a code before anything is written.
 */
export async function openSyncKey(storage: SyncStorage, passphrase: string, create: boolean): Promise<CryptoKey> {
  const path = `gateway-chat/${KEY_CHECK_PATH}`;
  const stored = await storage.read(path);
  if (stored === undefined) {
    if (!create) throw new SyncCryptoError('bad_key_check');
    const { keyCheck, key } = await createKeyCheck(passphrase);
    await storage.write(path, new TextEncoder().encode(JSON.stringify(keyCheck)));
    return key;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(stored));
  } catch {
    throw new SyncCryptoError('bad_key_check');
  }
  return unlock(passphrase, parsed);
}

async function readSealed<T>(storage: SyncStorage, key: CryptoKey, path: string, version: number, schema: z.ZodMiniType<T>, fits: (value: T) => boolean): Promise<T | SyncProblem> {
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
    const value = await openJson(key, bytes, { path, version }, schema);
    return value === undefined || !fits(value) ? { path, reason: 'unreadable' } : value;
  } catch (error) {
    if (error instanceof SyncCryptoError) return { path, reason: error.code };
    throw error;
  }
}

const isProblem = (value: unknown): value is SyncProblem => typeof value === 'object' && value !== null && 'reason' in value && 'path' in value && !('format' in value);

export async function syncRound(storage: SyncStorage, key: CryptoKey, memory: SyncMemory, pending: readonly Change[], label?: string, onProgress: (progress: SyncProgress) => void = () => undefined): Promise<RoundResult> {
  const device = memory.device;
  let segments = memory.segments;
  // 1. This device's changes: each segment written whole first; only the manifest publishes them.
  // A first sync of a long history is many segments of a bounded size (memory, and a request
  // that a proxy or a slow link does not cut off).
  const batches = segmentsOf(pending);
  for (const [i, batch] of batches.entries()) {
    const n = segments + 1;
    const path = syncPaths.segment(device, n);
    await storage.write(path, await sealJson(key, { format: SYNC_FORMAT, device, n, changes: batch }, { path, version: SEGMENT_PLACE_VERSION }));
    segments = n;
    if (batches.length > 1) onProgress({ phase: 'up', done: i + 1, total: batches.length });
  }
  // 2. Everyone else's.
  const merged = { ...memory.merged };
  const seenVersions = { ...memory.seenVersions };
  const changes: Change[] = [];
  const problems: SyncProblem[] = [];
  const seenTags = { ...memory.seenTags };
  let toRead = 0;
  let read = 0;
  const manifests = await storage.tags(syncPaths.manifests());
  // This device published before, and its manifest is gone: the synced data was erased (from
  // another device, say) or replaced. Nothing is written over it: the user sets sync up again.
  if (memory.manifestVersion > 0 && !manifests.has(device)) throw new SyncCryptoError('erased');
  for (const [other, tag] of manifests) {
    if (other === device || !isDeviceId(other)) continue;
    // Not rewritten since it was last read whole: nothing new from that device.
    if (seenTags[other] === tag) continue;
    const manifestPath = syncPaths.manifest(other);
    const manifest = await readSealed(storage, key, manifestPath, MANIFEST_PLACE_VERSION, ManifestSchema, (m) => m.device === other);
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
    let contiguous = true;
    const from = (merged[other] ?? 0) + 1;
    toRead += Math.max(0, manifest.segments - from + 1);
    for (let n = from; n <= manifest.segments; n++) {
      const path = syncPaths.segment(other, n);
      const segment = await readSealed(storage, key, path, SEGMENT_PLACE_VERSION, SegmentSchema, (g) => g.device === other && g.n === n);
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
    // Read whole: skipped until it changes. (A segment that failed keeps it to be read again.)
    if (contiguous) seenTags[other] = tag;
  }
  // 3. The manifest last: it publishes the segments, and says how far this device has read.
  // Nothing published and nothing more read: left as it is (other devices then skip it too).
  const same = (a: Record<string, number>, b: Record<string, number>): boolean => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
  if (segments === memory.segments && same(merged, memory.merged) && memory.manifestVersion > 0) {
    return { memory: { ...memory, seenVersions, seenTags }, changes, problems };
  }
  const version = memory.manifestVersion + 1;
  const manifest: Manifest = { format: SYNC_FORMAT, device, version, segments, merged, ...(label === undefined ? {} : { label }) };
  const manifestPath = syncPaths.manifest(device);
  await storage.write(manifestPath, await sealJson(key, manifest, { path: manifestPath, version: MANIFEST_PLACE_VERSION }));
  return { memory: { device, segments, manifestVersion: version, merged, seenVersions, seenTags }, changes, problems };
}


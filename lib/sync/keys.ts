/**
 * Changing the passphrase (README.md, "Encryption"). A change writes a new key check, one
 * generation on (`gateway-chat/keychecks/{n}.json`, with a new salt; the first passphrase's is
 * `keycheck.json`), and never touches the older ones. The device that changed it, and every
 * other once the new passphrase is entered there, seals what it writes with the new key and keeps
 * the older keys to open what others sealed before; each then re-encrypts its own files (its
 * segments and snapshot, in place: the same content under the new key, so a reader gets one or
 * the other whole) in the background, saving how far it got, so that a stop resumes there. Its
 * manifest, sealed anew with every rewrite, goes last. A device that meets files no key of its
 * opens and a newer key check pauses with `passphrase_changed` until the new one is entered.
 */
import { syncPaths, SegmentSchema, SnapshotPartSchema } from './changes';
import { createKeyCheck, PBKDF2_ITERATIONS, sealJson, SyncCryptoError, type SyncKeyring } from './crypto';
import { isProblem, keyCheckPath, newestGeneration, openSyncKeyring, readSealed, SEGMENT_PLACE_VERSION, type SyncMemory } from './engine';
import type { SyncProgress } from './scheduler';
import type { SyncStorage } from './storage';

/**
 * A new passphrase for this storage (typed twice, checked by the caller): its key check written
 * as the next generation; the keys that result (the old ones kept, to open what is not
 * re-encrypted yet). Refused with `passphrase_changed` when another device changed it first
 * (its passphrase must be entered here before this one may change it).
 */
export async function changePassphrase(storage: SyncStorage, keys: SyncKeyring, passphrase: string): Promise<SyncKeyring> {
  const newest = (await newestGeneration(storage)) ?? 0;
  if (newest > keys.generation) throw new SyncCryptoError('passphrase_changed');
  const generation = keys.generation + 1;
  const path = keyCheckPath(generation);
  if ((await storage.read(path)) !== undefined) throw new SyncCryptoError('passphrase_changed');
  const { keyCheck, key } = await createKeyCheck(passphrase, PBKDF2_ITERATIONS, generation);
  await storage.write(path, new TextEncoder().encode(JSON.stringify(keyCheck)));
  return { generation, key, older: [keys.key, ...keys.older] };
}

/**
 * The keys after the passphrase was changed elsewhere: the newest key check proves
 * `passphrase`; the keys this device had are kept as older ones.
 */
export async function unlockNewest(storage: SyncStorage, passphrase: string, had: SyncKeyring | undefined): Promise<SyncKeyring> {
  const opened = await openSyncKeyring(storage, passphrase, false);
  if (had === undefined) return opened;
  if (had.generation >= opened.generation) return had;
  return { ...opened, older: [had.key, ...had.older] };
}

/** Files re-encrypted between two saves of how far it got. */
const REKEY_SAVE_EVERY = 20;

/**
 * Re-encrypts this device's own segments and snapshot parts under `keys`' key, if they are not
 * yet: from where a stopped re-encryption got to (`memory.rekey`), saving its progress with
 * `checkpoint` as it goes. The memory that results (`keyGeneration` the new one when done; the
 * manifest is then sealed anew by the next round). A file that no key opens is left as it is
 * (it could not be read before either).
 */
export async function reencryptOwn(storage: SyncStorage, keys: SyncKeyring, memory: SyncMemory, onProgress: (progress: SyncProgress) => void = () => undefined, checkpoint: (memory: SyncMemory) => Promise<void> = async () => undefined): Promise<SyncMemory> {
  if ((memory.keyGeneration ?? 1) >= keys.generation) return memory;
  const device = memory.device;
  const files: { path: string; write: (value: unknown) => Promise<void>; read: () => Promise<unknown> }[] = [];
  for (let n = 1; n <= memory.segments; n++) {
    const path = syncPaths.segment(device, n);
    files.push({ path, read: () => readSealed(storage, keys, path, SEGMENT_PLACE_VERSION, SegmentSchema, (g) => g.device === device && g.n === n), write: async (value) => storage.write(path, await sealJson(keys.key, value, { path, version: SEGMENT_PLACE_VERSION })) });
  }
  const snapshot = memory.snapshot;
  for (let part = 1; snapshot !== undefined && part <= snapshot.parts; part++) {
    const path = syncPaths.snapshot(device, snapshot.n, part);
    files.push({ path, read: () => readSealed(storage, keys, path, SEGMENT_PLACE_VERSION, SnapshotPartSchema, (p) => p.device === device && p.n === snapshot.n && p.part === part), write: async (value) => storage.write(path, await sealJson(keys.key, value, { path, version: SEGMENT_PLACE_VERSION })) });
  }
  let done = memory.rekey?.generation === keys.generation ? Math.min(memory.rekey.done, files.length) : 0;
  let current: SyncMemory = { ...memory, rekey: { generation: keys.generation, done } };
  for (const file of files.slice(done)) {
    const value = await file.read();
    if (!isProblem(value)) await file.write(value);
    done++;
    onProgress({ phase: 'rekey', done, total: files.length });
    current = { ...current, rekey: { generation: keys.generation, done } };
    if (done % REKEY_SAVE_EVERY === 0 && done < files.length) await checkpoint(current);
  }
  const finished: SyncMemory = { ...current, keyGeneration: keys.generation };
  delete finished.rekey;
  return finished;
}

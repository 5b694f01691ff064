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
import { syncPaths } from './changes';
import { createKeyCheck, openWith, PBKDF2_ITERATIONS, seal, SyncCryptoError, unlock, type SyncKeyring } from './crypto';
import { changedSince, keyCheckPath, openSyncKeyring, readKeyCheck, SEGMENT_PLACE_VERSION, type SyncMemory } from './engine';
import type { SyncProgress } from './scheduler';
import type { SyncStorage } from './storage';

/**
 * A new passphrase for this storage (typed twice, checked by the caller; `current` proved
 * first): the keys that result, the old ones kept (to open what is not re-encrypted yet), with
 * the next generation's key check pending (`publishKeyCheck` writes it once they are kept).
 * Refused with `passphrase_changed` when another device changed it first (its passphrase must be
 * entered here before this one may change it).
 */
export async function changePassphrase(storage: SyncStorage, keys: SyncKeyring, current: string, passphrase: string): Promise<SyncKeyring> {
  // Changed already by a device with this key: its passphrase first. (A next check not linked
  // to this key is none of ours: a change writes over it.)
  if (await changedSince(storage, keys)) throw new SyncCryptoError('passphrase_changed');
  // Whoever changes it knows it (an options page left open is not enough).
  await unlock(current, await readKeyCheck(storage, keys.generation), keys.generation);
  // Never one the storage had: it would be refused later as an earlier one.
  for (let generation = keys.generation; generation >= 1; generation--) {
    let opened = false;
    try {
      await unlock(passphrase, await readKeyCheck(storage, generation), generation);
      opened = true;
    } catch {
      // Not that generation's: as it should be.
    }
    if (opened) throw new SyncCryptoError('reused_passphrase');
  }
  const generation = keys.generation + 1;
  // Linked to the current key: the other devices know it for a real change (engine.changedSince).
  // Not written yet: the keys are kept with it first (`publishKeyCheck`).
  const { keyCheck, key } = await createKeyCheck(passphrase, PBKDF2_ITERATIONS, generation, keys.key);
  return { generation, key, older: [keys.key, ...keys.older], pending: JSON.stringify(keyCheck) };
}

/** The keys before a change still pending (which is dropped). */
function beforePending(keys: SyncKeyring): SyncKeyring {
  const [previous, ...older] = keys.older;
  return keys.pending === undefined || previous === undefined ? keys : { generation: keys.generation - 1, key: previous, older };
}

/**
 * Writes a pending key check (a passphrase change, kept with the keys first); the keys without
 * it once it is on the server. Run by the page right after it kept them, and by the background
 * before a round (the page closed in between). Another device's change of the same generation
 * already there refuses with `passphrase_changed` (its passphrase is then entered here); a check
 * there that no holder of the current key wrote is none: this one replaces it.
 */
export async function publishKeyCheck(storage: SyncStorage, keys: SyncKeyring): Promise<SyncKeyring> {
  if (keys.pending === undefined) return keys;
  const path = keyCheckPath(keys.generation);
  const there = await storage.read(path);
  const text = there === undefined ? undefined : new TextDecoder().decode(there);
  if (text !== keys.pending) {
    if (text !== undefined && (await changedSince(storage, beforePending(keys)))) throw new SyncCryptoError('passphrase_changed');
    await storage.write(path, new TextEncoder().encode(keys.pending));
  }
  const { pending: _written, ...published } = keys;
  return published;
}

/**
 * The keys after the passphrase was changed elsewhere: the newest key check proves
 * `passphrase`; the keys this device had are kept as older ones.
 */
export async function unlockNewest(storage: SyncStorage, passphrase: string, had: SyncKeyring | undefined): Promise<SyncKeyring> {
  const opened = await openSyncKeyring(storage, passphrase, false);
  if (had === undefined) return opened;
  // A change of this device's that another device's beat: dropped, for the one on the server.
  const before = beforePending(had);
  if (before.generation >= opened.generation) return before;
  // The first change after this device's key must be one a holder of that key made.
  if (!(await changedSince(storage, before))) throw new SyncCryptoError('bad_key_check');
  return { ...opened, older: [before.key, ...before.older] };
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
  const paths: string[] = [];
  for (let n = 1; n <= memory.segments; n++) paths.push(syncPaths.segment(device, n));
  const snapshot = memory.snapshot;
  for (let part = 1; snapshot !== undefined && part <= snapshot.parts; part++) paths.push(syncPaths.snapshot(device, snapshot.n, part));
  let done = memory.rekey?.generation === keys.generation ? Math.min(memory.rekey.done, paths.length) : 0;
  let current: SyncMemory = { ...memory, rekey: { generation: keys.generation, done } };
  for (const path of paths.slice(done)) {
    const place = { path, version: SEGMENT_PLACE_VERSION };
    // A request that fails stops here (the round is tried again, and resumes at this file).
    const bytes = await storage.read(path);
    let plaintext: Uint8Array<ArrayBuffer> | undefined;
    try {
      plaintext = bytes === undefined ? undefined : await openWith(keys, bytes, place);
    } catch (error) {
      // Not ours, or opened by no key: no device could read it before either; left as it is.
      if (!(error instanceof SyncCryptoError)) throw error;
    }
    // The same bytes, under the new key (nothing parsed and written back: what it said stays whole).
    if (plaintext !== undefined) await storage.write(path, await seal(keys.key, plaintext, place));
    done++;
    onProgress({ phase: 'rekey', done, total: paths.length });
    current = { ...current, rekey: { generation: keys.generation, done } };
    if (done % REKEY_SAVE_EVERY === 0 && done < paths.length) await checkpoint(current);
  }
  const finished: SyncMemory = { ...current, keyGeneration: keys.generation };
  delete finished.rekey;
  return finished;
}

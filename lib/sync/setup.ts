/**
 * The options page's steps (issue 31): "Test sync" (can this device list, write, read and remove
 * in the folder; is sync already set up there), joining with the passphrase (the first device
 * writes the key check, every other proves the passphrase against it before anything is read
 * or written), and "Erase synced data on the server". Codes with the address and status, for
 * the UI to word; never a credential.
 */
import { openSyncKeyring } from './engine';
import { SyncCryptoError, type SyncKeyring } from './crypto';
import { changePassphrase, publishKeyCheck, unlockNewest } from './keys';
import { syncPaths } from './changes';
import { MIN_PASSPHRASE_LENGTH } from './limits';
import { probeStorage, SyncStorageError, type ProbeStep, type SyncStorage } from './storage';

/** Everything sync writes lives under this folder, inside the user's own folder. */
export const SYNC_ROOT = 'gateway-chat/';

export interface SyncFailure {
  /** A SyncStorageFailure or SyncCryptoFailure, or `unexpected`. */
  code: string;
  /** The step of "Test sync" that failed (list, write, read, remove), when it was one. */
  step?: ProbeStep;
  address?: string;
  status?: number;
  /** The platform's own words, for what has no code (shown verbatim). */
  detail?: string;
}

export type SyncTestResult = { ok: true; firstDevice: boolean } | ({ ok: false } & SyncFailure);

export function failureFrom(error: unknown, step?: ProbeStep): SyncFailure {
  const where = step === undefined ? {} : { step };
  if (error instanceof SyncStorageError) return { code: error.code, ...where, address: error.address, ...(error.status === undefined ? {} : { status: error.status }) };
  if (error instanceof SyncCryptoError) return { code: error.code, ...where };
  return { code: 'unexpected', ...where, detail: error instanceof Error ? error.message : String(error) };
}

/** "Test sync": the first step that fails, or whether this is the first device on this storage. */
export async function testSync(storage: SyncStorage): Promise<SyncTestResult> {
  const failed = await probeStorage(storage, SYNC_ROOT);
  if (failed !== undefined) return { ok: false, ...failureFrom(failed.error, failed.step) };
  try {
    return { ok: true, firstDevice: (await storage.read(syncPaths.keyCheck())) === undefined };
  } catch (error) {
    return { ok: false, ...failureFrom(error, 'read') };
  }
}

/**
 * The key for this storage: the first device (`firstDevice`, the passphrase typed twice) creates
 * the key check; any other must match it (`wrong_passphrase` otherwise, nothing written).
 */
export async function joinSync(storage: SyncStorage, passphrase: string, firstDevice: boolean): Promise<{ ok: true; key: SyncKeyring } | ({ ok: false } & SyncFailure)> {
  if (passphrase === '') return { ok: false, code: 'empty_passphrase' };
  // The storage holds what a guess is checked against: the first device chooses a passphrase
  // long enough that guessing it offline is not worth trying.
  if (firstDevice && [...passphrase].length < MIN_PASSPHRASE_LENGTH) return { ok: false, code: 'short_passphrase' };
  try {
    return { ok: true, key: await openSyncKeyring(storage, passphrase, firstDevice) };
  } catch (error) {
    return { ok: false, ...failureFrom(error) };
  }
}

/** "Erase synced data on the server": sync's folder and everything in it, for every device. */
export async function eraseSyncData(storage: SyncStorage): Promise<{ ok: true } | ({ ok: false } & SyncFailure)> {
  try {
    await storage.remove(SYNC_ROOT);
    return { ok: true };
  } catch (error) {
    return { ok: false, ...failureFrom(error) };
  }
}

/**
 * "Change passphrase" (the current one, then the new one typed twice): a new key check on the
 * storage; the keys that result, to keep (the background then re-encrypts this device's files).
 */
export async function changeSyncPassphrase(storage: SyncStorage, keys: SyncKeyring | undefined, current: string, passphrase: string): Promise<{ ok: true; key: SyncKeyring } | ({ ok: false } & SyncFailure)> {
  if (keys === undefined) return { ok: false, code: 'no_key' };
  if (current === '' || passphrase === '') return { ok: false, code: 'empty_passphrase' };
  if ([...passphrase].length < MIN_PASSPHRASE_LENGTH) return { ok: false, code: 'short_passphrase' };
  try {
    return { ok: true, key: await changePassphrase(storage, keys, current, passphrase) };
  } catch (error) {
    return { ok: false, ...failureFrom(error) };
  }
}

/**
 * The passphrase entered again on a device that lost its key, or after it was changed on another
 * device: proved against the storage's newest key check; the keys this device had are kept, to
 * open what is not re-encrypted yet. Its sync goes on where it stopped.
 */
export async function unlockSync(storage: SyncStorage, passphrase: string, had: SyncKeyring | undefined): Promise<{ ok: true; key: SyncKeyring } | ({ ok: false } & SyncFailure)> {
  if (passphrase === '') return { ok: false, code: 'empty_passphrase' };
  try {
    return { ok: true, key: await unlockNewest(storage, passphrase, had) };
  } catch (error) {
    return { ok: false, ...failureFrom(error) };
  }
}

/** A pending key check written (`publishKeyCheck`): the keys without it, or why not. */
export async function publishSyncKeyCheck(storage: SyncStorage, keys: SyncKeyring): Promise<{ ok: true; key: SyncKeyring } | ({ ok: false } & SyncFailure)> {
  try {
    return { ok: true, key: await publishKeyCheck(storage, keys) };
  } catch (error) {
    return { ok: false, ...failureFrom(error) };
  }
}

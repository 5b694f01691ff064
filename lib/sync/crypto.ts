/**
 * Sync's encryption (see README.md): a key derived from the user's passphrase (PBKDF2-SHA-256,
 * 600,000 iterations), AES-GCM-256 with a fresh random 96-bit IV per object, and the object's
 * path and version as associated data. WebCrypto only: nothing here is hand-written crypto.
 */
import * as z from 'zod/mini';

export const PBKDF2_ITERATIONS = 600_000;
export const MAX_PBKDF2_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const IV_BYTES = 12;
/** Every sealed object starts with these bytes and a format version. */
const MAGIC = [0x47, 0x43, 0x53]; // "GCS"
const FORMAT = 1;
const HEADER_BYTES = MAGIC.length + 1 + IV_BYTES;
/** The value the key check seals: reading it back proves the passphrase. */
const KEY_CHECK_VALUE = 'gateway-chat sync key check';
export const KEY_CHECK_PATH = 'keycheck.json';

/** Why an object could not be opened: a code, for the UI to word. */
export type SyncCryptoFailure =
  /** Not a sealed object of ours (another program's file, or cut short). */
  | 'not_sealed'
  /** Sealed, but not by this key for this path and version: tampered, moved, rolled back, or another passphrase. */
  | 'tampered'
  /** The key check does not open with this passphrase. */
  | 'wrong_passphrase'
  /** The key check itself cannot be read. */
  | 'bad_key_check'
  /** This device has no key (its saved key was lost): the passphrase must be entered again. */
  | 'no_key'
  /** The synced data this device published is gone from the server (erased, or the folder replaced). */
  | 'erased'
  /** Another device changed the passphrase: this one needs the new one (keys.ts). */
  | 'passphrase_changed'
  /** The passphrase typed is one this storage had before a change, not its current one. */
  | 'old_passphrase'
  /** A new passphrase this storage has had before (it would then be taken for an old one). */
  | 'reused_passphrase';

export class SyncCryptoError extends Error {
  constructor(readonly code: SyncCryptoFailure) {
    super(code);
    this.name = 'SyncCryptoError';
  }
}

/** Where an object is and which version of it this is: bound to its ciphertext. */
export interface ObjectPlace {
  path: string;
  version: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function associatedData(place: ObjectPlace): Uint8Array<ArrayBuffer> {
  return encoder.encode(`gateway-chat sync\n${place.path}\n${place.version}`);
}

export function randomSalt(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(SALT_BYTES));
}

/** The AES-GCM-256 key for `passphrase` and `salt` (not extractable: it never leaves WebCrypto). */
export async function deriveKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations = PBKDF2_ITERATIONS): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** `plaintext` sealed for `place`: header (magic, format, IV), then ciphertext and tag. */
export async function seal(key: CryptoKey, plaintext: Uint8Array<ArrayBuffer>, place: ObjectPlace): Promise<Uint8Array<ArrayBuffer>> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: associatedData(place) }, key, plaintext));
  const out = new Uint8Array(HEADER_BYTES + sealed.length);
  out.set(MAGIC, 0);
  out[MAGIC.length] = FORMAT;
  out.set(iv, MAGIC.length + 1);
  out.set(sealed, HEADER_BYTES);
  return out;
}

/** The plaintext of an object sealed for `place`, or a `SyncCryptoError`. */
export async function open(key: CryptoKey, object: Uint8Array<ArrayBuffer>, place: ObjectPlace): Promise<Uint8Array<ArrayBuffer>> {
  // The shortest sealed object: header and a 16-byte tag.
  if (object.length < HEADER_BYTES + 16 || MAGIC.some((b, i) => object[i] !== b) || object[MAGIC.length] !== FORMAT) throw new SyncCryptoError('not_sealed');
  const iv = object.slice(MAGIC.length + 1, HEADER_BYTES);
  try {
    return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: associatedData(place) }, key, object.slice(HEADER_BYTES)));
  } catch {
    throw new SyncCryptoError('tampered');
  }
}

export async function sealJson(key: CryptoKey, value: unknown, place: ObjectPlace): Promise<Uint8Array<ArrayBuffer>> {
  return seal(key, encoder.encode(JSON.stringify(value)), place);
}

/** An object's JSON, parsed with `schema` (what another device wrote is outside data). */
export async function openJson<T>(key: CryptoKey, object: Uint8Array<ArrayBuffer>, place: ObjectPlace, schema: z.ZodMiniType<T>): Promise<T | undefined> {
  return parseOpened(await open(key, object, place), schema);
}

/** Opened bytes as JSON, parsed with `schema`: undefined when they are not. */
function parseOpened<T>(bytes: Uint8Array<ArrayBuffer>, schema: z.ZodMiniType<T>): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** `keycheck.json`: not secret (a salt, a count, a sealed known value). */
export const KeyCheckSchema = z.object({
  format: z.literal(1),
  kdf: z.literal('PBKDF2-SHA-256'),
  // At most 10,000,000 (a few seconds): a server cannot make a device derive for ever.
  iterations: z.number().check(z.int(), z.minimum(PBKDF2_ITERATIONS), z.maximum(MAX_PBKDF2_ITERATIONS)),
  salt: z.string(),
  check: z.string(),
  /** From the second generation on: this check's salt and check, sealed with the previous generation's key (keys.ts). */
  link: z.optional(z.string()),
});
export type KeyCheck = z.infer<typeof KeyCheckSchema>;

/**
 * The keys this device holds: the passphrase's newest key check's (`generation`: 1 for the first
 * passphrase, one more for each change), which seals everything it writes, and the older ones',
 * which open what was sealed before a change and is not re-encrypted yet (keys.ts).
 */
export interface SyncKeyring {
  generation: number;
  key: CryptoKey;
  older: CryptoKey[];
  /**
   * A passphrase change not yet on the server: this generation's key check (JSON), kept with the
   * keys before it is written, so a stop in between never leaves a check no device holds the key
   * of (keys.ts `publishKeyCheck`, which the background runs before a round).
   */
  pending?: string;
}

export function keyringOf(key: CryptoKey | SyncKeyring): SyncKeyring {
  return 'generation' in key ? key : { generation: 1, key, older: [] };
}

/** Where generation `generation`'s key check is, under gateway-chat/, and the version its check is sealed with. */
export function keyCheckPlace(generation: number): ObjectPlace {
  return generation === 1 ? { path: KEY_CHECK_PATH, version: 1 } : { path: `keychecks/${generation}.json`, version: generation };
}

/**
 * The plaintext of `object`, opened with the keyring's key, else (when `older` allows) with an
 * older one: `tampered` when none does.
 */
export async function openWith(keys: SyncKeyring, object: Uint8Array<ArrayBuffer>, place: ObjectPlace, older = true): Promise<Uint8Array<ArrayBuffer>> {
  const all = older ? [keys.key, ...keys.older] : [keys.key];
  for (const [i, key] of all.entries()) {
    try {
      return await open(key, object, place);
    } catch (error) {
      if (!(error instanceof SyncCryptoError) || error.code !== 'tampered' || i === all.length - 1) throw error;
    }
  }
  throw new SyncCryptoError('tampered');
}

/** `openWith`, then the JSON parsed with `schema`. */
export async function openJsonWith<T>(keys: SyncKeyring, object: Uint8Array<ArrayBuffer>, place: ObjectPlace, schema: z.ZodMiniType<T>, older = true): Promise<T | undefined> {
  return parseOpened(await openWith(keys, object, place, older), schema);
}

/** A new key check for `passphrase` (the first device, or a new passphrase: `generation`), with the key it proves. */
export async function createKeyCheck(passphrase: string, iterations = PBKDF2_ITERATIONS, generation = 1, previous?: CryptoKey): Promise<{ keyCheck: KeyCheck; key: CryptoKey }> {
  const salt = randomSalt();
  const key = await deriveKey(passphrase, salt, iterations);
  const check = await seal(key, encoder.encode(KEY_CHECK_VALUE), keyCheckPlace(generation));
  const keyCheck: KeyCheck = { format: 1, kdf: 'PBKDF2-SHA-256', iterations, salt: base64(salt), check: base64(check) };
  if (previous !== undefined) keyCheck.link = base64(await seal(previous, linkValue(keyCheck, generation), linkPlace(generation)));
  return { keyCheck, key };
}

const linkValue = (keyCheck: KeyCheck, generation: number): Uint8Array<ArrayBuffer> => encoder.encode(`${generation}\n${keyCheck.iterations}\n${keyCheck.salt}\n${keyCheck.check}`);
const linkPlace = (generation: number): ObjectPlace => ({ path: `${keyCheckPlace(generation).path}#link`, version: generation });

/**
 * Whether generation `generation`'s key check was written by a device holding `previous` (the
 * key of the generation before): a check the server made up, or one made with an old passphrase
 * by someone without the current key, is not.
 */
export async function linkedTo(stored: unknown, generation: number, previous: CryptoKey): Promise<boolean> {
  const parsed = KeyCheckSchema.safeParse(stored);
  const link = parsed.success && parsed.data.link !== undefined ? fromBase64(parsed.data.link) : undefined;
  if (!parsed.success || link === undefined) return false;
  try {
    const value = await open(previous, link, linkPlace(generation));
    const expected = linkValue(parsed.data, generation);
    return value.length === expected.length && value.every((b, i) => b === expected[i]);
  } catch {
    return false;
  }
}

/** The key `passphrase` gives, once the key check read from the server proves it; else a `SyncCryptoError`. */
export async function unlock(passphrase: string, stored: unknown, generation = 1): Promise<CryptoKey> {
  const parsed = KeyCheckSchema.safeParse(stored);
  const salt = parsed.success ? fromBase64(parsed.data.salt) : undefined;
  const check = parsed.success ? fromBase64(parsed.data.check) : undefined;
  if (!parsed.success || salt === undefined || check === undefined) throw new SyncCryptoError('bad_key_check');
  const key = await deriveKey(passphrase, salt, parsed.data.iterations);
  let value: string;
  try {
    value = decoder.decode(await open(key, check, keyCheckPlace(generation)));
  } catch (error) {
    if (error instanceof SyncCryptoError && error.code === 'not_sealed') throw new SyncCryptoError('bad_key_check');
    throw new SyncCryptoError('wrong_passphrase');
  }
  if (value !== KEY_CHECK_VALUE) throw new SyncCryptoError('wrong_passphrase');
  return key;
}

import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createKeyCheck, type KeyCheck, open, openJson, PBKDF2_ITERATIONS, seal, sealJson, SyncCryptoError, unlock } from '@/lib/sync/crypto';

const bytes = (text: string) => new TextEncoder().encode(text);
const failure = async (promise: Promise<unknown>): Promise<string | undefined> => {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return error instanceof SyncCryptoError ? error.code : String(error);
  }
};

describe('sync encryption', () => {
  // One key for the file: deriving it costs PBKDF2's 600,000 rounds (that is the point).
  let keyCheck: KeyCheck;
  let key: CryptoKey;
  beforeAll(async () => {
    ({ keyCheck, key } = await createKeyCheck('correct horse battery staple'));
  });
  const place = { path: 'gateway-chat/devices/laptop01/seg-1', version: 1 };

  it('derives its key with PBKDF2-SHA-256 and at least 600,000 rounds, and says a wrong passphrase clearly', async () => {
    expect(keyCheck.iterations).toBeGreaterThanOrEqual(PBKDF2_ITERATIONS);
    expect(keyCheck.kdf).toBe('PBKDF2-SHA-256');
    const again = await unlock('correct horse battery staple', JSON.parse(JSON.stringify(keyCheck)));
    const sealed = await seal(key, bytes('marker'), place);
    expect(new TextDecoder().decode(await open(again, sealed, place))).toBe('marker');
    expect(await failure(unlock('wrong horse', keyCheck))).toBe('wrong_passphrase');
    expect(await failure(unlock('correct horse battery staple', { ...keyCheck, iterations: 1000 }))).toBe('bad_key_check');
    expect(await failure(unlock('correct horse battery staple', '<html>'))).toBe('bad_key_check');
  });

  it('hides the plaintext, with a fresh IV for every object', async () => {
    const a = await seal(key, bytes('a secret marker 7f3a'), place);
    const b = await seal(key, bytes('a secret marker 7f3a'), place);
    expect(Buffer.from(a).toString('latin1')).not.toContain('marker');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
  });

  it('detects an object moved, rolled back, cut short or changed', async () => {
    const sealed = await seal(key, bytes('marker'), place);
    expect(await failure(open(key, sealed, { ...place, path: 'gateway-chat/devices/laptop01/seg-2' }))).toBe('tampered');
    expect(await failure(open(key, sealed, { ...place, version: 2 }))).toBe('tampered');
    expect(await failure(open(key, sealed.slice(0, sealed.length - 3), place))).toBe('tampered');
    const flipped = sealed.slice();
    flipped[flipped.length - 20]! ^= 1;
    expect(await failure(open(key, flipped, place))).toBe('tampered');
    expect(await failure(open(key, bytes('{"not":"ours"}'), place))).toBe('not_sealed');
  });

  it('reads JSON back only when it fits its shape', async () => {
    const sealed = await sealJson(key, { n: 1 }, place);
    expect(await openJson(key, sealed, place, z.object({ n: z.number() }))).toEqual({ n: 1 });
    expect(await openJson(key, sealed, place, z.object({ n: z.string() }))).toBeUndefined();
  });
});

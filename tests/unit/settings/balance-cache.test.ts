/**
 * The remembered balance belongs to one address and one key: another key of the same profile
 * (the user pasted a new one, or an older page still holds the old one) never shows it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { keyFingerprint, loadBalance, saveBalance, watchBalance } from '@/lib/settings/storage.adapter';

const owner = { id: 'p1', baseUrl: 'https://gw.example.com/v1', apiKey: 'sk-first-key-0000000000000000' };
const balance = { remaining: 2, currency: 'USD', unlimited: false, source: 'new-api-token-usage' as const };

beforeEach(() => fakeBrowser.reset());

describe('the remembered balance', () => {
  it('is read back for the same address and key only', async () => {
    await saveBalance(owner, balance);
    expect(await loadBalance(owner)).toMatchObject({ balance, source: 'new-api-token-usage', key: keyFingerprint(owner.apiKey) });
    expect(await loadBalance({ ...owner, apiKey: 'sk-second-key-111111111111111' })).toBeUndefined();
    expect(await loadBalance({ ...owner, baseUrl: 'https://other.example.com/v1' })).toBeUndefined();
  });

  it('a read for another key is not passed to this key\'s watchers', async () => {
    const seen: unknown[] = [];
    watchBalance(owner, (cache) => seen.push(cache.balance));
    await saveBalance({ ...owner, apiKey: 'sk-second-key-111111111111111' }, { ...balance, remaining: 0 });
    await saveBalance(owner, balance);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([balance]);
  });

  it('keeps a fingerprint, never the key', async () => {
    await saveBalance(owner, null);
    const stored = JSON.stringify(await fakeBrowser.storage.local.get(null));
    expect(stored).not.toContain(owner.apiKey);
    expect(keyFingerprint('a')).not.toBe(keyFingerprint('b'));
    expect(keyFingerprint(owner.apiKey)).toMatch(/^[0-9a-f]{16}$/);
  });
});

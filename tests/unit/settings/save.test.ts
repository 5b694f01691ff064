import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { defaultSettings, withProfile, type Profile } from '@/lib/settings/schema';
import { loadSettings, saveSettings, updateProfile, updateSettings } from '@/lib/settings/storage.adapter';

const damaged = { version: 1, profiles: [{ id: 'p1', name: 'Mine', siteUrl: 42 }], chat: {} };

beforeEach(() => {
  fakeBrowser.reset();
});

describe('damaged or newer settings are never overwritten by accident', () => {
  it.each([
    ['damaged', damaged],
    ['from a newer version', { version: 7, profiles: [{ id: 'p1', what: 'a shape we do not know' }] }],
  ])('%s: loading says so, and a save (the first-run form, another profile) is refused', async (_name, stored) => {
    await fakeBrowser.storage.local.set({ settings: stored });
    const loaded = await loadSettings();
    expect(loaded.ok).toBe(false);
    const saved = await saveSettings({ ...defaultSettings(), profiles: [] });
    expect(saved.ok).toBe(false);
    expect(await updateProfile('p1', (p) => p)).toMatchObject({ ok: false });
    expect((await fakeBrowser.storage.local.get('settings')).settings).toEqual(stored);
  });

  it('the user may choose to replace them', async () => {
    await fakeBrowser.storage.local.set({ settings: damaged });
    expect(await saveSettings(defaultSettings(), { replaceUnreadable: true })).toEqual({ ok: true });
    expect((await loadSettings()).ok).toBe(true);
  });
});

describe('saving a profile (the first-run form and the options page alike)', () => {
  const profile = (id: string, name: string): Profile => ({ id, name, siteUrl: `https://${id}.example`, baseUrl: `https://${id}.example/v1`, apiKey: 'sk-x', apiStyle: 'chat', confirmedImageModels: [] });

  it('adds a new profile after the others, or puts an edited one in its place, and makes it the active one', async () => {
    await saveSettings({ ...defaultSettings(), profiles: [profile('a', 'A'), profile('b', 'B')], activeProfileId: 'a', chat: { systemPrompt: 'Be brief.' } });
    expect(await updateSettings((now) => withProfile(now, profile('c', 'C')))).toEqual({ ok: true });
    expect(await updateSettings((now) => withProfile(now, profile('a', 'A, renamed')))).toEqual({ ok: true });
    const loaded = await loadSettings();
    expect(loaded.settings.profiles.map((p) => p.name)).toEqual(['A, renamed', 'B', 'C']);
    expect(loaded.settings.activeProfileId).toBe('a');
    expect(loaded.settings.chat.systemPrompt).toBe('Be brief.');
  });
});

// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import FirstRun from '@/components/popup/FirstRun';
import { loadSettings } from '@/lib/settings/storage.adapter';
import { defaultSettings, type Profile, type Settings } from '@/lib/settings/schema';

const KEY = 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ';

/** What a user keeps after deleting their last profile in the options page. */
const kept: Settings = {
  ...defaultSettings(),
  chat: { systemPrompt: 'Answer in haiku.', temperature: 0.3 },
  presets: [{ id: 'pirate', name: 'Pirate', systemPrompt: 'Talk like a pirate.', temperature: 0.9 }],
  actions: [{ id: 'mine', name: 'Rhyme it', template: 'Make this rhyme: {{selection}}', enabled: true }],
};

const meanwhile: Profile = { id: 'from-options', name: 'Saved in the options page', siteUrl: 'https://other.example', baseUrl: 'https://other.example/v1', apiKey: KEY, apiStyle: 'chat', confirmedImageModels: [] };

beforeEach(() => {
  fakeBrowser.reset();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('first run never overwrites settings (issue 28, item 1)', () => {
  it('adds the new profile to what is stored: presets, actions, the system prompt and a profile saved meanwhile stay', async () => {
    await fakeBrowser.storage.local.set({ settings: kept });
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', supported_endpoint_types: ['openai'] }] }), { headers: { 'content-type': 'application/json' } }));
    const onConnected = vi.fn();
    render(<FirstRun onConnected={onConnected} />);

    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText(/Connected: 1 model available/)).toBeInTheDocument();
    // The options page saves a profile while the popup's form is open.
    await fakeBrowser.storage.local.set({ settings: { ...kept, profiles: [meanwhile], activeProfileId: meanwhile.id } });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onConnected).toHaveBeenCalledWith(1));

    const stored = await loadSettings();
    if (!stored.ok) throw new Error(`settings unreadable: ${stored.problem}`);
    expect(stored.settings.chat).toEqual(kept.chat);
    expect(stored.settings.presets).toEqual(kept.presets);
    expect(stored.settings.actions).toEqual(kept.actions);
    const added = stored.settings.profiles.find((p) => p.id !== meanwhile.id);
    expect(added).toMatchObject({ baseUrl: 'https://gw.example.com/v1', apiKey: KEY, defaultModel: 'gpt-4o-mini' });
    expect(stored.settings.profiles).toEqual([meanwhile, added]);
    expect(stored.settings.activeProfileId).toBe(added?.id);
  });

  it('settings that cannot be read are not replaced: Save says why and leaves them as they are', async () => {
    const damaged = { version: 1, profiles: [{ id: 'p1', name: 'Mine', siteUrl: 42 }], chat: {} };
    await fakeBrowser.storage.local.set({ settings: damaged });
    vi.spyOn(fakeBrowser.permissions, 'request').mockResolvedValue(true);
    const onConnected = vi.fn();
    render(<FirstRun onConnected={onConnected} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Gateway address' }), 'https://gw.example.com');
    await userEvent.type(screen.getByLabelText('API key'), KEY);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not saved: the stored settings cannot be read.');
    expect(onConnected).not.toHaveBeenCalled();
    expect((await fakeBrowser.storage.local.get('settings')).settings).toEqual(damaged);
  });
});

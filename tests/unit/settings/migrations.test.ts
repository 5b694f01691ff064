import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultActions } from '@/lib/actions/schema';
import { parseSettings } from '@/lib/settings/migrations';
import { SETTINGS_VERSION, activeProfile, defaultSettings } from '@/lib/settings/schema';

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/settings', name), 'utf8'));

describe('parseSettings', () => {
  it('nothing stored: the defaults', () => {
    expect(parseSettings(undefined)).toEqual({ ok: true, settings: defaultSettings(), migrated: false });
  });

  it('the current version passes through unchanged', () => {
    const result = parseSettings(fixture('v1.json'));
    const expected = fixture('v1.json') as { profiles: Record<string, unknown>[] } & Record<string, unknown>;
    // Fields added to v1 later take their defaults.
    expected.profiles[0]!.confirmedImageModels = [];
    expected.actions = defaultActions();
    expected.largeSelection = { maxTokens: 12_000 };
    expected.deadlines = { firstTokenSeconds: 120, idleSeconds: 90, totalMinutes: 30, maxReplyMegabytes: 8, imageSeconds: 180 };
    expected.appearance = { theme: 'system', language: 'browser' };
    expected.presets = [];
    expected.voice = { speechVia: 'gateway', voice: 'alloy', speed: 1, transcriptionVia: 'gateway', sendAfterDictation: false };
    expect(result).toEqual({ ok: true, settings: expected, migrated: false });
  });

  it('shipped actions saved in English before they followed the language follow it again; edited ones stay the user\'s', () => {
    const v1 = fixture('v1.json') as Record<string, unknown>;
    const english = defaultActions().map(({ preset: _preset, ...a }) => a);
    v1.actions = [english[0], { ...english[1], name: 'My explain' }, english[2]];
    const result = parseSettings(v1);
    expect(result.ok && result.settings.actions.map((a) => a.preset)).toEqual(['summarise', undefined, 'translate']);
  });

  it('v0 (one flat connection) becomes one active profile, nothing lost', () => {
    const result = parseSettings(fixture('v0.json'));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.migrated).toBe(true);
    expect(result.settings.version).toBe(SETTINGS_VERSION);
    expect(activeProfile(result.settings)).toEqual({
      id: 'migrated',
      name: 'gw.example.com',
      siteUrl: 'https://gw.example.com',
      baseUrl: 'https://gw.example.com/v1',
      apiKey: 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ',
      apiStyle: 'chat',
      defaultModel: 'gpt-4o-mini',
      confirmedImageModels: [],
    });
    expect(result.settings.chat.systemPrompt).toBe('Answer briefly.');
  });

  it('deadlines saved before a reply had a total duration and a largest size keep their values and take those defaults', () => {
    const v1 = fixture('v1.json') as Record<string, unknown>;
    v1.deadlines = { firstTokenSeconds: 60, idleSeconds: 20 };
    const result = parseSettings(v1);
    expect(result.ok && result.settings.deadlines).toEqual({ firstTokenSeconds: 60, idleSeconds: 20, totalMinutes: 30, maxReplyMegabytes: 8, imageSeconds: 180 });
    expect(result.ok && result.migrated).toBe(false);
  });

  it('a profile without apiStyle gets the default (Chat Completions)', () => {
    const v1 = fixture('v1.json') as { profiles: Record<string, unknown>[] };
    delete v1.profiles[0]!.apiStyle;
    const result = parseSettings(v1);
    expect(result.ok && result.settings.profiles[0]?.apiStyle).toBe('chat');
  });

  it('a damaged value gives defaults and names the field', () => {
    const result = parseSettings({ version: 1, profiles: [{ id: 'p', name: 'x' }], chat: {} });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result).toMatchObject({ problem: 'damaged', params: { path: 'profiles.0.siteUrl' } });
  });

  it('an out-of-range temperature is refused', () => {
    const v1 = fixture('v1.json') as { chat: Record<string, unknown> };
    v1.chat.temperature = 9;
    expect(parseSettings(v1).ok).toBe(false);
  });

  it('a version from the future is left alone', () => {
    const result = parseSettings({ version: 99 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result).toMatchObject({ problem: 'unknown_version', params: { version: '99', newer: 1 } });
  });

  it('a v0 that cannot be read says why', () => {
    const result = parseSettings({ apiKey: 5 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result).toMatchObject({ problem: 'upgrade_failed', params: { from: 0 } });
  });
});

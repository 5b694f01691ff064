import { describe, expect, it } from 'vitest';
import type { Change } from '@/lib/sync/changes';
import { HybridClock } from '@/lib/sync/clock';
import { applyChanges, emptyState, mergedView, type SyncState } from '@/lib/sync/merge';
import { planSettingsChanges, planSettingsUpdate, type SettingsMemory } from '@/lib/sync/settings';
import { defaultSettings, type Preset, type Settings } from '@/lib/settings/schema';

const preset = (id: string, name: string): Preset => ({ id, name, systemPrompt: `You are ${name}.` });

/** A device's settings and its merged state, one round at a time, without a server. */
class Device {
  state: SyncState = emptyState();
  known: SettingsMemory | undefined;
  constructor(public settings: Settings, readonly clock: HybridClock, public withSettings = false) {}
  round(arrived: readonly Change[], editMeanwhile?: (s: Settings) => Settings): Change[] {
    const read = this.settings;
    const outgoing = planSettingsChanges(read, this.state, () => this.clock.tick(), this.known, this.withSettings);
    applyChanges(this.state, outgoing);
    for (const change of arrived) this.clock.observe(change.stamp);
    applyChanges(this.state, arrived);
    if (editMeanwhile !== undefined) this.settings = editMeanwhile(this.settings);
    const { update, known } = planSettingsUpdate(mergedView(this.state), read, this.withSettings);
    if (update !== undefined) this.settings = update(this.settings);
    this.known = known;
    return outgoing;
  }
}

const names = (s: Settings): string[] => s.presets.map((p) => p.name);

describe('presets, actions and settings between devices', () => {
  it('a preset made on one device arrives on the other; edits and reordering follow; a deletion is honoured', () => {
    const laptop = new Device({ ...defaultSettings(), presets: [preset('p1', 'Editor'), preset('p2', 'Translator')] }, new HybridClock('laptop01'));
    const desktop = new Device(defaultSettings(), new HybridClock('desktop1'));
    desktop.round(laptop.round([]));
    expect(names(desktop.settings)).toEqual(['Editor', 'Translator']);
    // The desktop reorders and renames; the laptop deletes Translator… after the desktop's edit reached it.
    desktop.settings = { ...desktop.settings, presets: [{ ...preset('p2', 'Translator'), name: 'Translator (zh)' }, preset('p1', 'Editor')] };
    laptop.round(desktop.round([]));
    expect(names(laptop.settings)).toEqual(['Translator (zh)', 'Editor']);
    laptop.settings = { ...laptop.settings, presets: laptop.settings.presets.filter((p) => p.id !== 'p2') };
    desktop.round(laptop.round([]));
    expect(names(desktop.settings)).toEqual(['Editor']);
    // Nothing more to send on either side.
    expect(laptop.round([])).toEqual([]);
    expect(desktop.round([])).toEqual([]);
  });

  it('right-click actions sync like presets; the settings only when the user ticks "Sync settings"; gateways arrive without their keys', () => {
    const base = defaultSettings();
    const laptop = new Device({ ...base, profiles: [{ id: 'g1', name: 'Work', siteUrl: 'https://gw.example', baseUrl: 'https://gw.example/v1', apiKey: 'sk-secret-key-0001', apiStyle: 'chat', confirmedImageModels: [] }], appearance: { theme: 'dark', language: 'zh-CN' }, actions: [...base.actions, { ...base.actions[0]!, id: 'a-mine', name: 'Mine' }] }, new HybridClock('laptop01'));
    const desktop = new Device(defaultSettings(), new HybridClock('desktop1'));
    const sent = laptop.round([]);
    expect(JSON.stringify(sent)).not.toContain('sk-secret-key-0001');
    desktop.round(sent);
    expect(desktop.settings.actions.map((a) => a.name)).toContain('Mine');
    expect(desktop.settings.appearance.theme).toBe('system');
    // The gateway arrives without its key: it asks for it here.
    expect(desktop.settings.profiles.map((p) => [p.name, p.baseUrl, p.apiKey])).toEqual([['Work', 'https://gw.example/v1', '']]);
    // The laptop ticks "Sync settings" first: from its next round on, its settings go.
    laptop.withSettings = true;
    desktop.round(laptop.round([]));
    desktop.round(laptop.round([]));
    expect(desktop.settings.appearance.theme).toBe('system');
    // The desktop ticks it later: it takes the synced settings rather than sending its own defaults.
    desktop.withSettings = true;
    desktop.round([]);
    expect(desktop.settings.appearance).toEqual({ theme: 'dark', language: 'zh-CN' });
    expect(desktop.settings.profiles.map((p) => p.apiKey)).toEqual(['']);
    // From then on a change on either side goes to the other.
    desktop.settings = { ...desktop.settings, appearance: { theme: 'light', language: 'zh-CN' } };
    laptop.round(desktop.round([]));
    expect(laptop.settings.appearance.theme).toBe('light');
  });

  it('settings that could not be written: nothing arrived is taken for deleted here, and the old values are not sent as edits', () => {
    const laptop = new Device({ ...defaultSettings(), presets: [preset('p1', 'Editor')] }, new HybridClock('laptop01'));
    const desktop = new Device(defaultSettings(), new HybridClock('desktop1'));
    desktop.round(laptop.round([]));
    desktop.settings = { ...desktop.settings, presets: [...desktop.settings.presets, preset('p2', 'Translator')] };
    const fromDesktop = desktop.round([]);
    // The desktop renames p1 too; the laptop's write of what arrived fails (full disk).
    desktop.settings = { ...desktop.settings, presets: [{ ...preset('p1', 'Editor'), name: 'Editor (desktop)' }, preset('p2', 'Translator')] };
    const rename = desktop.round([]);
    const read = laptop.settings;
    const outgoing = planSettingsChanges(read, laptop.state, () => laptop.clock.tick(), laptop.known, false);
    applyChanges(laptop.state, outgoing);
    applyChanges(laptop.state, [...fromDesktop, ...rename]);
    const planned = planSettingsUpdate(mergedView(laptop.state), read, false);
    expect(planned.update).toBeDefined();
    // The write failed: the device keeps its old memory, marked behind.
    laptop.known = { ...laptop.known!, behind: true };
    const next = laptop.round([]);
    expect(next.filter((c) => c.type === 'delete')).toEqual([]);
    expect(next.filter((c) => c.type === 'field' && c.kind === 'preset')).toEqual([]);
    expect(names(laptop.settings)).toEqual(['Editor (desktop)', 'Translator']);
  });

  it('a gateway keeps this device\'s own key when it changes elsewhere; deleted elsewhere, it goes only where it has no key', () => {
    const work = { id: 'g1', name: 'Work', siteUrl: 'https://gw.example', baseUrl: 'https://gw.example/v1', apiKey: 'sk-laptop-key-0001', apiStyle: 'chat' as const, confirmedImageModels: [] };
    const laptop = new Device({ ...defaultSettings(), profiles: [work] }, new HybridClock('laptop01'));
    const desktop = new Device(defaultSettings(), new HybridClock('desktop1'));
    const phone = new Device(defaultSettings(), new HybridClock('phone001'));
    const first = laptop.round([]);
    desktop.round(first);
    phone.round(first);
    // The desktop enters its own key: it never leaves the desktop.
    desktop.settings = { ...desktop.settings, profiles: desktop.settings.profiles.map((p) => ({ ...p, apiKey: 'sk-desktop-key-0002' })) };
    const fromDesktop = desktop.round([]);
    expect(JSON.stringify(fromDesktop)).not.toContain('sk-desktop-key-0002');
    laptop.round(fromDesktop);
    expect(laptop.settings.profiles[0]?.apiKey).toBe('sk-laptop-key-0001');
    // Renamed on the laptop: the desktop has the new name and still its own key.
    laptop.settings = { ...laptop.settings, profiles: [{ ...laptop.settings.profiles[0]!, name: 'Work (new)' }] };
    const rename = laptop.round([]);
    desktop.round(rename);
    phone.round(rename);
    expect(desktop.settings.profiles.map((p) => [p.name, p.apiKey])).toEqual([['Work (new)', 'sk-desktop-key-0002']]);
    // Deleted on the laptop: the phone (no key) loses it; the desktop keeps it with its key.
    laptop.settings = { ...laptop.settings, profiles: [] };
    const deletion = laptop.round([]);
    expect(deletion.some((c) => c.type === 'delete' && c.kind === 'profile')).toBe(true);
    desktop.round(deletion);
    phone.round(deletion);
    expect(phone.settings.profiles).toEqual([]);
    expect(desktop.settings.profiles.map((p) => p.apiKey)).toEqual(['sk-desktop-key-0002']);
    // Kept here, it does not come back elsewhere (only its place in this device's list goes out, once).
    const kept = desktop.round([]);
    expect(kept.filter((c) => c.type === 'field' && c.kind === 'profile')).toEqual([]);
    phone.round(kept);
    expect(phone.settings.profiles).toEqual([]);
    expect(desktop.round([])).toEqual([]);
  });

  it('a preset edited on this device while a round ran is kept as edited, and sent next round', () => {
    const laptop = new Device({ ...defaultSettings(), presets: [preset('p1', 'Editor')] }, new HybridClock('laptop01'));
    const desktop = new Device(defaultSettings(), new HybridClock('desktop1'));
    desktop.round(laptop.round([]));
    laptop.settings = { ...laptop.settings, presets: [{ ...preset('p1', 'Editor'), name: 'Editor from the laptop' }] };
    const fromLaptop = laptop.round([]);
    // The desktop edits the same preset while its round runs.
    desktop.round(fromLaptop, (s) => ({ ...s, presets: [{ ...preset('p1', 'Editor'), name: 'Editor from the desktop' }] }));
    expect(names(desktop.settings)).toEqual(['Editor from the desktop']);
    const next = desktop.round([]);
    expect(next.some((c) => c.type === 'field' && c.kind === 'preset')).toBe(true);
    laptop.round(next);
    expect(names(laptop.settings)).toEqual(['Editor from the desktop']);
  });
});

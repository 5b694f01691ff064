import { useId, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { useCatalogue } from '@/components/hooks/useCatalogue';
import { useSettings } from '@/components/hooks/useSettings';
import { activeProfile, type ChatPreferences, type Deadlines, type Profile, type Settings } from '@/lib/settings/schema';
import { releaseGatewayAccess } from '@/lib/settings/permissions.adapter';
import { removeCatalogue, saveSettings } from '@/lib/settings/storage.adapter';
import { ActionsEditor } from './ActionsEditor';
import { ConnectionForm } from './ConnectionForm';
import { ThemeSelect } from './ThemeSelect';
import { useTheme } from '@/components/theme';

async function persist(settings: Settings): Promise<string | undefined> {
  const result = await saveSettings(settings);
  return result.ok ? undefined : result.message;
}

/**
 * The stored settings cannot be read: nothing is shown that could overwrite them until the
 * user chooses to start over (the old value is then replaced on the first save).
 */
function UnreadableSettings({ message, onStartOver }: { message: string; onStartOver(): void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-label="Settings unreadable" className="callout" role="alert">
      <h2>Your settings could not be read</h2>
      <p>{message}</p>
      <p>They are kept as they are. If this version of Gateway Chat is older than the one that saved them, update the extension and they come back.</p>
      {!confirming
        ? <button type="button" onClick={() => setConfirming(true)}>Start over…</button>
        : (
          <p>
            Starting over replaces the stored settings, with every gateway profile and key in them, once you save.{' '}
            <button type="button" onClick={onStartOver}>Replace the stored settings</button>{' '}
            <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
          </p>
        )}
    </section>
  );
}

function DefaultModel({ settings, profile }: { settings: Settings; profile: Profile }) {
  const catalogue = useCatalogue(profile);
  const id = useId();
  const choose = (model: string): void => {
    void persist({ ...settings, profiles: settings.profiles.map((p) => (p.id === profile.id ? { ...p, defaultModel: model } : p)) });
  };
  return (
    <section aria-label="Default model">
      <h2>Default model</h2>
      <label htmlFor={id}>Default model</label>
      <select id={id} value={profile.defaultModel ?? ''} onChange={(e) => choose(e.target.value)}>
        <option value="" disabled>Choose a model</option>
        {profile.defaultModel !== undefined && !catalogue.models.some((m) => m.id === profile.defaultModel) && (
          <option value={profile.defaultModel}>{profile.defaultModel} (not in the catalogue)</option>
        )}
        {catalogue.models.map((m) => <option key={m.id} value={m.id}>{m.id}{m.ownedBy !== undefined ? ` (${m.ownedBy})` : ''}</option>)}
      </select>
      <button type="button" onClick={() => void catalogue.refresh()} disabled={catalogue.loading}>{catalogue.loading ? 'Refreshing…' : 'Refresh models'}</button>
      <p className="hint">{catalogue.models.length} models{catalogue.fetchedAt !== undefined ? `, fetched ${new Date(catalogue.fetchedAt).toLocaleString()}` : ''}. Prices and details: <a href={`${profile.siteUrl}/models`} target="_blank" rel="noopener noreferrer">the gateway's model catalogue</a>.</p>
      {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
    </section>
  );
}

function Preferences({ settings }: { settings: Settings }) {
  const [prefs, setPrefs] = useState<ChatPreferences>(settings.chat);
  const [deadlines, setDeadlines] = useState<Deadlines>(settings.deadlines);
  const [note, setNote] = useState<{ ok: boolean; text: string } | undefined>();
  const ids = { system: useId(), temperature: useId(), maxTokens: useId(), firstToken: useId(), idle: useId() };
  const seconds = (value: string, fallback: number): number => {
    const n = Math.round(Number(value));
    return Number.isFinite(n) && n >= 1 ? Math.min(n, 3600) : fallback;
  };
  const save = async (): Promise<void> => {
    const failure = await persist({ ...settings, chat: prefs, deadlines });
    setNote(failure === undefined ? { ok: true, text: 'Preferences saved.' } : { ok: false, text: failure });
  };
  const number = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));
  return (
    <section aria-label="Chat preferences">
      <h2>Chat preferences</h2>
      <label htmlFor={ids.system}>System prompt</label>
      <textarea id={ids.system} rows={3} value={prefs.systemPrompt} onChange={(e) => setPrefs({ ...prefs, systemPrompt: e.target.value })} />
      <label htmlFor={ids.temperature}>Temperature</label>
      <input id={ids.temperature} type="number" min={0} max={2} step={0.1} value={prefs.temperature ?? ''} placeholder="default" onChange={(e) => setPrefs({ ...prefs, temperature: number(e.target.value) })} />
      <label htmlFor={ids.maxTokens}>Max tokens</label>
      <input id={ids.maxTokens} type="number" min={1} step={1} value={prefs.maxTokens ?? ''} placeholder="default" onChange={(e) => setPrefs({ ...prefs, maxTokens: number(e.target.value) })} />
      <label htmlFor={ids.firstToken}>Wait for the first words (seconds)</label>
      <input id={ids.firstToken} type="number" min={1} max={3600} step={1} value={deadlines.firstTokenSeconds} onChange={(e) => setDeadlines({ ...deadlines, firstTokenSeconds: seconds(e.target.value, deadlines.firstTokenSeconds) })} />
      <label htmlFor={ids.idle}>Give up on a silent reply after (seconds)</label>
      <input id={ids.idle} type="number" min={1} max={3600} step={1} value={deadlines.idleSeconds} onChange={(e) => setDeadlines({ ...deadlines, idleSeconds: seconds(e.target.value, deadlines.idleSeconds) })} />
      <p className="hint">Keep-alive pings from the gateway do not count as words: a reply that sends only pings ends at these deadlines, with what arrived kept.</p>
      <p className="hint">Empty temperature or max tokens: each model's own default.</p>
      <button type="button" onClick={() => void save()}>Save preferences</button>
      {note !== undefined && <p role={note.ok ? 'status' : 'alert'}>{note.text}</p>}
    </section>
  );
}

/** The options page: gateway profiles (one active), the default model, chat preferences. */
export function OptionsApp() {
  const parsed = useSettings();
  const [startOver, setStartOver] = useState(false);
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);
  const [editing, setEditing] = useState<string | 'new' | undefined>();
  // The form is remounted only when the user picks another profile, not when one is saved.
  const [formKey, setFormKey] = useState(0);
  const profileSelect = useId();
  if (parsed === undefined) return <main aria-label="Settings" aria-busy="true" />;
  if (!parsed.ok && !startOver) {
    return (
      <main aria-label="Settings" className="options">
        <h1>Gateway Chat: Settings</h1>
        <UnreadableSettings message={parsed.message} onStartOver={() => setStartOver(true)} />
      </main>
    );
  }
  const settings = parsed.settings;
  const save = async (next: Settings): Promise<string | undefined> => {
    const result = await saveSettings(next, { replaceUnreadable: !parsed.ok && startOver });
    return result.ok ? undefined : result.message;
  };
  const active = activeProfile(settings);
  const current = editing === 'new' ? undefined : settings.profiles.find((p) => p.id === editing) ?? active;

  const saveProfile = async (profile: Profile): Promise<string | undefined> => {
    const exists = settings.profiles.some((p) => p.id === profile.id);
    const profiles = exists ? settings.profiles.map((p) => (p.id === profile.id ? profile : p)) : [...settings.profiles, profile];
    const failure = await save({ ...settings, profiles, activeProfileId: profile.id });
    if (failure === undefined) setEditing(profile.id);
    return failure;
  };

  /** A deleted profile leaves nothing behind: its cached catalogue and, unless shared, its host access. */
  const remove = async (id: string): Promise<void> => {
    const removed = settings.profiles.find((p) => p.id === id);
    const profiles = settings.profiles.filter((p) => p.id !== id);
    const failure = await persist({ ...settings, profiles, activeProfileId: profiles[0]?.id });
    if (failure === undefined && removed !== undefined) {
      await removeCatalogue(id);
      await releaseGatewayAccess(removed, profiles);
    }
    setEditing(undefined);
    setFormKey((k) => k + 1);
  };

  return (
    <main aria-label="Settings" className="options">
      <h1>Gateway Chat: Settings</h1>
      {!parsed.ok && <p role="alert" className="problem">Starting over: the unreadable settings are replaced when you save.</p>}
      <section aria-label="Gateway profiles">
        <h2>Gateway</h2>
        {settings.profiles.length > 0 && (
          <div className="profile-row">
            <label htmlFor={profileSelect}>Active profile</label>
            <select id={profileSelect} value={editing === 'new' ? '' : current?.id ?? ''} onChange={(e) => {
              setEditing(e.target.value);
              setFormKey((k) => k + 1);
              void persist({ ...settings, activeProfileId: e.target.value });
            }}>
              {editing === 'new' && <option value="">New profile</option>}
              {settings.profiles.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
            </select>
            <button type="button" onClick={() => { setEditing('new'); setFormKey((k) => k + 1); }}>Add profile</button>
            {current !== undefined && <button type="button" onClick={() => void remove(current.id)}>Delete profile</button>}
          </div>
        )}
        <ConnectionForm key={formKey} profile={current} onSave={saveProfile} />
      </section>
      {current !== undefined && <DefaultModel settings={settings} profile={current} />}
      <Preferences settings={settings} />
      <section aria-label="Appearance">
        <h2>Appearance</h2>
        <label className="field-row">Theme <ThemeSelect settings={settings} /></label>
        <p className="hint">System follows your browser's light or dark setting.</p>
      </section>
      <ActionsEditor settings={settings} onSave={persist} />
    </main>
  );
}

import { AudioLines, BookMarked, Database, Info, MessageSquare, MousePointerClick, Palette, Plug, Plus, RefreshCw, Server, SquareSlash, Trash2, Waypoints, Wrench } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { ModelPicker } from '@/components/chat/ModelPicker';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { ConfirmDialog } from '@/components/ui/Dialog';
import { Field } from '@/components/ui/Field';
import { Input, Textarea } from '@/components/ui/Input';
import { toast } from '@/components/ui/Toast';
import { cx } from '@/components/ui/cx';
import { useCatalogue } from '@/components/stores/catalogue';
import { useSettings } from '@/components/stores/settings';
import { activeProfile, withProfile, withRecentModel, type ChatPreferences, type Deadlines, type Profile, type Settings } from '@/lib/settings/schema';
import { removeCatalogue, saveSettings, updateProfile, updateSettings } from '@/lib/settings/storage.adapter';
import { ActionsEditor } from './ActionsEditor';
import { Section } from './Section';
import { ConnectionForm } from './ConnectionForm';
import { PresetsEditor } from './PresetsEditor';
import { PromptsTransfer } from './PromptsTransfer';
import { About } from './About';
import { SyncSection } from './SyncSection';
import { VoiceSection } from './VoiceSection';
import { ToolsSection } from './ToolsSection';
import { McpServersSection } from './McpServersSection';
import { LanguageSelect } from './LanguageSelect';
import { ThemeSelect } from './ThemeSelect';
import { settingsReadText, settingsSaveText } from '@/components/i18n/setup-problems';
import type { Words } from '@/lib/i18n/messages';
import type { SettingsReadProblem } from '@/lib/settings/migrations';
import { useTheme } from '@/components/theme';
import { useDocumentTitle, useWords } from '@/components/i18n/words';

/** Changes the settings as stored now (another surface may have saved since the page read them). */
async function persist(change: (settings: Settings) => Settings, w: Words): Promise<string | undefined> {
  const result = await updateSettings(change);
  return result.ok ? undefined : settingsSaveText(w, result);
}

/**
 * The stored settings cannot be read: nothing is shown that could overwrite them until the
 * user chooses to start over (the old value is then replaced on the first save).
 */
function UnreadableSettings({ problem, params, onStartOver }: { problem: SettingsReadProblem; params: Record<string, string | number>; onStartOver(): void }) {
  const w = useWords();
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-label={w.t('settings.problem.label')} role="alert">
      <Callout tone="danger" title={<h2>{w.t('settings.problem.title')}</h2>}>
        <p>{settingsReadText(w, problem, params)}</p>
        <p>{w.t('options.unreadable.kept')}</p>
        <p><Button size="sm" onClick={() => setConfirming(true)}>{w.t('options.unreadable.startOver')}</Button></p>
      </Callout>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={w.t('options.unreadable.confirmTitle')}
        description={w.t('options.unreadable.confirmText')}
        confirm={w.t('options.unreadable.confirm')}
        danger
        onConfirm={onStartOver}
      />
    </section>
  );
}

function DefaultModel({ profile }: { profile: Profile }) {
  const w = useWords();
  const catalogue = useCatalogue(profile);
  const choose = (model: string): void => {
    void updateProfile(profile.id, (p) => withRecentModel({ ...p, defaultModel: model }, model)).then((r) => {
      if (r.ok) toast(w.t('options.saved'));
    });
  };
  return (
    <div className="flex flex-col gap-1.5">
      <p className="text-sm font-medium">{w.t('options.defaultModel')}</p>
      <ModelPicker label={w.t('options.defaultModel')} catalogue={catalogue} profile={profile} value={profile.defaultModel} onChange={choose} />
      <p className="text-xs text-muted">
        {w.plural('picker.count', catalogue.models.length)}{catalogue.fetchedAt !== undefined ? ` · ${w.t('options.fetchedAt', { when: new Date(catalogue.fetchedAt).toLocaleString(w.locale) })}` : ''} · <a href={`${profile.siteUrl}/models`} target="_blank" rel="noopener noreferrer">{w.t('catalogue.prices')}</a>
      </p>
      {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
    </div>
  );
}

function Preferences({ settings }: { settings: Settings }) {
  const w = useWords();
  const [prefs, setPrefs] = useState<ChatPreferences>(settings.chat);
  const [deadlines, setDeadlines] = useState<Deadlines>(settings.deadlines);
  const [note, setNote] = useState<{ ok: boolean; text: string } | undefined>();
  /** A whole number from 1 to `max`; anything else keeps the value as it was. */
  const whole = (value: string, fallback: number, max: number): number => {
    const n = Math.round(Number(value));
    return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : fallback;
  };
  const seconds = (value: string, fallback: number): number => whole(value, fallback, 3600);
  const save = async (): Promise<void> => {
    const failure = await persist((now) => ({ ...now, chat: prefs, deadlines }), w);
    setNote(failure === undefined ? { ok: true, text: w.t('options.prefsSaved') } : { ok: false, text: failure });
  };
  const number = (value: string): number | undefined => (value.trim() === '' ? undefined : Number(value));
  return (
    <Section id="chat" title={w.t('options.section.chat')} intro={w.t('options.chat.intro')}>
      <Field label={w.t('options.chat.system')} hint={w.t('options.chat.systemHint')}>
        {(control) => <Textarea {...control} rows={3} value={prefs.systemPrompt} onChange={(e) => setPrefs({ ...prefs, systemPrompt: e.target.value })} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={w.t('options.chat.temperature')} hint={w.t('options.chat.temperatureHint')}>
          {(control) => <Input {...control} type="number" min={0} max={2} step={0.1} value={prefs.temperature ?? ''} placeholder={w.t('options.chat.modelDefault')} onChange={(e) => setPrefs({ ...prefs, temperature: number(e.target.value) })} />}
        </Field>
        <Field label={w.t('options.chat.maxTokens')} hint={w.t('options.chat.maxTokensHint')}>
          {(control) => <Input {...control} type="number" min={1} step={1} value={prefs.maxTokens ?? ''} placeholder={w.t('options.chat.modelDefault')} onChange={(e) => setPrefs({ ...prefs, maxTokens: number(e.target.value) })} />}
        </Field>
        <Field label={w.t('options.chat.firstToken')}>
          {(control) => <Input {...control} type="number" min={1} max={3600} step={1} value={deadlines.firstTokenSeconds} onChange={(e) => setDeadlines({ ...deadlines, firstTokenSeconds: seconds(e.target.value, deadlines.firstTokenSeconds) })} />}
        </Field>
        <Field label={w.t('options.chat.idle')}>
          {(control) => <Input {...control} type="number" min={1} max={3600} step={1} value={deadlines.idleSeconds} onChange={(e) => setDeadlines({ ...deadlines, idleSeconds: seconds(e.target.value, deadlines.idleSeconds) })} />}
        </Field>
        <Field label={w.t('options.chat.total')} hint={w.t('options.chat.totalHint')}>
          {(control) => <Input {...control} type="number" min={1} max={1440} step={1} value={deadlines.totalMinutes} onChange={(e) => setDeadlines({ ...deadlines, totalMinutes: whole(e.target.value, deadlines.totalMinutes, 1440) })} />}
        </Field>
        <Field label={w.t('options.chat.maxReply')} hint={w.t('options.chat.maxReplyHint')}>
          {(control) => <Input {...control} type="number" min={1} max={32} step={1} value={deadlines.maxReplyMegabytes} onChange={(e) => setDeadlines({ ...deadlines, maxReplyMegabytes: whole(e.target.value, deadlines.maxReplyMegabytes, 32) })} />}
        </Field>
        {/* Issue 30: `deadlines.imageSeconds` (lib/settings/schema.ts, part A), read defensively until it is there. */}
        <Field label={w.t('options.chat.imageWait')} hint={w.t('options.chat.imageWaitHint')}>
          {(control) => <Input {...control} type="number" min={1} max={3600} step={1} value={deadlines.imageSeconds} onChange={(e) => setDeadlines({ ...deadlines, imageSeconds: seconds(e.target.value, deadlines.imageSeconds) })} />}
        </Field>
      </div>
      <p className="text-xs text-muted">{w.t('options.chat.pings')}</p>
      <div className="flex items-center gap-3">
        <Button variant="primary" onClick={() => void save()}>{w.t('options.chat.save')}</Button>
        {note !== undefined && (note.ok ? <p role="status" className="text-sm text-success">{note.text}</p> : <Callout role="alert" tone="danger">{note.text}</Callout>)}
      </div>
    </Section>
  );
}

const SECTIONS = [
  { id: 'gateways', icon: <Server aria-hidden /> },
  { id: 'chat', icon: <MessageSquare aria-hidden /> },
  { id: 'prompts', icon: <SquareSlash aria-hidden /> },
  { id: 'presets', icon: <BookMarked aria-hidden /> },
  { id: 'actions', icon: <MousePointerClick aria-hidden /> },
  { id: 'voice', icon: <AudioLines aria-hidden /> },
  { id: 'tools', icon: <Wrench aria-hidden /> },
  { id: 'mcp', icon: <Plug aria-hidden /> },
  { id: 'appearance', icon: <Palette aria-hidden /> },
  { id: 'sync', icon: <RefreshCw aria-hidden /> },
  { id: 'data', icon: <Database aria-hidden /> },
  { id: 'about', icon: <Info aria-hidden /> },
] as const;

/** The section in view, for the sidebar's mark. */
function useSectionInView(): string {
  const [current, setCurrent] = useState<string>(SECTIONS[0].id);
  useEffect(() => {
    const observer = new IntersectionObserver((entries) => {
      const top = entries.filter((e) => e.isIntersecting).sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top)[0];
      if (top !== undefined) setCurrent(top.target.id);
    }, { rootMargin: '0px 0px -60% 0px' });
    for (const s of SECTIONS) {
      const el = document.getElementById(s.id);
      if (el !== null) observer.observe(el);
    }
    return () => observer.disconnect();
  }, []);
  return current;
}

function Sidebar() {
 const w = useWords();
  const current = useSectionInView();
  return (
    <nav aria-label={w.t('options.sections')} className="sticky top-0 flex h-screen w-56 shrink-0 flex-col gap-1 border-r border-line bg-surface px-3 py-5">
      <div className="mb-4 flex items-center gap-2 px-2">
        <span aria-hidden className="flex size-7 items-center justify-center rounded-md bg-accent text-accent-fg"><Waypoints className="size-4" /></span>
        <span className="font-semibold">{w.t('app.name')}</span>
      </div>
      {SECTIONS.map((s) => (
        <a
          key={s.id}
          href={`#${s.id}`}
          aria-current={current === s.id ? 'location' : undefined}
          className={cx('flex h-8 items-center gap-2 rounded-md px-2 text-sm text-fg no-underline hover:bg-surface-2 [&_svg]:size-4 [&_svg]:text-muted', current === s.id && 'bg-accent-soft font-medium text-accent-soft-fg [&_svg]:text-accent-soft-fg')}
        >
          {s.icon}{w.t(`options.section.${s.id}`)}
        </a>
      ))}
    </nav>
  );
}

/** The options page: gateway profiles (one active), the default model, chat preferences. */
export function OptionsApp() {
  const parsed = useSettings();
  const w = useWords();
  useDocumentTitle(w.t('options.heading'));
  const [startOver, setStartOver] = useState(false);
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);
  const [editing, setEditing] = useState<string | 'new' | undefined>();
  // The form is remounted only when the user picks another profile, not when one is saved.
  const [formKey, setFormKey] = useState(0);
  // An import of prompts gives their editors afresh (they keep drafts of their own).
  const [promptsImported, setPromptsImported] = useState(0);
  const [deleting, setDeleting] = useState<Profile | undefined>();
  if (parsed === undefined) return <main aria-label={w.t('options.label')} aria-busy="true" />;
  if (!parsed.ok && !startOver) {
    return (
      <main aria-label={w.t('options.label')} className="options mx-auto max-w-3xl px-8 py-8">
        <h1 className="mb-4 text-xl font-semibold">{w.t('options.heading')}</h1>
        <UnreadableSettings problem={parsed.problem} params={parsed.params} onStartOver={() => setStartOver(true)} />
      </main>
    );
  }
  const settings = parsed.settings;
  // Read-modify-write, except when starting over from unreadable settings (they are replaced).
  const save = async (change: (now: Settings) => Settings): Promise<string | undefined> => {
    const result = !parsed.ok && startOver ? await saveSettings(change(settings), { replaceUnreadable: true }) : await updateSettings(change);
    return result.ok ? undefined : settingsSaveText(w, result);
  };
  const active = activeProfile(settings);
  const current = editing === 'new' ? undefined : settings.profiles.find((p) => p.id === editing) ?? active;

  const saveProfile = async (profile: Profile): Promise<string | undefined> => {
    const failure = await save((now) => withProfile(now, profile));
    if (failure === undefined) setEditing(profile.id);
    return failure;
  };

  /**
   * A deleted profile leaves nothing behind: its cached catalogue and, unless another profile
   * uses its origin, its host access (the background gives that back when the settings change).
   */
  const remove = async (id: string): Promise<void> => {
    const failure = await persist((now) => {
      const profiles = now.profiles.filter((p) => p.id !== id);
      return { ...now, profiles, activeProfileId: now.activeProfileId === id ? profiles[0]?.id : now.activeProfileId };
    }, w);
    if (failure === undefined) await removeCatalogue(id);
    setEditing(undefined);
    setFormKey((k) => k + 1);
  };

  const pick = (id: string): void => {
    setEditing(id);
    setFormKey((k) => k + 1);
    void persist((now) => ({ ...now, activeProfileId: id }), w);
  };

  return (
    <div className="flex min-h-screen">
      <Sidebar />
      <main aria-label={w.t('options.label')} className="options min-w-0 flex-1">
        <div className="mx-auto flex max-w-3xl flex-col gap-10 px-8 py-8">
          <h1 className="text-xl font-semibold">{w.t('options.label')}</h1>
          {!parsed.ok && <Callout role="alert" tone="warning" className="problem">{w.t('options.startingOver')}</Callout>}
          <Section id="gateways" title={w.t('options.section.gateways')} intro={w.t('options.gateways.intro')}>
            {settings.profiles.length > 0 && (
              <div className="flex flex-col gap-2">
                <div role="radiogroup" aria-label={w.t('options.gateways.active')} className="flex flex-col gap-1.5">
                  {settings.profiles.map((p) => {
                    const chosen = editing !== 'new' && current?.id === p.id;
                    return (
                      <button
                        key={p.id}
                        type="button"
                        role="radio"
                        aria-checked={chosen}
                        onClick={() => pick(p.id)}
                        className={cx('flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-left transition-colors focus-visible:outline-2 focus-visible:outline-ring', chosen ? 'border-accent bg-accent-soft' : 'border-line hover:bg-surface-2')}
                      >
                        <span aria-hidden className={cx('size-3.5 shrink-0 rounded-full border-2', chosen ? 'border-accent bg-accent shadow-[inset_0_0_0_2px_var(--surface-raised)]' : 'border-line-strong')} />
                        <span className="min-w-0 flex-1">
                          <span className="block truncate text-sm font-medium">{p.name}</span>
                          <span className="block truncate text-xs text-muted">{new URL(p.baseUrl).origin}{p.defaultModel !== undefined ? ` · ${p.defaultModel}` : ''}</span>
                        </span>
                        {p.apiKey === '' && <Badge tone="warning">{w.t('options.gateways.noKey')}</Badge>}
                        {p.id === active?.id && <Badge tone="success">{w.t('options.gateways.activeBadge')}</Badge>}
                      </button>
                    );
                  })}
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" onClick={() => { setEditing('new'); setFormKey((k) => k + 1); }}><Plus aria-hidden />{w.t('options.gateways.add')}</Button>
                  {current !== undefined && editing !== 'new' && <Button size="sm" variant="danger" onClick={() => setDeleting(current)}><Trash2 aria-hidden />{w.t('options.gateways.delete')}</Button>}
                </div>
              </div>
            )}
            <div className={cx(settings.profiles.length > 0 && 'border-t border-line pt-4')}>
              <h3 className="mb-3 text-sm font-semibold">{current === undefined ? w.t('options.gateways.new') : w.t('options.gateways.edit', { name: current.name })}</h3>
              <ConnectionForm key={formKey} profile={current} onSave={saveProfile} />
            </div>
            {current !== undefined && <div className="border-t border-line pt-4"><DefaultModel profile={current} /></div>}
          </Section>
          <Preferences settings={settings} />
          <PromptsTransfer settings={settings} onSave={(change) => persist(change, w)} onImported={() => setPromptsImported((n) => n + 1)} />
          <PresetsEditor key={`presets:${promptsImported}`} settings={settings} onSave={(change) => persist(change, w)} />
          <ActionsEditor key={`actions:${promptsImported}`} settings={settings} onSave={(change) => persist(change, w)} />
          <VoiceSection settings={settings} profile={active} onSave={(change) => persist(change, w)} />
          <ToolsSection />
          <McpServersSection />
          <Section id="appearance" title={w.t('options.section.appearance')}>
            <Field label={w.t('theme.label')} hint={w.t('options.themeHint')}>
              {(control) => <ThemeSelect settings={settings} id={control.id} />}
            </Field>
            <Field label={w.t('language.label')} hint={w.t('options.languageHint')}>
              {(control) => <LanguageSelect settings={settings} id={control.id} />}
            </Field>
          </Section>
          <SyncSection />
          <Section id="data" title={w.t('options.section.data')} intro={w.t('options.data.intro')}>
            <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm">
              <li>{w.t('options.data.conversations')}</li>
              <li>{w.t('options.data.keys')}</li>
              <li>{w.t('options.data.origin')}</li>
            </ul>
          </Section>
          <About />
        </div>
      </main>
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => { if (!open) setDeleting(undefined); }}
        title={w.t('options.gateways.deleteTitle', { name: deleting?.name ?? '' })}
        description={w.t('options.gateways.deleteText')}
        confirm={w.t('options.gateways.delete')}
        danger
        onConfirm={() => { if (deleting !== undefined) void remove(deleting.id); }}
      />
    </div>
  );
}

import { BookMarked, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { EmptyState } from '@/components/ui/EmptyState';
import { Field } from '@/components/ui/Field';
import { Input, Textarea } from '@/components/ui/Input';
import { cx } from '@/components/ui/cx';
import { Section } from './Section';
import { newId } from '@/lib/conversations/ids';
import type { PRESET_CHECKS} from '@/lib/settings/schema';
import { PresetSchema, type Preset, type Settings } from '@/lib/settings/schema';
import { useWords } from '@/components/i18n/words';

interface PresetsEditorProps {
  settings: Settings;
  /** Saves a change to the settings as stored when it is written. */
  onSave(change: (settings: Settings) => Settings): Promise<string | undefined>;
}

type CheckCode = (typeof PRESET_CHECKS)[keyof typeof PRESET_CHECKS];

/** A number field's text: a number in range, '' for "the model's default", else undefined (refused). */
function parseNumber(text: string, check: (n: number) => boolean): number | undefined | null {
  if (text.trim() === '') return null;
  const n = Number(text);
  return Number.isFinite(n) && check(n) ? n : undefined;
}

interface Draft {
  preset: Preset;
  temperature: string;
  maxTokens: string;
}

const draftOf = (preset: Preset): Draft => ({ preset, temperature: preset.temperature === undefined ? '' : String(preset.temperature), maxTokens: preset.maxTokens === undefined ? '' : String(preset.maxTokens) });

/** The preset a draft makes, or why it cannot be saved. */
function checked(draft: Draft): { preset?: Preset; name?: CheckCode; temperature?: boolean; maxTokens?: boolean } {
  const temperature = parseNumber(draft.temperature, (n) => n >= 0 && n <= 2);
  const maxTokens = parseNumber(draft.maxTokens, (n) => Number.isInteger(n) && n > 0);
  const { temperature: _t, maxTokens: _m, ...rest } = draft.preset;
  const candidate = { ...rest, ...(temperature === null || temperature === undefined ? {} : { temperature }), ...(maxTokens === null || maxTokens === undefined ? {} : { maxTokens }) };
  const parsed = PresetSchema.safeParse(candidate);
  const name = parsed.success ? undefined : (parsed.error.issues.find((i) => i.path[0] === 'name')?.message as CheckCode | undefined);
  const bad = { temperature: temperature === undefined, maxTokens: maxTokens === undefined };
  return parsed.success && !bad.temperature && !bad.maxTokens ? { preset: parsed.data } : { ...(name === undefined ? {} : { name }), ...bad };
}

function PresetFields({ draft, index, onChange, onRemove }: { draft: Draft; index: number; onChange(draft: Draft): void; onRemove(): void }) {
  const w = useWords();
  const problems = checked(draft);
  const { preset } = draft;
  return (
    <fieldset className="preset flex min-w-0 flex-1 flex-col gap-4" aria-label={w.t('presets.preset', { n: index + 1 })}>
      <legend className="sr-only">{preset.name.trim() === '' ? w.t('presets.preset', { n: index + 1 }) : preset.name}</legend>
      <Field label={w.t('presets.name')} error={problems.name === undefined ? undefined : w.t(`presets.check.${problems.name}`)}>
        {(control) => <Input {...control} value={preset.name} onChange={(e) => onChange({ ...draft, preset: { ...preset, name: e.target.value } })} />}
      </Field>
      <Field label={w.t('presets.systemPrompt')} hint={w.t('presets.systemPromptHint')}>
        {(control) => <Textarea {...control} rows={5} value={preset.systemPrompt} onChange={(e) => onChange({ ...draft, preset: { ...preset, systemPrompt: e.target.value } })} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={w.t('options.chat.temperature')} hint={w.t('options.chat.temperatureHint')} error={problems.temperature === true ? w.t('presets.check.temperature') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" value={draft.temperature} placeholder={w.t('options.chat.modelDefault')} onChange={(e) => onChange({ ...draft, temperature: e.target.value })} />}
        </Field>
        <Field label={w.t('options.chat.maxTokens')} hint={w.t('options.chat.maxTokensHint')} error={problems.maxTokens === true ? w.t('presets.check.maxTokens') : undefined}>
          {(control) => <Input {...control} inputMode="numeric" value={draft.maxTokens} placeholder={w.t('options.chat.modelDefault')} onChange={(e) => onChange({ ...draft, maxTokens: e.target.value })} />}
        </Field>
      </div>
      <Field label={w.t('presets.model')} hint={w.t('presets.modelHint')}>
        {(control) => <Input {...control} value={preset.model ?? ''} placeholder={w.t('presets.modelPlaceholder')} onChange={(e) => {
          const { model: _model, ...rest } = preset;
          onChange({ ...draft, preset: e.target.value.trim() === '' ? rest : { ...rest, model: e.target.value.trim() } });
        }} />}
      </Field>
      <div><Button size="sm" variant="danger" onClick={onRemove}><Trash2 aria-hidden />{w.t('presets.remove')}</Button></div>
    </fieldset>
  );
}

/**
 * Presets: a name, a system prompt, parameters and an optional model. A new conversation can
 * start from one (it keeps them as its own settings); an action can use one.
 */
export function PresetsEditor({ settings, onSave }: PresetsEditorProps) {
  const w = useWords();
  const [drafts, setDrafts] = useState<Draft[]>(() => settings.presets.map(draftOf));
  const [selected, setSelected] = useState(0);
  const [note, setNote] = useState<{ ok: boolean; text: string } | undefined>();
  const shown = Math.min(selected, drafts.length - 1);
  const results = drafts.map(checked);
  const valid = results.every((r) => r.preset !== undefined);
  const nameOf = (d: Draft, i: number): string => (d.preset.name.trim() === '' ? w.t('presets.preset', { n: i + 1 }) : d.preset.name);

  const add = (): void => {
    setDrafts((now) => [...now, draftOf({ id: newId(), name: w.t('presets.newName'), systemPrompt: '' })]);
    setSelected(drafts.length);
  };
  const save = async (): Promise<void> => {
    const presets = results.map((r) => r.preset).filter((p): p is Preset => p !== undefined);
    if (presets.length !== drafts.length) return;
    // Actions that used a preset removed here no longer name it.
    const ids = new Set(presets.map((p) => p.id));
    const failure = await onSave((now) => ({
      ...now,
      presets,
      actions: now.actions.map((a) => (a.presetId !== undefined && !ids.has(a.presetId) ? { ...a, presetId: undefined } : a)),
    }));
    setNote(failure === undefined ? { ok: true, text: w.t('presets.saved') } : { ok: false, text: failure });
  };

  return (
    <Section id="presets" title={w.t('options.section.presets')} intro={w.t('presets.intro')}>
      {drafts.length === 0
        ? <EmptyState icon={<BookMarked aria-hidden />} title={w.t('presets.empty')}><p>{w.t('presets.emptyText')}</p></EmptyState>
        : (
          <div className="flex flex-col gap-4 md:flex-row">
            <ol aria-label={w.t('presets.list')} className="flex w-full shrink-0 flex-col gap-1 md:w-60">
              {drafts.map((d, i) => (
                <li key={d.preset.id} className={cx('rounded-md border', i === shown ? 'border-accent bg-accent-soft' : 'border-line')}>
                  <button type="button" aria-current={i === shown ? 'true' : undefined} onClick={() => setSelected(i)} className="w-full cursor-pointer truncate rounded-sm px-2.5 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-ring">
                    {nameOf(d, i)}
                    {d.preset.model !== undefined && <span className="ml-1.5 text-2xs text-muted">{d.preset.model}</span>}
                    {results[i]?.preset === undefined && <Badge tone="danger" className="ml-1.5">{w.t('actionsEditor.fix')}</Badge>}
                  </button>
                </li>
              ))}
            </ol>
            {drafts[shown] !== undefined && (
              <PresetFields key={drafts[shown].preset.id} draft={drafts[shown]} index={shown} onChange={(d) => setDrafts((now) => now.map((x, j) => (j === shown ? d : x)))} onRemove={() => setDrafts((now) => now.filter((_, j) => j !== shown))} />
            )}
          </div>
        )}
      <div className="flex flex-wrap items-center gap-3 border-t border-line pt-4">
        <Button size="sm" onClick={add}><Plus aria-hidden />{w.t('presets.add')}</Button>
        <Button variant="primary" disabled={!valid} onClick={() => void save()}>{w.t('presets.save')}</Button>
        {note !== undefined && (note.ok ? <p role="status" className="text-sm text-success">{note.text}</p> : <Callout role="alert" tone="danger">{note.text}</Callout>)}
      </div>
    </Section>
  );
}

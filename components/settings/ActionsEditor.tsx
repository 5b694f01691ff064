import { ArrowDown, ArrowUp, Plus, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { IconButton } from '@/components/ui/IconButton';
import { Input, Textarea } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { Switch } from '@/components/ui/Switch';
import { cx } from '@/components/ui/cx';
import { Section } from './Section';
import { ActionSchema, actionWords, defaultActions, type Action } from '@/lib/actions/schema';
import { newId } from '@/lib/conversations/ids';
import type { Settings } from '@/lib/settings/schema';
import { useWords } from '@/components/i18n/words';

interface ActionsEditorProps {
  settings: Settings;
  /** Saves a change to the settings as stored when it is written (not to a copy read earlier). */
  onSave(change: (settings: Settings) => Settings): Promise<string | undefined>;
}

/** The editor panel for one action. */
function ActionFields({ action, index, presets, onChange, onRemove }: {
  action: Action;
  index: number;
  presets: Settings['presets'];
  onChange(action: Action): void;
  onRemove(): void;
}) {
  const w = useWords();
  const problem = ActionSchema.safeParse(action);
  // A shipped action shows its words in the current language; editing them makes them the user's.
  const own = actionWords(action, w);
  const edit = (field: 'name' | 'template', value: string): void => onChange({ ...action, ...own, [field]: value, preset: undefined });
  const issue = problem.success ? undefined : problem.error.issues[0]?.message;
  return (
    <fieldset className="action flex min-w-0 flex-1 flex-col gap-4" aria-label={w.t('actionsEditor.action', { n: index + 1 })}>
      <legend className="sr-only">{own.name.trim() === '' ? w.t('actionsEditor.action', { n: index + 1 }) : own.name}</legend>
      <Field label={w.t('actionsEditor.enabled')} inline>
        {(control) => <Switch {...control} checked={action.enabled} onCheckedChange={(enabled) => onChange({ ...action, enabled })} />}
      </Field>
      <Field label={w.t('actionsEditor.name')}>
        {(control) => <Input {...control} value={own.name} onChange={(e) => edit('name', e.target.value)} />}
      </Field>
      <Field label={w.t('actionsEditor.template')} hint={w.t('actionsEditor.templateHint')} error={issue === undefined ? undefined : w.t(`actionsEditor.check.${issue as 'name_empty' | 'name_long' | 'template_no_selection'}`)}>
        {(control) => <Textarea {...control} rows={5} className="font-mono text-xs" value={own.template} onChange={(e) => edit('template', e.target.value)} />}
      </Field>
      <Field label={w.t('actionsEditor.model')}>
        {(control) => <Input {...control} value={action.model ?? ''} placeholder={w.t('actionsEditor.modelPlaceholder')} onChange={(e) => onChange({ ...action, model: e.target.value.trim() === '' ? undefined : e.target.value.trim() })} />}
      </Field>
      <Field label={w.t('actionsEditor.preset')} hint={w.t('actionsEditor.presetHint')}>
        {(control) => (
          <NativeSelect {...control} value={action.presetId ?? ''} onChange={(e) => onChange({ ...action, presetId: e.target.value === '' ? undefined : e.target.value })}>
            <option value="">{w.t('actionsEditor.noPreset')}</option>
            {presets.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
          </NativeSelect>
        )}
      </Field>
      <div><Button size="sm" variant="danger" onClick={onRemove}><Trash2 aria-hidden />{w.t('actionsEditor.remove')}</Button></div>
    </fieldset>
  );
}

/**
 * The right-click actions: name, prompt template ({{selection}}, {{title}}, {{url}},
 * {{language}}), optional model, on or off, order. The first enabled one is the menu's top entry
 * and the shortcut's action.
 */
export function ActionsEditor({ settings, onSave }: ActionsEditorProps) {
  const w = useWords();
  const [actions, setActions] = useState<Action[]>(settings.actions);
  const [language, setLanguage] = useState(settings.language ?? '');
  const [limit, setLimit] = useState(String(settings.largeSelection.maxTokens));
  const [note, setNote] = useState<{ ok: boolean; text: string } | undefined>();
  const [selected, setSelected] = useState(0);
  const shown = Math.min(selected, actions.length - 1);
  const valid = actions.every((a) => ActionSchema.safeParse(a).success);
  const limitNumber = Number(limit);
  const limitOk = Number.isInteger(limitNumber) && limitNumber >= 500 && limitNumber <= 1_000_000;

  const change = (i: number, action: Action): void => setActions((now) => now.map((a, j) => (j === i ? action : a)));
  const move = (i: number, by: -1 | 1): void => {
    setActions((now) => {
      const next = [...now];
      const [moved] = next.splice(i, 1);
      next.splice(i + by, 0, moved!);
      return next;
    });
    if (shown === i) setSelected(i + by);
  };
  const add = (): void => {
    setActions((now) => [...now, { id: newId(), name: w.t('actionsEditor.newName'), template: w.t('actionsEditor.newTemplate'), enabled: true }]);
    setSelected(actions.length);
  };

  const nameOf = (action: Action, i: number): string => {
    const name = actionWords(action, w).name.trim();
    return name === '' ? w.t('actionsEditor.action', { n: i + 1 }) : name;
  };

  const save = async (): Promise<void> => {
    if (!valid || !limitOk) return;
    const failure = await onSave((now) => ({
      ...now,
      actions,
      ...(language.trim() === '' ? { language: undefined } : { language: language.trim() }),
      largeSelection: { maxTokens: limitNumber },
    }));
    setNote(failure === undefined ? { ok: true, text: w.t('actionsEditor.saved') } : { ok: false, text: failure });
  };

  return (
    <Section id="actions" title={w.t('options.section.actions')} intro={w.t('actionsEditor.intro')}>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={w.t('actionsEditor.language')}>
            {(control) => <Input {...control} value={language} placeholder={w.t('actionsEditor.languagePlaceholder')} onChange={(e) => setLanguage(e.target.value)} />}
          </Field>
          <Field label={w.t('actionsEditor.limit')} error={limitOk ? undefined : w.t('actionsEditor.limitError', { min: 500, max: 1_000_000 })}>
            {(control) => <Input {...control} type="number" min={500} max={1_000_000} value={limit} onChange={(e) => setLimit(e.target.value)} />}
          </Field>
        </div>
        <div className="flex flex-col gap-4 border-t border-line pt-4 md:flex-row">
          <div className="flex w-full shrink-0 flex-col gap-2 md:w-60">
            <ol aria-label={w.t('actionsEditor.list')} className="flex flex-col gap-1">
              {actions.map((action, i) => (
                <li key={action.id} className={cx('flex items-center gap-1 rounded-md border pl-1', i === shown ? 'border-accent bg-accent-soft' : 'border-line')}>
                  <button type="button" aria-current={i === shown ? 'true' : undefined} onClick={() => setSelected(i)} className="min-w-0 flex-1 cursor-pointer truncate rounded-sm px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-ring">
                    <span className="mr-1.5 text-muted">{i + 1}.</span>{nameOf(action, i)}
                    {!action.enabled && <Badge tone="muted" className="ml-1.5">{w.t('actionsEditor.off')}</Badge>}
                    {!ActionSchema.safeParse(action).success && <Badge tone="danger" className="ml-1.5">{w.t('actionsEditor.fix')}</Badge>}
                  </button>
                  <IconButton size="sm" label={w.t('actionsEditor.moveUp', { name: nameOf(action, i) })} icon={<ArrowUp aria-hidden />} disabled={i === 0} onClick={() => move(i, -1)} />
                  <IconButton size="sm" label={w.t('actionsEditor.moveDown', { name: nameOf(action, i) })} icon={<ArrowDown aria-hidden />} disabled={i === actions.length - 1} onClick={() => move(i, 1)} />
                </li>
              ))}
            </ol>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={add}><Plus aria-hidden />{w.t('actionsEditor.add')}</Button>
              <Button size="sm" variant="ghost" onClick={() => { setActions(defaultActions()); setSelected(0); }}><RotateCcw aria-hidden />{w.t('actionsEditor.restore')}</Button>
            </div>
          </div>
          {actions[shown] !== undefined && (
            <ActionFields key={actions[shown].id} action={actions[shown]} index={shown} presets={settings.presets} onChange={(a) => change(shown, a)} onRemove={() => setActions((now) => now.filter((_, j) => j !== shown))} />
          )}
        </div>
        <div className="flex items-center gap-3 border-t border-line pt-4">
          <Button variant="primary" disabled={!valid || !limitOk} onClick={() => void save()}>{w.t('actionsEditor.save')}</Button>
          {note !== undefined && (note.ok ? <p role="status" className="text-sm text-success">{note.text}</p> : <Callout role="alert" tone="danger">{note.text}</Callout>)}
        </div>
    </Section>
  );
}

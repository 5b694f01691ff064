import { ArrowDown, ArrowUp, Plus, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { IconButton } from '@/components/ui/IconButton';
import { Input, Textarea } from '@/components/ui/Input';
import { Switch } from '@/components/ui/Switch';
import { cx } from '@/components/ui/cx';
import { Section } from './Section';
import { ActionSchema, DEFAULT_ACTIONS, type Action } from '@/lib/actions/schema';
import { newId } from '@/lib/conversations/store';
import type { Settings } from '@/lib/settings/schema';

interface ActionsEditorProps {
  settings: Settings;
  onSave(settings: Settings): Promise<string | undefined>;
}

/** The editor panel for one action. */
function ActionFields({ action, index, onChange, onRemove }: {
  action: Action;
  index: number;
  onChange(action: Action): void;
  onRemove(): void;
}) {
  const problem = ActionSchema.safeParse(action);
  return (
    <fieldset className="action flex min-w-0 flex-1 flex-col gap-4" aria-label={`Action ${index + 1}`}>
      <legend className="sr-only">{action.name.trim() === '' ? `Action ${index + 1}` : action.name}</legend>
      <Field label="Enabled" inline>
        {(control) => <Switch {...control} checked={action.enabled} onCheckedChange={(enabled) => onChange({ ...action, enabled })} />}
      </Field>
      <Field label="Action name">
        {(control) => <Input {...control} value={action.name} onChange={(e) => onChange({ ...action, name: e.target.value })} />}
      </Field>
      <Field label="Prompt template" hint="{{selection}} is required; {{title}}, {{url}} and {{language}} are filled in too." error={problem.success ? undefined : problem.error.issues[0]?.message}>
        {(control) => <Textarea {...control} rows={5} className="font-mono text-xs" value={action.template} onChange={(e) => onChange({ ...action, template: e.target.value })} />}
      </Field>
      <Field label="Model for this action (empty: the right-click model)">
        {(control) => <Input {...control} value={action.model ?? ''} placeholder="The right-click model" onChange={(e) => onChange({ ...action, model: e.target.value.trim() === '' ? undefined : e.target.value.trim() })} />}
      </Field>
      <div><Button size="sm" variant="danger" onClick={onRemove}><Trash2 aria-hidden />Remove action</Button></div>
    </fieldset>
  );
}

/**
 * The right-click actions: name, prompt template ({{selection}}, {{title}}, {{url}},
 * {{language}}), optional model, on or off, order. The first enabled one is the menu's top entry
 * and the shortcut's action.
 */
export function ActionsEditor({ settings, onSave }: ActionsEditorProps) {
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
    setActions((now) => [...now, { id: newId(), name: 'New action', template: 'Do this with the text below.\n\n{{selection}}', enabled: true }]);
    setSelected(actions.length);
  };

  const save = async (): Promise<void> => {
    if (!valid || !limitOk) return;
    const failure = await onSave({
      ...settings,
      actions,
      ...(language.trim() === '' ? { language: undefined } : { language: language.trim() }),
      largeSelection: { maxTokens: limitNumber },
    });
    setNote(failure === undefined ? { ok: true, text: 'Actions saved; the right-click menu is updated.' } : { ok: false, text: failure });
  };

  return (
    <Section id="actions" title="Right-click actions" intro="The selected text is sent as quoted material in your message, never as instructions. The first enabled action is the menu's top entry and runs with Alt+Shift+S.">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Answer language (empty: the browser's)">
            {(control) => <Input {...control} value={language} placeholder="e.g. English, Français, 中文" onChange={(e) => setLanguage(e.target.value)} />}
          </Field>
          <Field label="Selection limit (tokens)" error={limitOk ? undefined : 'The limit must be a whole number from 500 to 1,000,000 tokens.'}>
            {(control) => <Input {...control} type="number" min={500} max={1_000_000} value={limit} onChange={(e) => setLimit(e.target.value)} />}
          </Field>
        </div>
        <div className="flex flex-col gap-4 border-t border-line pt-4 md:flex-row">
          <div className="flex w-full shrink-0 flex-col gap-2 md:w-60">
            <ol aria-label="Actions" className="flex flex-col gap-1">
              {actions.map((action, i) => (
                <li key={action.id} className={cx('flex items-center gap-1 rounded-md border pl-1', i === shown ? 'border-accent bg-accent-soft' : 'border-line')}>
                  <button type="button" aria-current={i === shown ? 'true' : undefined} onClick={() => setSelected(i)} className="min-w-0 flex-1 cursor-pointer truncate rounded-sm px-2 py-1.5 text-left text-sm focus-visible:outline-2 focus-visible:outline-ring">
                    <span className="mr-1.5 text-muted">{i + 1}.</span>{action.name.trim() === '' ? `Action ${i + 1}` : action.name}
                    {!action.enabled && <Badge tone="muted" className="ml-1.5">off</Badge>}
                    {!ActionSchema.safeParse(action).success && <Badge tone="danger" className="ml-1.5">fix</Badge>}
                  </button>
                  <IconButton size="sm" label={`Move ${action.name || `action ${i + 1}`} up`} icon={<ArrowUp aria-hidden />} disabled={i === 0} onClick={() => move(i, -1)} />
                  <IconButton size="sm" label={`Move ${action.name || `action ${i + 1}`} down`} icon={<ArrowDown aria-hidden />} disabled={i === actions.length - 1} onClick={() => move(i, 1)} />
                </li>
              ))}
            </ol>
            <div className="flex flex-wrap gap-2">
              <Button size="sm" onClick={add}><Plus aria-hidden />Add action</Button>
              <Button size="sm" variant="ghost" onClick={() => { setActions(DEFAULT_ACTIONS.map((a) => ({ ...a }))); setSelected(0); }}><RotateCcw aria-hidden />Restore the default actions</Button>
            </div>
          </div>
          {actions[shown] !== undefined && (
            <ActionFields key={actions[shown].id} action={actions[shown]} index={shown} onChange={(a) => change(shown, a)} onRemove={() => setActions((now) => now.filter((_, j) => j !== shown))} />
          )}
        </div>
        <div className="flex items-center gap-3 border-t border-line pt-4">
          <Button variant="primary" disabled={!valid || !limitOk} onClick={() => void save()}>Save actions</Button>
          {note !== undefined && (note.ok ? <p role="status" className="text-sm text-success">{note.text}</p> : <Callout role="alert" tone="danger">{note.text}</Callout>)}
        </div>
    </Section>
  );
}

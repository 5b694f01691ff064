import { useId, useState } from 'react';
import { ActionSchema, DEFAULT_ACTIONS, type Action } from '@/lib/actions/schema';
import { newId } from '@/lib/conversations/store';
import type { Settings } from '@/lib/settings/schema';

interface ActionsEditorProps {
  settings: Settings;
  onSave(settings: Settings): Promise<string | undefined>;
}

function ActionFields({ action, index, count, onChange, onMove, onRemove }: {
  action: Action;
  index: number;
  count: number;
  onChange(action: Action): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  const ids = { name: useId(), template: useId(), model: useId() };
  const problem = ActionSchema.safeParse(action);
  return (
    <fieldset className="action" aria-label={`Action ${index + 1}`}>
      <legend>{action.name.trim() === '' ? `Action ${index + 1}` : action.name}</legend>
      <label><input type="checkbox" checked={action.enabled} onChange={(e) => onChange({ ...action, enabled: e.target.checked })} /> Enabled</label>
      <label htmlFor={ids.name}>Action name</label>
      <input id={ids.name} value={action.name} onChange={(e) => onChange({ ...action, name: e.target.value })} />
      <label htmlFor={ids.template}>Prompt template</label>
      <textarea id={ids.template} rows={4} value={action.template} onChange={(e) => onChange({ ...action, template: e.target.value })} />
      <label htmlFor={ids.model}>Model for this action (empty: the right-click model)</label>
      <input id={ids.model} value={action.model ?? ''} onChange={(e) => onChange({ ...action, model: e.target.value.trim() === '' ? undefined : e.target.value.trim() })} />
      {!problem.success && <p role="alert" className="problem">{problem.error.issues[0]?.message}</p>}
      <div className="buttons">
        <button type="button" disabled={index === 0} onClick={() => onMove(-1)}>Move up</button>
        <button type="button" disabled={index === count - 1} onClick={() => onMove(1)}>Move down</button>
        <button type="button" onClick={onRemove}>Remove action</button>
      </div>
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
  const ids = { language: useId(), limit: useId() };
  const valid = actions.every((a) => ActionSchema.safeParse(a).success);
  const limitNumber = Number(limit);
  const limitOk = Number.isInteger(limitNumber) && limitNumber >= 500 && limitNumber <= 1_000_000;

  const change = (i: number, action: Action): void => setActions((now) => now.map((a, j) => (j === i ? action : a)));
  const move = (i: number, by: -1 | 1): void => setActions((now) => {
    const next = [...now];
    const [moved] = next.splice(i, 1);
    next.splice(i + by, 0, moved!);
    return next;
  });

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
    <section aria-label="Right-click actions">
      <h2>Right-click actions</h2>
      <p className="hint">The selected text is sent as quoted material in your message, never as instructions. The first enabled action is the menu's top entry and runs with Alt+Shift+S.</p>
      <label htmlFor={ids.language}>Answer language (empty: the browser's)</label>
      <input id={ids.language} value={language} placeholder="e.g. English, Français, 中文" onChange={(e) => setLanguage(e.target.value)} />
      <label htmlFor={ids.limit}>Selection limit (tokens)</label>
      <input id={ids.limit} type="number" min={500} max={1_000_000} value={limit} onChange={(e) => setLimit(e.target.value)} />
      {!limitOk && <p role="alert" className="problem">The limit must be a whole number from 500 to 1,000,000 tokens.</p>}
      {actions.map((action, i) => (
        <ActionFields key={action.id} action={action} index={i} count={actions.length} onChange={(a) => change(i, a)} onMove={(by) => move(i, by)} onRemove={() => setActions((now) => now.filter((_, j) => j !== i))} />
      ))}
      <div className="buttons">
        <button type="button" onClick={() => setActions((now) => [...now, { id: newId(), name: 'New action', template: 'Do this with the text below.\n\n{{selection}}', enabled: true }])}>Add action</button>
        <button type="button" onClick={() => setActions(DEFAULT_ACTIONS.map((a) => ({ ...a })))}>Restore the default actions</button>
        <button type="button" disabled={!valid || !limitOk} onClick={() => void save()}>Save actions</button>
      </div>
      {note !== undefined && <p role={note.ok ? 'status' : 'alert'}>{note.text}</p>}
    </section>
  );
}

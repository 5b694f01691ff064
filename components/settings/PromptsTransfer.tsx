import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { useWords } from '@/components/i18n/words';
import { download } from '@/components/workspace/transfer-client';
import { ConfirmDialog } from '@/components/ui/Dialog';
import { exportPrompts, mergePrompts, parsePromptFile, replacedByImport, type PromptFileProblem } from '@/lib/actions/prompt-file';
import { actionWords, type Action } from '@/lib/actions/schema';
import type { Preset, Settings } from '@/lib/settings/schema';
import type { Words } from '@/lib/i18n/messages';
import { ownValue } from '@/lib/shared/own-keys';
import { Section } from './Section';

type ImportedPrompts = { actions: Action[]; presets: Preset[] };

/** A file's problem in words: which entry, and what is wrong with it, as the editors say it. */
function problemText(w: Words, problem: PromptFileProblem): string {
  if (problem.problem === 'duplicate_ids') return w.plural(problem.list === 'actions' ? 'promptsFile.duplicate_actions' : 'promptsFile.duplicate_presets', problem.ids.length, { ids: listOf(w, problem.ids.map((id) => w.t('promptsFile.quotedId', { id }))) });
  if (problem.problem !== 'invalid_entry') return w.t(`promptsFile.${problem.problem}`);
  const known: Record<string, string> = {
    name_empty: w.t('actionsEditor.check.name_empty'),
    name_long: w.t('actionsEditor.check.name_long'),
    template_no_selection: w.t('actionsEditor.check.template_no_selection'),
    preset_name_empty: w.t('presets.check.preset_name_empty'),
    preset_name_long: w.t('presets.check.preset_name_long'),
  };
  return w.t('promptsFile.invalid_entry', {
    what: w.t(problem.list === 'actions' ? 'promptsFile.action' : 'promptsFile.preset', { n: problem.index }),
    why: ownValue(known, problem.check) ?? w.t('promptsFile.badField', { field: problem.field || '-' }),
  });
}

/** "a, b and c" in the interface's language. */
function listOf(w: Words, items: readonly string[]): string {
  return new Intl.ListFormat(w.locale, { type: 'conjunction' }).format(items);
}

/**
 * The prompts (actions and presets) in one place: what they are for, and their export and import
 * as JSON. An import that would replace prompts here (the shipped actions too) names them and
 * waits for the user's yes. The editors below it are given afresh after an import (`onImported`).
 */
export function PromptsTransfer({ settings, onSave, onImported }: {
  settings: Settings;
  onSave(change: (settings: Settings) => Settings): Promise<string | undefined>;
  onImported(): void;
}) {
  const w = useWords();
  const file = useRef<HTMLInputElement>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string }>();
  // A file that replaces prompts here, waiting for the user's yes, with the names of those it replaces.
  const [replacing, setReplacing] = useState<{ file: ImportedPrompts; names: string[] }>();

  const importFile = async (chosen: File): Promise<void> => {
    setNote(undefined);
    const parsed = parsePromptFile(await chosen.text());
    if (!parsed.ok) {
      setNote({ ok: false, text: problemText(w, parsed) });
      return;
    }
    const replaced = replacedByImport(settings, parsed);
    const names = [...replaced.actions.map((a) => actionWords(a, w).name), ...replaced.presets.map((p) => p.name)];
    if (names.length > 0) setReplacing({ file: parsed, names });
    else await save(parsed);
  };

  const save = async (parsed: ImportedPrompts): Promise<void> => {
    const failure = await onSave((now) => mergePrompts(now, parsed));
    if (failure !== undefined) {
      setNote({ ok: false, text: failure });
      return;
    }
    setNote({ ok: true, text: w.t('promptsFile.imported', { actions: parsed.actions.length, presets: parsed.presets.length }) });
    onImported();
  };

  return (
    <Section id="prompts" title={w.t('options.section.prompts')} intro={w.t('promptsFile.intro')}>
      <p className="flex flex-wrap gap-2">
        <Button size="sm" onClick={() => download(exportPrompts(settings), 'gateway-chat-prompts.json', 'application/json')}><Download aria-hidden />{w.t('promptsFile.export')}</Button>
        <Button size="sm" onClick={() => file.current?.click()}><Upload aria-hidden />{w.t('promptsFile.import')}</Button>
        <input ref={file} type="file" accept="application/json,.json" className="sr-only" tabIndex={-1} aria-label={w.t('promptsFile.file')} onChange={(e) => {
          const chosen = e.target.files?.[0];
          e.target.value = '';
          if (chosen !== undefined) void importFile(chosen);
        }} />
      </p>
      {note !== undefined && <Callout role={note.ok ? 'status' : 'alert'} tone={note.ok ? 'success' : 'danger'}>{note.text}</Callout>}
      <ConfirmDialog
        open={replacing !== undefined}
        onOpenChange={(open) => { if (!open) setReplacing(undefined); }}
        title={w.plural('promptsFile.replaceTitle', replacing?.names.length ?? 0)}
        description={w.t('promptsFile.replaceText', { names: listOf(w, (replacing?.names ?? []).map((name) => w.t('promptsFile.quoted', { name }))) })}
        confirm={w.t('promptsFile.replaceConfirm')}
        danger
        onConfirm={() => {
          if (replacing === undefined) return;
          setReplacing(undefined);
          void save(replacing.file);
        }}
      />
    </Section>
  );
}

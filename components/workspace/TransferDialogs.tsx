import { Download, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Dialog } from '@/components/ui/Dialog';
import { IconButton } from '@/components/ui/IconButton';
import { conversationStore } from '@/components/data';
import { useWords } from '@/components/i18n/words';
import type { Words } from '@/lib/i18n/messages';
import type { Profile } from '@/lib/settings/schema';
import { conversationMarkdown } from '@/lib/transfer/history-file';
import type { ImportProgress, ImportResult } from '@/lib/transfer/run-import';
import { download, exportConversations, importFile } from './transfer-client';

const stamp = (): string => new Date().toISOString().slice(0, 10);

/** Export: every conversation or the open one, as our JSON or (one) as Markdown. */
export function ExportButton({ profiles, openConversationId }: { profiles: readonly Profile[]; openConversationId: string | undefined }) {
  const w = useWords();
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<'all' | 'open'>('all');
  const [includeProfiles, setIncludeProfiles] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const run = async (format: 'json' | 'markdown'): Promise<void> => {
    setBusy(true);
    setProblem(undefined);
    try {
      if (format === 'markdown' && openConversationId !== undefined) {
        const store = conversationStore();
        const [conversation, messages] = await Promise.all([store.getConversation(openConversationId), store.messages(openConversationId)]);
        if (conversation !== undefined) download(conversationMarkdown(conversation, messages, { user: w.t('message.user'), assistant: w.t('message.assistant') }), `${conversation.title.replace(/[\\/:*?"<>|]/g, '_').slice(0, 60) || 'conversation'}.md`, 'text/markdown');
      } else {
        const result = await exportConversations(scope === 'open' && openConversationId !== undefined ? [openConversationId] : undefined, includeProfiles, profiles);
        if (!result.ok) {
          setProblem(result.params.detail === undefined ? result.problem : String(result.params.detail));
          return;
        }
        download(result.text, `gateway-chat-history-${stamp()}.json`, 'application/json');
      }
      setOpen(false);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <IconButton size="sm" data-command="export" label={w.t('transfer.export')} icon={<Download aria-hidden />} onClick={() => setOpen(true)} />
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={w.t('transfer.exportTitle')}
        description={w.t('transfer.exportIntro')}
        footer={(
          <>
            {scope === 'open' && openConversationId !== undefined && <Button disabled={busy} onClick={() => void run('markdown')}>{w.t('transfer.asMarkdown')}</Button>}
            <Button variant="primary" disabled={busy} aria-busy={busy} onClick={() => void run('json')}>{w.t('transfer.asJson')}</Button>
          </>
        )}
      >
        <fieldset className="flex flex-col gap-1.5 text-sm">
          <legend className="sr-only">{w.t('transfer.scope')}</legend>
          <label className="flex items-center gap-2"><input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} />{w.t('transfer.scopeAll')}</label>
          <label className="flex items-center gap-2"><input type="radio" name="scope" disabled={openConversationId === undefined} checked={scope === 'open'} onChange={() => setScope('open')} />{w.t('transfer.scopeOpen')}</label>
        </fieldset>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" className="mt-1" checked={includeProfiles} onChange={(e) => setIncludeProfiles(e.target.checked)} />
          <span>{w.t('transfer.includeProfiles')}<span className="block text-xs text-muted">{w.t('transfer.includeProfilesHint')}</span></span>
        </label>
        {problem !== undefined && <Callout role="alert" tone="danger">{w.t('transfer.exportFailed', { detail: problem })}</Callout>}
      </Dialog>
    </>
  );
}

function importResultText(w: Words, result: ImportResult): string {
  if (result.ok) return w.t('transfer.imported', { written: result.written, older: result.olderSkipped, skipped: result.skipped.length });
  switch (result.problem) {
    case 'not_json': return w.t('transfer.problem.not_json', { detail: String(result.params.detail ?? '') });
    case 'unknown_format': return w.t('transfer.problem.unknown_format');
    case 'newer_version': return w.t('transfer.problem.newer_version', { version: result.params.version ?? '', supported: result.params.supported ?? '' });
    case 'damaged': return w.t('transfer.problem.damaged', { path: String(result.params.path ?? '') });
    default: return w.t('transfer.problem.write_failed', { written: result.params.written ?? 0, detail: String(result.params.detail ?? '') });
  }
}

/** Import: our JSON or ChatGPT's conversations.json, in a worker, with progress and a report. */
export function ImportButton({ profileId }: { profileId: string }) {
  const w = useWords();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<ImportProgress>();
  const [result, setResult] = useState<ImportResult>();
  const [open, setOpen] = useState(false);
  const start = async (file: File): Promise<void> => {
    setOpen(true);
    setResult(undefined);
    setProgress({ phase: 'reading' });
    try {
      setResult(await importFile(file, profileId, setProgress));
    } catch (error) {
      setResult({ ok: false, problem: 'write_failed', params: { written: 0, detail: error instanceof Error ? error.message : String(error) } });
    }
  };
  const percent = progress?.phase === 'writing' && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : undefined;
  return (
    <>
      <IconButton size="sm" data-command="import" label={w.t('transfer.import')} icon={<Upload aria-hidden />} onClick={() => input.current?.click()} />
      <input ref={input} type="file" accept=".json,application/json" aria-label={w.t('transfer.importFile')} className="sr-only" tabIndex={-1} onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file !== undefined) void start(file);
      }} />
      <Dialog open={open} onOpenChange={(o) => { if (result !== undefined || !o) setOpen(o); }} title={w.t('transfer.importTitle')} footer={<Button disabled={result === undefined} onClick={() => setOpen(false)}>{w.t('common.close')}</Button>}>
        {result === undefined && (
          <div className="flex flex-col gap-1.5">
            <progress className="import-progress h-2 w-full accent-accent" aria-label={w.t('transfer.progress')} max={100} {...(percent === undefined ? {} : { value: percent })} />
            <p className="text-xs text-muted" aria-live="polite">{progress?.phase === 'writing' ? w.t('transfer.writing', { done: progress.done, total: progress.total }) : w.t('transfer.reading')}</p>
          </div>
        )}
        {result !== undefined && <Callout role={result.ok ? 'status' : 'alert'} tone={result.ok ? 'success' : 'danger'}>{importResultText(w, result)}</Callout>}
        {result?.ok === true && result.skipped.length > 0 && (
          <details className="text-xs">
            <summary className="cursor-pointer text-muted">{w.plural('transfer.skippedList', result.skipped.length)}</summary>
            <ul className="mt-1 flex max-h-48 list-disc flex-col gap-0.5 overflow-y-auto pl-5">
              {result.skipped.slice(0, 200).map((s, i) => <li key={i}>{w.t(`transfer.skip.${s.reason}`, { conversation: s.conversation, path: s.path ?? '' })}</li>)}
            </ul>
          </details>
        )}
      </Dialog>
    </>
  );
}

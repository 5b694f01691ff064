import { toolStatusWords } from '@/components/tools/tool-words';
import { Download, Upload } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { Input } from '@/components/ui/Input';
import { VirtualList } from '@/components/VirtualList';
import { holdConversationList, useConversationList } from '@/components/stores/conversations';
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

/** Conversations to export, ticked one by one (filtered by title; thousands, drawn as they scroll into view). */
function ChooseConversations({ chosen, onChange }: { chosen: ReadonlySet<string>; onChange(next: Set<string>): void }) {
  const w = useWords();
  const conversations = useConversationList((s) => s.conversations);
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = conversations ?? [];
    return q === '' ? all : all.filter((c) => c.title.toLowerCase().includes(q));
  }, [conversations, filter]);
  const toggle = (id: string, on: boolean): void => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  return (
    <div className="choose-conversations flex flex-col gap-2 rounded-md border border-line p-2">
      <div className="flex items-center gap-2">
        <Input type="search" aria-label={w.t('transfer.filter')} placeholder={w.t('transfer.filter')} className="h-8" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <Button size="sm" variant="ghost" onClick={() => onChange(new Set([...chosen, ...shown.map((c) => c.id)]))}>{w.t('transfer.chooseAll')}</Button>
        <Button size="sm" variant="ghost" disabled={chosen.size === 0} onClick={() => onChange(new Set())}>{w.t('transfer.chooseNone')}</Button>
      </div>
      <div className="flex h-56 flex-col">
        <VirtualList
          label={w.t('transfer.chooseList')}
          items={shown}
          estimateSize={32}
          itemKey={(c) => c.id}
          renderItem={(c) => (
            <label role="listitem" className="flex h-8 cursor-pointer items-center gap-2 rounded-sm px-1.5 text-sm hover:bg-surface-2">
              <input type="checkbox" checked={chosen.has(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
              <span className="min-w-0 flex-1 truncate">{c.title === '' ? w.t('conversations.untitled') : c.title}</span>
            </label>
          )}
        />
      </div>
      <p role="status" className="text-xs text-muted">{w.plural('transfer.chosen', chosen.size)}</p>
    </div>
  );
}

/** Export: every conversation, the open one or those chosen, as our JSON or (one) as Markdown. */
export function ExportButton({ profiles, openConversationId }: { profiles: readonly Profile[]; openConversationId: string | undefined }) {
  const w = useWords();
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<'all' | 'open' | 'chosen'>('all');
  const [chosen, setChosen] = useState<Set<string>>(() => new Set());
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
        if (conversation !== undefined) download(conversationMarkdown(conversation, messages, { user: w.t('message.user'), assistant: w.t('message.assistant'), image: w.t('images.inMarkdown'), tool: w.t('tools.inMarkdown.call'), toolResult: w.t('tools.card.result'), toolStatus: toolStatusWords(w) }), `${conversation.title.replace(/[\\/:*?"<>|]/g, '_').slice(0, 60) || 'conversation'}.md`, 'text/markdown');
      } else {
        const ids = scope === 'open' && openConversationId !== undefined ? [openConversationId] : scope === 'chosen' ? [...chosen] : undefined;
        const result = await exportConversations(ids, includeProfiles, profiles);
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
            <Button variant="primary" disabled={busy || (scope === 'chosen' && chosen.size === 0)} aria-busy={busy} onClick={() => void run('json')}>{w.t('transfer.asJson')}</Button>
          </>
        )}
      >
        <fieldset className="flex flex-col gap-1.5 text-sm">
          <legend className="sr-only">{w.t('transfer.scope')}</legend>
          <label className="flex items-center gap-2"><input type="radio" name="scope" checked={scope === 'all'} onChange={() => setScope('all')} />{w.t('transfer.scopeAll')}</label>
          <label className="flex items-center gap-2"><input type="radio" name="scope" disabled={openConversationId === undefined} checked={scope === 'open'} onChange={() => setScope('open')} />{w.t('transfer.scopeOpen')}</label>
          <label className="flex items-center gap-2"><input type="radio" name="scope" checked={scope === 'chosen'} onChange={() => setScope('chosen')} />{w.t('transfer.scopeChosen')}</label>
        </fieldset>
        {scope === 'chosen' && <ChooseConversations chosen={chosen} onChange={setChosen} />}
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
export function ImportButton({ profileId, profiles }: { profileId: string; profiles: readonly Profile[] }) {
  const w = useWords();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<ImportProgress>();
  const [result, setResult] = useState<ImportResult>();
  const [open, setOpen] = useState(false);
  const start = async (file: File): Promise<void> => {
    setOpen(true);
    setResult(undefined);
    setProgress({ phase: 'reading' });
    const release = holdConversationList();
    try {
      setResult(await importFile(file, profileId, profiles, setProgress));
    } catch (error) {
      setResult({ ok: false, problem: 'write_failed', params: { written: 0, detail: error instanceof Error ? error.message : String(error) } });
    } finally {
      release();
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

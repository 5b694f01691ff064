/**
 * A reply's tool calls, each a card: the tool, where it runs, its arguments (readable JSON,
 * folded open while it waits), its state, and while it waits for the user "Allow once", "Always
 * allow this tool" and "Deny". Done, it shows the result (folded when long); failed, the reason.
 * Under the cards, the sources the tools read, as numbered citations that link to the pages.
 */
import { Ban, Check, CircleAlert, Globe, Loader2, Pause, ShieldCheck, Wrench } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { useWords } from '@/components/i18n/words';
import { Badge, type BadgeTone } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { cx } from '@/components/ui/cx';
import { pageAddress, type ToolCallRecord, type ToolCallStatus, type ToolDecision, type ToolSource } from '@/lib/tools/types';
import { decideTool, fetchedAddress } from './tool-client';
import { toolFailureText, toolName, toolServer } from './tool-words';

const TONES: Record<ToolCallStatus, BadgeTone> = { waiting: 'warning', running: 'accent', done: 'success', failed: 'danger', denied: 'neutral', stopped: 'muted' };
const ICONS: Record<ToolCallStatus, ReactNode> = {
  waiting: <Pause aria-hidden />, running: <Loader2 aria-hidden className="animate-spin motion-reduce:animate-none" />, done: <Check aria-hidden />,
  failed: <CircleAlert aria-hidden />, denied: <Ban aria-hidden />, stopped: <Ban aria-hidden />,
};
/** A result longer than this is folded (its summary says how long). */
const FOLD_CHARS = 600;
const FOLD_LINES = 8;

function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function ToolCard({ call: given, messageId, live }: { call: ToolCallRecord; messageId: string; live: boolean }) {
  const w = useWords();
  // A reply that no longer streams waits for nothing (its worker stopped, it came from a file): its unfinished calls are stopped.
  const call = !live && (given.status === 'waiting' || given.status === 'running') ? { ...given, status: 'stopped' as const } : given;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const name = toolName(w, call);
  const server = toolServer(w, call);
  const args = prettyArguments(call.arguments);
  const empty = args.trim() === '{}' || args.trim() === '';
  const answer = (decision: ToolDecision): void => {
    setBusy(true);
    setProblem(undefined);
    void decideTool(messageId, call, decision).then((result) => {
      setBusy(false);
      if (result === 'gone') setProblem(w.t('tools.card.answerFailed'));
      else if (result !== 'decided') setProblem(w.t('tools.card.accessDenied', { address: result.accessDenied }));
    });
  };
  const result = call.result ?? '';
  const long = result.length > FOLD_CHARS || result.split('\n').length > FOLD_LINES;
  return (
    <section aria-label={w.t('tools.card.label', { tool: name })} data-status={call.status} className={cx('tool-card flex flex-col gap-1.5 rounded-md border bg-surface px-2.5 py-2 text-xs', call.status === 'waiting' ? 'border-warning' : 'border-line')}>
      <header className="flex min-w-0 items-center gap-2">
        <span aria-hidden className="flex size-6 shrink-0 items-center justify-center rounded-sm bg-accent-soft text-accent-soft-fg [&_svg]:size-3.5">{call.source === 'builtin' && call.tool !== 'read_page' ? <Globe /> : <Wrench />}</span>
        <span className="flex min-w-0 flex-1 flex-col leading-tight">
          <span className="truncate font-medium text-fg">{name}</span>
          <span className="truncate text-2xs text-muted" title={call.address}>{server}</span>
        </span>
        <Badge tone={TONES[call.status]}>{ICONS[call.status]}{w.t(`tools.card.status.${call.status}`)}</Badge>
      </header>
      {call.status === 'waiting' && (
        <p className="text-fg">{call.pastCap === true ? w.t('tools.card.pastCap', { steps: call.step - 1 }) : call.source === 'builtin' ? (call.tool === 'read_page' && call.address !== undefined ? w.t('tools.card.askReadPage', { host: server }) : w.t('tools.card.askBuiltin', { tool: name })) : w.t('tools.card.ask', { tool: name, server })}</p>
      )}
      {empty ? <p className="text-2xs text-muted">{w.t('tools.card.noArguments')}</p> : (
        <details open={call.status === 'waiting'} className="tool-arguments">
          <summary className="cursor-pointer text-2xs font-medium text-muted">{w.t('tools.card.arguments')}</summary>
          <pre tabIndex={0} className="mt-1 max-h-48 overflow-auto rounded-sm border border-line bg-surface-2 p-2 font-mono text-2xs whitespace-pre-wrap text-fg [overflow-wrap:anywhere]">{args}</pre>
        </details>
      )}
      {call.status === 'waiting' && (
        <div className="flex flex-wrap gap-1.5">
          <Button size="sm" variant="primary" disabled={busy} onClick={() => answer('once')}><Check aria-hidden />{w.t('tools.card.allowOnce')}</Button>
          <Button size="sm" disabled={busy || call.pastCap === true || fetchedAddress(call) !== undefined} onClick={() => answer('always')}><ShieldCheck aria-hidden />{w.t('tools.card.alwaysAllow')}</Button>
          <Button size="sm" variant="danger" disabled={busy} onClick={() => answer('deny')}><Ban aria-hidden />{w.t('tools.card.deny')}</Button>
        </div>
      )}
      {problem !== undefined && <p role="alert" className="text-danger">{problem}</p>}
      {call.preAllowed === true && call.status !== 'waiting' && <p className="text-2xs text-muted">{w.t('tools.card.preAllowed')}</p>}
      {call.status === 'done' && (
        <details open={!long} className="tool-result">
          <summary className="cursor-pointer text-2xs font-medium text-muted">{long ? w.t('tools.card.resultLong', { count: result.length }) : w.t('tools.card.result')}</summary>
          <pre tabIndex={0} className="mt-1 max-h-64 overflow-auto rounded-sm border border-line bg-raised p-2 font-mono text-2xs whitespace-pre-wrap text-fg [overflow-wrap:anywhere]">{result}</pre>
          {call.cutFrom !== undefined && <p className="mt-1 text-2xs text-warning">{w.t('tools.card.cut', { length: result.length, total: call.cutFrom })}</p>}
        </details>
      )}
      {call.status === 'failed' && call.error !== undefined && <p role="note" className="text-danger">{toolFailureText(w, call.error)}</p>}
    </section>
  );
}

/** `sources`: pages the gateway's own search cited, after those the calls read; `live`: the reply still streams (its cards can be answered). */
export function ToolCalls({ calls, messageId, sources: cited = [], live = true }: { calls: readonly ToolCallRecord[]; messageId: string; sources?: readonly ToolSource[] | undefined; live?: boolean }) {
  const w = useWords();
  const sources = [...calls.flatMap((c) => c.sources ?? []), ...cited].filter((s, i, all) => all.findIndex((o) => o.url === s.url) === i);
  return (
    <div className="tool-calls flex flex-col gap-1.5">
      {calls.map((call) => <ToolCard key={call.id} call={call} messageId={messageId} live={live} />)}
      {sources.length > 0 && (
        <nav aria-label={w.t('tools.sources')} className="tool-sources text-2xs">
          <p className="mb-0.5 font-medium text-muted">{w.t('tools.sources')}</p>
          <ol className="flex flex-col gap-0.5">
            {sources.map((source, i) => {
              // Only pages (http and https): a source is never a script or a local file.
              const href = pageAddress(source.url);
              return (
                <li key={source.url} className="flex min-w-0 gap-1">
                  <span className="shrink-0 text-muted tabular-nums">[{i + 1}]</span>
                  {href === undefined ? <span className="truncate">{source.title}</span>
                    : <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="truncate text-accent underline underline-offset-2" title={href}>{source.title}</a>}
                </li>
              );
            })}
          </ol>
        </nav>
      )}
    </div>
  );
}

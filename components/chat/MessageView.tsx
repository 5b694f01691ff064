import { Check, ChevronLeft, ChevronRight, Copy, Pencil, RefreshCw, Route, Sparkles, Square, Trash2 } from 'lucide-react';
import { memo, Suspense, useMemo, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/Button';
import { IconButton } from '@/components/ui/IconButton';
import { Textarea } from '@/components/ui/Input';
import type { VersionInfo } from '@/lib/conversations/branches';
import { toast } from '@/components/ui/Toast';
import { lazyWithWords, useWords } from '@/components/i18n/words';
import { noticeText } from '@/components/i18n/problems';
import { splitQuotedSelections } from '@/lib/actions/template';
import type { Message } from '@/lib/conversations/records';
import type { SavedMessage } from '@/lib/render/worker/protocol';
import { ErrorCallout } from './ErrorCallout';
import type { TextGrowth } from '@/lib/render/blocks';
import { LARGE_BLOCK_CHARS, Markdown, Pieces, renderFinishedAhead, type LiveSource } from './Markdown';
import { ReadAloudButton } from './ReadAloud';
import { formatAmount } from '@/components/i18n/money';
import { useModelPrice } from '@/components/stores/pricing';
import { replyCost } from '@/lib/gateway/billing';
import { cx } from '@/components/ui/cx';
import { RetryButton } from './RetryButton';

// A reply's images and a question's image: their code arrives with the first image shown (off the popup's first chunk).
const loadGeneratedImages = () => import('@/components/images/GeneratedImages');
const GeneratedImages = lazyWithWords(() => loadGeneratedImages().then((m) => ({ default: m.GeneratedImages })));
// Fetched once the page is idle, so a conversation with images opens without waiting for it.
if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void loadGeneratedImages(), { timeout: 2_000 });
// A question's attached files: their cards' code arrives with the first one shown.
const FileCards = lazyWithWords(() => import('@/components/files/FileCards').then((m) => ({ default: m.FileCards })));
// A reply's tool calls: their cards' code arrives with the first one shown.
const ToolCalls = lazyWithWords(() => import('@/components/tools/ToolCalls').then((m) => ({ default: m.ToolCalls })));
const StoredThumbnail = lazyWithWords(() => import('@/components/images/StoredThumbnail').then((m) => ({ default: m.StoredThumbnail })));
import { withoutImageRefs } from '@/components/images/refs';
import { hasImageRefs, hearLiveText, liveTextOf, subscribeLiveText, useLiveMessage, type LiveText } from '@/components/stores/live-replies';

/** Tokens per second of the answer, once it began (from the reported count). */
export function tokensPerSecond(message: Pick<Message, 'usage' | 'timing'>): number | undefined {
  const tokens = message.usage?.completionTokens;
  const { firstTokenMs, durationMs } = message.timing ?? {};
  if (tokens === undefined || firstTokenMs === undefined || durationMs === undefined) return undefined;
  const seconds = (durationMs - firstTokenMs) / 1000;
  // A reply delivered in one go has no speed worth showing.
  return seconds >= 0.1 ? tokens / seconds : undefined;
}

function UsageLine({ usage, timing, model, images }: { usage: Message['usage']; timing: Message['timing']; model: string | undefined; images?: number }) {
  const w = useWords();
  const cost = replyCost(usage, useModelPrice(model), images);
  const parts: string[] = [];
  if (usage?.promptTokens !== undefined) parts.push(w.t('message.usage.in', { count: usage.promptTokens }));
  if (usage?.completionTokens !== undefined) parts.push(w.t('message.usage.out', { count: usage.completionTokens }));
  if (usage?.reasoningTokens !== undefined && usage.reasoningTokens > 0) parts.push(w.t('message.usage.reasoning', { count: usage.reasoningTokens }));
  if (cost !== undefined) parts.push(w.t(cost.estimated ? 'message.usage.costEstimated' : 'message.usage.cost', { cost: formatAmount(w, cost.amount, cost.currency) }));
  if (timing?.firstTokenMs !== undefined) parts.push(w.t('message.usage.firstToken', { seconds: (timing.firstTokenMs / 1000).toFixed(1) }));
  const tps = tokensPerSecond({ usage, timing });
  if (tps !== undefined) parts.push(w.t('message.usage.speed', { rate: tps.toFixed(1) }));
  if (parts.length === 0) return null;
  return <p className="usage text-2xs text-muted" aria-label={w.t('message.usage.label')}>{w.t('message.usage.line', { parts: parts.join(' · ') })}</p>;
}

const savedKeys = new WeakMap<Message, SavedMessage>();
/** A finished reply, as the rendering cache knows it (one object per record, so its blocks stay memoised). */
function savedAs(message: Message): SavedMessage {
  let saved = savedKeys.get(message);
  if (saved === undefined) {
    saved = { id: message.id, conversationId: message.conversationId, seq: message.seq };
    savedKeys.set(message, saved);
  }
  return saved;
}

/** About a screen of the chat page's replies, in characters (see `renderRepliesAhead`). */
const SCREEN_CHARS = 3_000;

/**
 * A conversation just read: its newest replies (about a screen of them, newest first) are sent to
 * the render worker before the page draws the conversation, so their renderings are on their way
 * (or read from the rendering cache) while it does. `branch` is the conversation as it will be
 * shown, oldest first. Each is asked for as its view will ask (`renderFinishedAhead`). Resolves
 * once their renderings are in the page, read from the cache or made now (undefined when there
 * are none to wait for).
 */
export function renderRepliesAhead(branch: readonly Message[]): Promise<unknown> | undefined {
  const asked: Promise<void>[] = [];
  let chars = 0;
  for (let i = branch.length - 1; i >= 0 && chars < SCREEN_CHARS; i--) {
    const message = branch[i]!;
    if (message.role !== 'assistant' || message.status === 'streaming') continue;
    const text = withoutImageRefs(message.text);
    if (text === '') continue;
    asked.push(renderFinishedAhead(text, savedAs(message)));
    chars += text.length;
  }
  return asked.length === 0 ? undefined : Promise.all(asked);
}

/** Quoted page text longer than this is folded (its first lines stay visible in the summary). */
const LONG_QUOTE = 600;

/** A selection quoted from a page: a quote block, folded when long. */
function QuotedSelection({ text, from }: { text: string; from: string | undefined }) {
  const w = useWords();
  const label = from === undefined || from === '' ? w.t('message.quotedFromPage') : w.t('message.quotedFrom', { title: from });
  const size = w.plural('message.characters', text.length);
  if (text.length <= LONG_QUOTE) {
    return (
      <blockquote className="quoted my-1 border-l-2 border-line-strong pl-2.5" aria-label={label}>
        <p className="quote-from text-2xs text-muted">{label}</p>
        <p className="user-text whitespace-pre-wrap text-muted">{text}</p>
      </blockquote>
    );
  }
  return (
    <details className="quoted my-1 border-l-2 border-line-strong pl-2.5">
      <summary className="cursor-pointer text-2xs text-muted" aria-label={`${label} (${size})`}>{label} · {size}</summary>
      <blockquote aria-label={label}><p className="user-text whitespace-pre-wrap text-muted">{text}</p></blockquote>
    </details>
  );
}

/** "‹ 2 / 3 ›": the versions of a message, switched in place. */
function VersionSwitch({ info, onVersion }: { info: VersionInfo; onVersion(id: string): void }) {
  const w = useWords();
  return (
    <span role="group" aria-label={w.t('message.versions.label')} className="version-switch inline-flex items-center text-2xs text-muted">
      <IconButton size="sm" className="!size-6" label={w.t('message.versions.previous')} icon={<ChevronLeft aria-hidden />} disabled={info.previous === undefined} onClick={() => info.previous !== undefined && onVersion(info.previous)} />
      <span className="version-count tabular-nums" aria-live="polite">{w.t('message.versions.position', { index: info.index, count: info.count })}</span>
      <IconButton size="sm" className="!size-6" label={w.t('message.versions.next')} icon={<ChevronRight aria-hidden />} disabled={info.next === undefined} onClick={() => info.next !== undefined && onVersion(info.next)} />
    </span>
  );
}

/** What a message can do in a conversation (absent where it cannot: the popup's last turn, say). */
export interface MessageActions {
  onVersion(id: string): void;
  onRegenerate(id: string): void;
  onEdit(id: string, text: string): Promise<boolean>;
  onDeletePair(id: string): void;
}

/** What a compared reply can do: each column stops, is asked again, or is chosen on its own. */
export interface CompareActions {
  onContinue(id: string): void;
  onStop(id: string): void;
  onRetry(id: string): Promise<void>;
}

const RETRYABLE = new Set(['stopped', 'interrupted', 'error']);

function EditBox({ initial, onSave, onCancel }: { initial: string; onSave(text: string): Promise<boolean>; onCancel(): void }) {
  const w = useWords();
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const save = async (): Promise<void> => {
    if (text.trim() === '' || saving) return;
    setSaving(true);
    if (!(await onSave(text))) setSaving(false);
  };
  const keys = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onCancel();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void save();
    }
  };
  return (
    <form className="edit-message ml-auto flex w-full max-w-[85%] flex-col gap-1.5" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <Textarea aria-label={w.t('message.edit.field')} autoFocus rows={Math.min(10, Math.max(2, text.split('\n').length))} value={text} onChange={(e) => setText(e.target.value)} onKeyDown={keys} />
      <span className="flex justify-end gap-1.5">
        <Button size="sm" onClick={onCancel}>{w.t('common.cancel')}</Button>
        <Button size="sm" variant="primary" type="submit" disabled={text.trim() === '' || saving}>{w.t('message.edit.send')}</Button>
      </span>
    </form>
  );
}

/** Memoised: while one reply streams, the other messages are not rendered again. */
interface MessageViewProps {
  message: Message;
  /** Where it stands among its versions (shown when there are several). */
  versions?: VersionInfo;
  actions?: MessageActions;
  /** Whether this user message is being edited (↑ in an empty composer starts it). */
  editing?: boolean;
  /** Starts or ends editing this message (one callback for all messages, so memo holds). */
  onEditingChange?(id: string, editing: boolean): void;
  /** The reply's model is in the catalogue (so "does not exist" means "unavailable now"). */
  modelListed?: boolean;
  /** The title of the page a quoted selection came from. */
  quotedFrom?: string;
  /** Set for a reply in a comparison: shown as a column (its model named), with its own Stop, Retry and "Continue with this one". */
  compare?: CompareActions;
}

/** Equal props: versions compared by what they say (a new object is made for each render). */
function sameProps(a: MessageViewProps, b: MessageViewProps): boolean {
  const va = a.versions;
  const vb = b.versions;
  const sameVersions = va === vb || (va !== undefined && vb !== undefined && va.index === vb.index && va.count === vb.count && va.previous === vb.previous && va.next === vb.next);
  return sameVersions && a.message === b.message && a.modelListed === b.modelListed && a.quotedFrom === b.quotedFrom
    && a.actions === b.actions && a.editing === b.editing && a.onEditingChange === b.onEditingChange && a.compare === b.compare;
}

/** A streaming reply's text as its markdown shows it (its image references drawn as images, not text). */
function shownText(now: LiveText): string {
  return hasImageRefs(now) ? withoutImageRefs(now.text) : now.text;
}

/** How that text grew from the one shown before it, when it is the streamed text itself. */
function shownGrowth(now: LiveText): TextGrowth | undefined {
  return hasImageRefs(now) ? undefined : now.grew;
}

export const MessageView = memo(function MessageView({ message: given, modelListed = false, quotedFrom, versions, actions, editing = false, onEditingChange, compare }: MessageViewProps) {
  // A streaming reply's newest text: it alone renders as text streams in.
  const message = useLiveMessage(given);
  // Its markdown reads the newest streamed text itself, drawing each frame without this view.
  const streamingId = given.status === 'streaming' ? given.id : undefined;
  const live = useMemo<LiveSource | undefined>(() => (streamingId === undefined ? undefined : {
    text: () => {
      const now = liveTextOf(streamingId);
      return now === undefined ? undefined : shownText(now);
    },
    growth: () => {
      const now = liveTextOf(streamingId);
      return now === undefined ? undefined : shownGrowth(now);
    },
    subscribe: (onChange) => subscribeLiveText(streamingId, onChange),
    hear: (onText) => hearLiveText(streamingId, (now) => onText(shownText(now), shownGrowth(now))),
  }), [streamingId]);
  // Text a lone </think> moved into the reasoning can be put back, as the user sees fit.
  const [putBack, setPutBack] = useState(false);
  const w = useWords();
  const switcher = versions !== undefined && versions.count > 1 && actions !== undefined && compare === undefined ? <VersionSwitch info={versions} onVersion={actions.onVersion} /> : null;
  // A note of a later build's kind has no words here: none is shown.
  const notice = message.notice === undefined ? '' : noticeText(w, message.notice);
  if (message.role === 'user') {
    if (editing && actions !== undefined) {
      return <EditBox initial={message.text} onCancel={() => onEditingChange?.(message.id, false)} onSave={async (text) => {
        const sent = await actions.onEdit(message.id, text);
        if (sent) onEditingChange?.(message.id, false);
        return sent;
      }} />;
    }
    return (
      <div className="group flex flex-col items-end gap-0.5" data-message-id={message.id}>
      <article aria-label={w.t('message.user')} className="message message-user ml-auto flex max-w-[85%] flex-col gap-1 rounded-lg rounded-br-sm bg-user px-3 py-2 text-sm text-fg [overflow-wrap:anywhere]">
        {message.text !== '' && splitQuotedSelections(message.text).map((part, i) => (part.type === 'quote'
          ? <QuotedSelection key={i} text={part.text} from={quotedFrom} />
          : <p key={i} className="user-text whitespace-pre-wrap">{part.text}</p>))}
        {notice !== '' && <p role="note" className="notice border-l-2 border-warning pl-2 text-xs text-muted">{notice}</p>}
        {/* Only inline pictures the user attached: a stored remote URL is never loaded. */}
        {message.images?.filter((src) => src.startsWith('data:image/')).length
          ? <div className="flex flex-wrap gap-1.5">{message.images.filter((src) => src.startsWith('data:image/')).map((src, i) => <img key={i} src={src} alt={w.t('message.attachedImage', { n: i + 1 })} className="attached max-h-32 max-w-40 rounded-md border border-line object-cover" />)}</div>
          : null}
        {message.imageIds !== undefined && message.imageIds.length > 0 && (
          <div className="flex flex-wrap gap-1.5"><Suspense fallback={null}>{message.imageIds.map((id) => <StoredThumbnail key={id} id={id} />)}</Suspense></div>
        )}
        {message.files !== undefined && message.files.length > 0 && <Suspense fallback={null}><FileCards files={message.files} /></Suspense>}
      </article>
      {(switcher !== null || actions !== undefined) && (
        <span className="message-tools flex items-center gap-0.5">
          {switcher}
          {actions !== undefined && (
            <span className="flex gap-0.5 opacity-70 group-hover:opacity-100 focus-within:opacity-100">
              <IconButton size="sm" className="!size-6 text-muted" label={w.t('message.edit.button')} icon={<Pencil aria-hidden />} onClick={() => onEditingChange?.(message.id, true)} />
              <IconButton size="sm" className="!size-6 text-muted" label={w.t('message.deletePair')} icon={<Trash2 aria-hidden />} onClick={() => actions.onDeletePair(message.id)} />
            </span>
          )}
        </span>
      )}
      </div>
    );
  }
  const streaming = message.status === 'streaming';
  const moved = !streaming ? message.movedToReasoning : undefined;
  let reasoning = message.reasoning;
  // A chat model's images are shown in their group, not as references in the text.
  let text = withoutImageRefs(message.text);
  if (moved !== undefined && putBack) {
    const [start, end] = moved;
    text = `${reasoning.slice(start, end)}</think>${text === '' ? '' : `\n\n${text}`}`;
    reasoning = reasoning.slice(0, start) + reasoning.slice(end);
  }
  const copy = (): void => {
    void navigator.clipboard.writeText(withoutImageRefs(message.text)).then(() => toast(w.t('common.copied')), () => toast(w.t('common.copyFailed'), 'error'));
  };
  return (
    <article aria-label={w.t('message.assistant')} aria-busy={streaming} className={cx('message message-assistant group flex gap-2.5', `status-${message.status}`, compare !== undefined && 'compared min-w-0 rounded-lg border border-line bg-raised p-3 shadow-xs')} data-status={message.status} data-message-id={message.id}>
      {compare === undefined && <span aria-hidden className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent-soft-fg [&_svg]:size-3.5"><Sparkles /></span>}
      <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">
        {compare !== undefined && (
          <p className="compare-model flex items-center gap-1.5 border-b border-line pb-1.5 text-xs font-medium">
            <Sparkles aria-hidden className="size-3.5 shrink-0 text-accent" />
            <span className="min-w-0 flex-1 truncate" title={message.model}>{message.model}</span>
            {/* Still: four pulsing dots would repaint four cards every frame. */}
            {streaming && <span aria-hidden className="size-1.5 shrink-0 rounded-full bg-accent" />}
          </p>
        )}
        {reasoning !== '' && (
          <details className="reasoning rounded-md border border-line bg-surface px-2.5 py-1.5 text-xs text-muted">
            <summary className="cursor-pointer font-medium">{w.t('message.reasoning')}{streaming && message.text === '' ? '…' : ''}</summary>
            <div className="reasoning-text mt-1 whitespace-pre-wrap">{reasoning.length > LARGE_BLOCK_CHARS ? <Pieces text={reasoning} /> : reasoning}</div>
          </details>
        )}
        {moved !== undefined && (
          <button type="button" className="self-start text-xs text-accent underline underline-offset-2" aria-pressed={putBack} onClick={() => setPutBack(!putBack)}>
            {putBack ? w.t('message.foldThink') : w.t('message.unfoldThink')}
          </button>
        )}
        {message.toolCalls !== undefined && message.toolCalls.length > 0 && <Suspense fallback={null}><ToolCalls calls={message.toolCalls} messageId={message.id} live={streaming} /></Suspense>}
        {text !== '' && <Markdown text={text} streaming={streaming} live={live} saved={streaming ? undefined : savedAs(message)} />}
        {/* Pages the gateway's own search cited: numbered, after the answer. */}
        {message.sources !== undefined && message.sources.length > 0 && <Suspense fallback={null}><ToolCalls calls={[]} messageId={message.id} sources={message.sources} /></Suspense>}
        {(message.imageRequest !== undefined || (message.imageIds !== undefined && message.imageIds.length > 0) || text !== message.text) && <Suspense fallback={null}><GeneratedImages message={message} /></Suspense>}
        {streaming && message.text === '' && message.reasoning === '' && message.imageRequest === undefined && (message.toolCalls === undefined || message.toolCalls.length === 0) && (
          <p className="waiting flex items-center gap-1.5 text-xs text-muted"><span aria-hidden className="size-1.5 animate-pulse rounded-full bg-accent motion-reduce:animate-none" />{w.t('message.waiting')}</p>
        )}
        {(message.status === 'stopped' || message.status === 'interrupted') && <p className="status-note text-xs text-muted">{w.t(`message.note.${message.status}`)}</p>}
        {message.error !== undefined && message.error.kind !== 'aborted' && <ErrorCallout error={message.error} modelListed={modelListed} />}
        {notice !== '' && (
          <p role="note" className="reply-notice flex items-start gap-1 text-2xs text-muted"><Route aria-hidden className="mt-px size-3 shrink-0" />{notice}</p>
        )}
        {(message.usage !== undefined || message.timing !== undefined || switcher !== null || (!streaming && (message.text !== '' || actions !== undefined))) && (
          <div className="flex min-h-7 flex-wrap items-center gap-x-2">
            {switcher}
            {!streaming && message.text !== '' && (
              <IconButton size="sm" label={w.t('message.copyReply')} icon={<Copy aria-hidden />} className="text-muted opacity-70 group-hover:opacity-100 focus-visible:opacity-100" onClick={copy} />
            )}
            {!streaming && text !== '' && <ReadAloudButton message={message} />}
            {!streaming && actions !== undefined && compare === undefined && (
              <IconButton size="sm" label={w.t('message.regenerate')} icon={<RefreshCw aria-hidden />} className="text-muted opacity-70 group-hover:opacity-100 focus-visible:opacity-100" onClick={() => actions.onRegenerate(message.id)} />
            )}
            {compare !== undefined && message.status === 'complete' && (
              <IconButton size="sm" label={w.t('message.regenerate')} icon={<RefreshCw aria-hidden />} className="text-muted" onClick={() => void compare.onRetry(message.id)} />
            )}
            <UsageLine usage={message.usage} timing={streaming ? undefined : message.timing} model={message.model} {...(message.imageRequest === undefined ? {} : { images: message.imageIds?.length ?? 0 })} />
          </div>
        )}
        {compare !== undefined && (
          <div className="compare-tools mt-auto flex flex-wrap items-center gap-1.5 pt-1">
            {streaming && <Button size="sm" onClick={() => compare.onStop(message.id)}><Square aria-hidden className="fill-current" />{w.t('composer.stop')}</Button>}
            {RETRYABLE.has(message.status) && <RetryButton key={message.id} retryAt={message.error?.retryAt} onRetry={() => compare.onRetry(message.id)} />}
            {!streaming && message.text !== '' && (
              <Button size="sm" variant={message.status === 'complete' ? 'primary' : 'secondary'} className="ml-auto" onClick={() => compare.onContinue(message.id)}><Check aria-hidden />{w.t('compare.continue')}</Button>
            )}
          </div>
        )}
      </div>
    </article>
  );
}, sameProps);

import { Globe, MessageSquarePlus, MessagesSquare, Pencil, Pin, PinOff, Search, Trash2 } from 'lucide-react';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useState, type PointerEvent as ReactPointerEvent, type ReactNode, type RefObject } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { IconButton } from '@/components/ui/IconButton';
import { Input } from '@/components/ui/Input';
import { SkeletonRows } from '@/components/ui/Skeleton';
import { cx } from '@/components/ui/cx';
import { conversationStore, preloadConversation } from '@/components/data';
import { StoreProblemCallout, UnreadableNote } from '@/components/StoreProblemCallout';
import { VirtualList } from '@/components/VirtualList';
import type { Conversation } from '@/lib/conversations/records';
import type { Words } from '@/lib/i18n/messages';
import { type DeletedConversation } from '@/lib/conversations/store';
import { storeProblem, type StoreProblem } from '@/lib/conversations/problems';
import { useMemoryMode } from '@/components/stores/memory-mode';
import { useConversationList, watchConversationList } from '@/components/stores/conversations';
import { useConversationSearchState, type SearchResult } from '@/components/stores/useConversationSearch';
import { useSearchIndex } from '@/components/stores/search-client';
import type { Snippet } from '@/lib/search/tokens';
import { askBackground } from '@/lib/protocol/background.adapter';
import { useWords } from '@/components/i18n/words';

const UNDO_MS = 10_000;

const formats = new Map<string, { relative: Intl.RelativeTimeFormat; date: Intl.DateTimeFormat }>();
/** One formatter pair per language (making one costs more than a row's whole render). */
function formatsFor(locale: string): { relative: Intl.RelativeTimeFormat; date: Intl.DateTimeFormat } {
  let f = formats.get(locale);
  if (f === undefined) {
    f = { relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' }), date: new Intl.DateTimeFormat(locale) };
    formats.set(locale, f);
  }
  return f;
}

/** Formatted times, by language, unit and amount (the browser's formatters are slow to call). */
const formatted = new Map<string, string>();

function cachedFormat(key: string, format: () => string): string {
  let text = formatted.get(key);
  if (text === undefined) {
    if (formatted.size > 2_000) formatted.clear();
    text = format();
    formatted.set(key, text);
  }
  return text;
}

/** "just now", "5 min. ago", "yesterday", then the date: in the interface's language. */
export function relativeTime(w: Words, time: number, now = Date.now()): string {
  const { relative, date } = formatsFor(w.locale);
  const minutes = Math.round((now - time) / 60_000);
  if (minutes < 1) return w.t('conversations.justNow');
  if (minutes < 60) return cachedFormat(`${w.locale} m ${minutes}`, () => relative.format(-minutes, 'minute'));
  const hours = Math.round(minutes / 60);
  if (hours < 24) return cachedFormat(`${w.locale} h ${hours}`, () => relative.format(-hours, 'hour'));
  const days = Math.round(hours / 24);
  if (days < 7) return cachedFormat(`${w.locale} d ${days}`, () => relative.format(-days, 'day'));
  // One string per calendar day.
  const day = new Date(time).setHours(0, 0, 0, 0);
  return cachedFormat(`${w.locale} ${day}`, () => date.format(day));
}

const REPLY_STATE: Partial<Record<NonNullable<Conversation['replyStatus']>, 'accent' | 'warning' | 'danger'>> = {
  streaming: 'accent',
  interrupted: 'warning',
  error: 'danger',
};

interface RowProps {
  conversation: Conversation;
  /** Set once the catalogue is known: whether the conversation's model is still in it. */
  modelWithdrawn: boolean;
  active: boolean;
  onOpen(id: string): void;
  onDelete(conversation: Conversation): void;
}

/**
 * A press on a conversation's button starts reading its messages: by the click that opens it
 * (a press lasts some 100 ms), they are read or on their way.
 */
export function preloadOnPress(id: string): (event: ReactPointerEvent) => void {
  return (event) => {
    if (event.button === 0) preloadConversation(id);
  };
}

const ConversationRow = memo(function ConversationRow({ conversation, modelWithdrawn, active, onOpen, onDelete }: RowProps) {
  const w = useWords();
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const shownTitle = conversation.title === '' ? w.t('conversations.untitled') : conversation.title;
  const save = (): void => {
    void conversationStore().renameConversation(conversation.id, title);
    setRenaming(false);
  };
  const tone = conversation.replyStatus === undefined ? undefined : REPLY_STATE[conversation.replyStatus];
  return (
    // Drawn to ROW_HEIGHT exactly (the list places rows without measuring them): two lines that never wrap.
    <div role="listitem" aria-label={shownTitle} aria-current={active ? 'true' : undefined} className={cx('conversation-row group mx-1 my-0.5 h-16 overflow-hidden rounded-md px-2.5 py-2', active ? 'bg-accent-soft' : 'hover:bg-surface-2')}>
      {renaming
        ? (
          <form onSubmit={(e) => { e.preventDefault(); save(); }} className="flex h-7 items-center gap-1.5">
            <Input aria-label={w.t('conversations.titleField')} className="h-7" value={title} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape') setRenaming(false); }} />
            <Button size="sm" variant="primary" className="h-7" type="submit">{w.t('conversations.saveTitle')}</Button>
            <Button size="sm" className="h-7" onClick={() => setRenaming(false)}>{w.t('common.cancel')}</Button>
          </form>
        )
        : (
          <div className="flex h-5 items-start gap-1">
            <button type="button" className="conversation-title min-w-0 flex-1 cursor-pointer truncate text-left text-sm font-medium text-fg hover:text-accent focus-visible:outline-2 focus-visible:outline-ring rounded-sm" onPointerDown={preloadOnPress(conversation.id)} onClick={() => onOpen(conversation.id)} title={shownTitle}>{shownTitle}</button>
            {conversation.pinned === true && <Pin aria-label={w.t('conversations.pinned')} className="mt-1 size-3 shrink-0 text-accent" />}
            <span className="shrink-0 text-2xs text-muted">{relativeTime(w, conversation.updatedAt)}</span>
          </div>
        )}
      <div className={cx('flex min-w-0 items-center gap-1.5 text-2xs text-muted', renaming ? 'mt-0.5 h-4' : 'mt-1 h-6')}>
        <span className="min-w-0 max-w-40 truncate">{conversation.model}</span>
        {tone !== undefined && conversation.replyStatus !== undefined && <Badge tone={tone}>{w.t(`conversations.state.${conversation.replyStatus}`)}</Badge>}
        {modelWithdrawn && <Badge tone="warning" title={w.t('conversations.withdrawnTitle')}>{w.t('conversations.withdrawn')}</Badge>}
        {conversation.source !== undefined && <span className="inline-flex min-w-0 max-w-48 shrink items-center gap-1 truncate" title={conversation.source.url}><Globe aria-hidden className="size-3 shrink-0" /><span className="truncate">{conversation.source.title}</span></span>}
        {!renaming && (
          <span className="ml-auto flex shrink-0 gap-0.5 opacity-80 group-hover:opacity-100">
            <Button size="sm" variant="ghost" className="h-6 px-2" onPointerDown={preloadOnPress(conversation.id)} onClick={() => onOpen(conversation.id)}>{w.t('conversations.open')}</Button>
            <IconButton size="sm" className="!size-6" label={conversation.pinned === true ? w.t('conversations.unpin') : w.t('conversations.pin')} icon={conversation.pinned === true ? <PinOff aria-hidden /> : <Pin aria-hidden />} onClick={() => void conversationStore().setPinned(conversation.id, conversation.pinned !== true)} />
            <IconButton size="sm" className="!size-6" label={w.t('conversations.rename')} icon={<Pencil aria-hidden />} onClick={() => { setTitle(conversation.title); setRenaming(true); }} />
            <IconButton size="sm" className="!size-6" label={w.t('conversations.delete')} icon={<Trash2 aria-hidden />} onClick={() => onDelete(conversation)} />
          </span>
        )}
      </div>
    </div>
  );
});

/** The list's sections: pinned, then by when they last changed. */
export type ListGroup = 'pinned' | 'today' | 'yesterday' | 'week' | 'older';

/** Pinned first, then Today / Yesterday / Last 7 days / Older, each newest first. */
export function groupConversations(list: readonly Conversation[], now = Date.now()): { group: ListGroup; conversations: Conversation[] }[] {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const today = midnight.getTime();
  const yesterday = today - 86_400_000;
  const week = today - 6 * 86_400_000;
  const groups: Record<ListGroup, Conversation[]> = { pinned: [], today: [], yesterday: [], week: [], older: [] };
  for (const c of list) {
    const group: ListGroup = c.pinned === true ? 'pinned' : c.updatedAt >= today ? 'today' : c.updatedAt >= yesterday ? 'yesterday' : c.updatedAt >= week ? 'week' : 'older';
    groups[group].push(c);
  }
  return (['pinned', 'today', 'yesterday', 'week', 'older'] as const).filter((g) => groups[g].length > 0).map((group) => ({ group, conversations: groups[group] }));
}

type Row = { kind: 'group'; group: ListGroup } | { kind: 'conversation'; conversation: Conversation };

/** Each row's height, as drawn (a conversation's 64 px and its 2 px margins; a heading's 32 px). */
const ROW_HEIGHT = 68;
const HEADING_HEIGHT = 32;
const rowSize = (row: Row): number => (row.kind === 'group' ? HEADING_HEIGHT : ROW_HEIGHT);

/** Text with its matched parts marked. */
function Marked({ snippet }: { snippet: Snippet }) {
  const parts: ReactNode[] = [];
  let at = 0;
  snippet.marks.forEach(([start, end], i) => {
    if (start > at) parts.push(snippet.text.slice(at, start));
    parts.push(<mark key={i} className="rounded-sm bg-accent-soft text-accent-soft-fg">{snippet.text.slice(start, end)}</mark>);
    at = end;
  });
  parts.push(snippet.text.slice(at));
  return <>{parts}</>;
}

/** A result drawn again only when what it shows changed (the next letter finds most of the same). */
const ResultRow = memo(function ResultRow({ result, active, onOpen }: ResultRowProps) {
  const w = useWords();
  const title = result.conversation.title === '' ? w.t('conversations.untitled') : result.conversation.title;
  return (
    <div role="listitem" aria-current={active ? 'true' : undefined} className={cx('search-result mx-1 my-0.5 rounded-md', active ? 'bg-accent-soft' : 'hover:bg-surface-2')}>
      <button type="button" className="flex w-full flex-col gap-0.5 rounded-md px-2.5 py-2 text-left focus-visible:outline-2 focus-visible:outline-ring" onPointerDown={preloadOnPress(result.conversation.id)} onClick={() => onOpen(result.conversation.id, result.messageId)}>
        <span className="flex w-full items-baseline gap-2">
          <span className="min-w-0 flex-1 truncate text-sm font-medium text-fg">{title}</span>
          <span className="shrink-0 text-2xs text-muted">{relativeTime(w, result.conversation.updatedAt)}</span>
        </span>
        {result.snippet !== undefined && <span className="snippet line-clamp-2 text-xs text-muted"><span><Marked snippet={result.snippet} /></span></span>}
        <span className="text-2xs text-muted">{result.conversation.model}</span>
      </button>
    </div>
  );
}, (a, b) => a.active === b.active && a.onOpen === b.onOpen && a.result.conversation === b.result.conversation
  && a.result.messageId === b.result.messageId && sameSnippet(a.result.snippet, b.result.snippet));

interface ResultRowProps {
  result: SearchResult;
  active: boolean;
  onOpen(id: string, messageId?: string): void;
}

function sameSnippet(a: Snippet | undefined, b: Snippet | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.text !== b.text || a.marks.length !== b.marks.length) return false;
  return a.marks.every(([start, end], i) => start === b.marks[i]![0] && end === b.marks[i]![1]);
}

interface ConversationListProps {
  activeId: string | undefined;
  /** Model ids in the catalogue (undefined until it is known). */
  catalogueIds?: ReadonlySet<string> | undefined;
  /** Opens a conversation; from a search result, at the message that matched. */
  onOpen(id: string, messageId?: string): void;
  onNew(): void;
  /** The search field (Ctrl/Cmd+K focuses it). */
  searchRef?: RefObject<HTMLInputElement | null>;
  /** More buttons beside New conversation (export, import). */
  tools?: ReactNode;
}

/** Every conversation from every surface, newest first, kept current as any surface writes. */
export function ConversationList({ activeId, catalogueIds, onOpen, onNew, searchRef, tools }: ConversationListProps) {
  const w = useWords();
  const { conversations, complete, unreadable, problem: listProblem } = useConversationList();
  const [deleted, setDeleted] = useState<DeletedConversation | undefined>();
  const [actionProblem, setProblem] = useState<{ problem: StoreProblem; detail: string } | undefined>();
  // The background keeping conversations in memory: what is listed here is not what it writes to.
  const memoryMode = useMemoryMode();
  const problem = actionProblem ?? listProblem ?? memoryMode;
  const [query, setQuery] = useState('');
  const { results, searching } = useConversationSearchState(query);
  const indexPending = useSearchIndex((s) => s.pending);
  // Drawn as a transition: when thousands arrive at once (the first read, an import, a first
  // sync), React draws the rows in slices between which the page may paint and take input.
  const deferredConversations = useDeferredValue(conversations);
  const list = useMemo(() => deferredConversations ?? [], [deferredConversations]);
  const rows = useMemo((): Row[] => groupConversations(list).flatMap(({ group, conversations: items }) => [{ kind: 'group' as const, group }, ...items.map((conversation) => ({ kind: 'conversation' as const, conversation }))]), [list]);

  useEffect(() => watchConversationList(), []);

  useEffect(() => {
    if (deleted === undefined) return;
    const timer = setTimeout(() => setDeleted(undefined), UNDO_MS);
    return () => clearTimeout(timer);
  }, [deleted]);

  // Stable, so that memoised rows are not drawn again on every change of the list.
  const remove = useCallback((conversation: Conversation): void => {
    void (async () => {
      // A reply still streaming is stopped first (the gateway stops billing it) and its end is
      // saved, so that Undo brings back what arrived, marked stopped, with Retry.
      await askBackground({ type: 'conversation.stop', conversationId: conversation.id });
      try {
        setDeleted(await conversationStore().deleteConversation(conversation.id));
      } catch (error) {
        setProblem(storeProblem(error));
      }
    })();
  }, []);

  const undo = (): void => {
    if (deleted === undefined) return;
    conversationStore().restoreConversation(deleted).catch((error: unknown) => setProblem(storeProblem(error)));
    setDeleted(undefined);
  };

  return (
    <section className="conversations flex min-h-0 flex-1 flex-col" aria-label={w.t('conversations.label')}>
      <div className="flex shrink-0 items-center gap-2 px-3 py-2">
        <Button size="sm" variant="primary" onClick={onNew}><MessageSquarePlus aria-hidden />{w.t('workspace.newConversation')}</Button>
        {tools}
      </div>
      <div className="relative shrink-0 px-3 pb-2">
        <Search aria-hidden className="pointer-events-none absolute top-1/2 left-5.5 size-3.5 -translate-y-[calc(50%+4px)] text-muted" />
        <Input type="search" ref={searchRef} aria-label={w.t('conversations.search')} placeholder={w.t('conversations.searchPlaceholder')} className="h-8 pl-7" value={query} onChange={(e) => setQuery(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape' && query !== '') { e.stopPropagation(); setQuery(''); } }} />
      </div>
      {query.trim() === '' && (
        <p aria-label={w.t('conversations.countLabel')} className="shrink-0 px-4 pb-1 text-2xs text-muted">{conversations === undefined ? w.t('common.loading') : complete ? w.plural('conversations.count', list.length) : w.t('conversations.countAtLeast', { count: list.length })}</p>
      )}
      <div className="flex shrink-0 flex-col gap-2 px-3 empty:hidden">
        {problem !== undefined && <StoreProblemCallout {...problem} />}
        <UnreadableNote count={unreadable} what="conversations" />
        {deleted !== undefined && (
          <p role="status" className="undo flex items-center gap-2 rounded-md bg-surface-2 px-3 py-1.5 text-sm">
            <span className="min-w-0 flex-1 truncate">{w.t('conversations.deleted', { title: deleted.conversation.title })}</span>
            <Button size="sm" onClick={undo}>{w.t('conversations.undo')}</Button>
          </p>
        )}
      </div>
      {query.trim() !== '' ? (
        <div className="min-h-0 flex-1 overflow-y-auto">
          <p role="status" className="px-4 pb-1 text-2xs text-muted">
            {results === undefined || searching ? w.t('conversations.searching') : w.plural('conversations.results', results.length)}
            {indexPending > 0 && <span className="indexing"> · {w.plural('conversations.indexing', indexPending)}</span>}
          </p>
          {results !== undefined && results.length > 0 && (
            <div role="list" aria-label={w.t('conversations.searchResults')} aria-busy={searching}>
              {results.map((r) => <ResultRow key={r.conversation.id} result={r} active={r.conversation.id === activeId} onOpen={onOpen} />)}
            </div>
          )}
        </div>
      ) : (
        <>
          {conversations === undefined && <SkeletonRows rows={4} label={w.t('conversations.loading')} />}
          {conversations !== undefined && list.length === 0 && problem === undefined && (
            <EmptyState icon={<MessagesSquare aria-hidden />} title={w.t('conversations.empty')}>
              <p>{w.t('conversations.emptyText')}</p>
            </EmptyState>
          )}
          <VirtualList
            label={w.t('conversations.list')}
            items={rows}
            estimateSize={ROW_HEIGHT}
            rowSize={rowSize}
            itemKey={(r) => (r.kind === 'group' ? `group:${r.group}` : r.conversation.id)}
            renderItem={(r) => (r.kind === 'group'
              ? <div role="listitem" className="flex h-8 items-end px-4 pb-1"><h3 className="text-2xs font-semibold tracking-wide text-muted uppercase">{w.t(`conversations.group.${r.group}`)}</h3></div>
              : <ConversationRow conversation={r.conversation} active={r.conversation.id === activeId} modelWithdrawn={catalogueIds !== undefined && catalogueIds.size > 0 && !catalogueIds.has(r.conversation.model)} onOpen={onOpen} onDelete={remove} />)}
          />
        </>
      )}
    </section>
  );
}

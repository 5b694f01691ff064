import { Globe, MessageSquarePlus, MessagesSquare, Pencil, Trash2 } from 'lucide-react';
import { memo, useCallback, useEffect, useState } from 'react';
import { Badge } from '@/components/ui/Badge';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { IconButton } from '@/components/ui/IconButton';
import { Input } from '@/components/ui/Input';
import { SkeletonRows } from '@/components/ui/Skeleton';
import { cx } from '@/components/ui/cx';
import { conversationStore } from '@/components/data';
import { StoreProblemCallout, UnreadableNote } from '@/components/StoreProblemCallout';
import { VirtualList } from '@/components/VirtualList';
import type { Conversation } from '@/lib/conversations/records';
import { storeProblem, type DeletedConversation, type StoreProblem } from '@/lib/conversations/store';
import { askBackground } from '@/lib/protocol/background.adapter';

const UNDO_MS = 10_000;
const FIRST_SCREEN = 40;

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto', style: 'short' });

/** "just now", "5 min. ago", "yesterday", then the date. */
export function relativeTime(time: number, now = Date.now()): string {
  const minutes = Math.round((now - time) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  const days = Math.round(hours / 24);
  return days < 7 ? relative.format(-days, 'day') : new Date(time).toLocaleDateString();
}

const REPLY_STATE: Partial<Record<NonNullable<Conversation['replyStatus']>, { label: string; tone: 'accent' | 'warning' | 'danger' }>> = {
  streaming: { label: 'streaming', tone: 'accent' },
  interrupted: { label: 'interrupted', tone: 'warning' },
  error: { label: 'failed', tone: 'danger' },
};

interface RowProps {
  conversation: Conversation;
  /** Set once the catalogue is known: whether the conversation's model is still in it. */
  modelWithdrawn: boolean;
  active: boolean;
  onOpen(id: string): void;
  onDelete(conversation: Conversation): void;
}

const ConversationRow = memo(function ConversationRow({ conversation, modelWithdrawn, active, onOpen, onDelete }: RowProps) {
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const save = (): void => {
    void conversationStore().renameConversation(conversation.id, title);
    setRenaming(false);
  };
  const state = conversation.replyStatus === undefined ? undefined : REPLY_STATE[conversation.replyStatus];
  return (
    <div role="listitem" aria-label={conversation.title} aria-current={active ? 'true' : undefined} className={cx('conversation-row group mx-1 my-0.5 rounded-md px-2.5 py-2', active ? 'bg-accent-soft' : 'hover:bg-surface-2')}>
      {renaming
        ? (
          <form onSubmit={(e) => { e.preventDefault(); save(); }} className="flex items-center gap-1.5">
            <Input aria-label="Conversation title" className="h-8" value={title} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape') setRenaming(false); }} />
            <Button size="sm" variant="primary" type="submit">Save title</Button>
            <Button size="sm" onClick={() => setRenaming(false)}>Cancel</Button>
          </form>
        )
        : (
          <div className="flex items-start gap-1">
            <button type="button" className="conversation-title min-w-0 flex-1 cursor-pointer truncate text-left text-sm font-medium text-fg hover:text-accent focus-visible:outline-2 focus-visible:outline-ring rounded-sm" onClick={() => onOpen(conversation.id)} title={conversation.title}>{conversation.title}</button>
            <span className="shrink-0 text-2xs text-muted">{relativeTime(conversation.updatedAt)}</span>
          </div>
        )}
      <div className="mt-1 flex min-w-0 flex-wrap items-center gap-1.5 text-2xs text-muted">
        <span className="max-w-40 truncate">{conversation.model}</span>
        {state !== undefined && <Badge tone={state.tone}>{state.label}</Badge>}
        {modelWithdrawn && <Badge tone="warning" title="Not in the gateway's catalogue any more: copy the ID again, or pick another model">model withdrawn</Badge>}
        {conversation.source !== undefined && <span className="inline-flex min-w-0 max-w-48 items-center gap-1 truncate" title={conversation.source.url}><Globe aria-hidden className="size-3 shrink-0" /><span className="truncate">{conversation.source.title}</span></span>}
        {!renaming && (
          <span className="ml-auto flex gap-0.5 opacity-80 group-hover:opacity-100">
            <Button size="sm" variant="ghost" className="h-6 px-2" onClick={() => onOpen(conversation.id)}>Open</Button>
            <IconButton size="sm" className="!size-6" label="Rename" icon={<Pencil aria-hidden />} onClick={() => { setTitle(conversation.title); setRenaming(true); }} />
            <IconButton size="sm" className="!size-6" label="Delete" icon={<Trash2 aria-hidden />} onClick={() => onDelete(conversation)} />
          </span>
        )}
      </div>
    </div>
  );
});

interface ConversationListProps {
  activeId: string | undefined;
  /** Model ids in the catalogue (undefined until it is known). */
  catalogueIds?: ReadonlySet<string> | undefined;
  onOpen(id: string): void;
  onNew(): void;
}

/** Every conversation from every surface, newest first, kept current as any surface writes. */
export function ConversationList({ activeId, catalogueIds, onOpen, onNew }: ConversationListProps) {
  const [conversations, setConversations] = useState<Conversation[] | undefined>();
  const [deleted, setDeleted] = useState<DeletedConversation | undefined>();
  const [complete, setComplete] = useState(false);
  const [unreadable, setUnreadable] = useState(0);
  const [problem, setProblem] = useState<{ problem: StoreProblem; detail: string } | undefined>();
  const list = conversations ?? [];

  useEffect(() => {
    // A first screenful at once; the whole list (thousands) follows and stays live.
    let whole = false;
    const failed = (error: unknown): void => setProblem(storeProblem(error));
    conversationStore().listConversations(FIRST_SCREEN).then((first) => {
      if (whole) return;
      setConversations(first);
      setComplete(first.length < FIRST_SCREEN);
    }, failed);
    return conversationStore().watchConversations((all, skipped) => {
      whole = true;
      setConversations(all);
      setUnreadable(skipped);
      setComplete(true);
      setProblem(undefined);
    }, failed);
  }, []);

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
    <section className="conversations flex min-h-0 flex-1 flex-col" aria-label="Conversations">
      <div className="flex shrink-0 items-center gap-2 px-3 py-2">
        <Button size="sm" variant="primary" onClick={onNew}><MessageSquarePlus aria-hidden />New chat</Button>
        <p aria-label="Conversation count" className="ml-auto text-xs text-muted">{conversations === undefined ? 'Loading…' : `${list.length}${complete ? '' : '+'} ${list.length === 1 && complete ? 'conversation' : 'conversations'}`}</p>
      </div>
      <div className="flex shrink-0 flex-col gap-2 px-3 empty:hidden">
        {problem !== undefined && <StoreProblemCallout {...problem} />}
        <UnreadableNote count={unreadable} what="conversations" />
        {deleted !== undefined && (
          <p role="status" className="undo flex items-center gap-2 rounded-md bg-surface-2 px-3 py-1.5 text-sm">
            <span className="min-w-0 flex-1 truncate">Deleted “{deleted.conversation.title}”.</span>
            <Button size="sm" onClick={undo}>Undo</Button>
          </p>
        )}
      </div>
      {conversations === undefined && <SkeletonRows rows={4} label="Loading conversations" />}
      {conversations !== undefined && list.length === 0 && problem === undefined && (
        <EmptyState icon={<MessagesSquare aria-hidden />} title="No conversations yet">
          <p>Chats from the popup, the side panel, right-click actions and this page all appear here.</p>
        </EmptyState>
      )}
      <VirtualList
        label="Conversation list"
        items={list}
        estimateSize={64}
        itemKey={(c) => c.id}
        renderItem={(c) => <ConversationRow conversation={c} active={c.id === activeId} modelWithdrawn={catalogueIds !== undefined && catalogueIds.size > 0 && !catalogueIds.has(c.model)} onOpen={onOpen} onDelete={remove} />}
      />
    </section>
  );
}

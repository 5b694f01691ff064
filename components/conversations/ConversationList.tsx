import { memo, useCallback, useEffect, useState } from 'react';
import { conversationStore } from '@/components/data';
import { StoreProblemCallout, UnreadableNote } from '@/components/StoreProblemCallout';
import { VirtualList } from '@/components/VirtualList';
import type { Conversation } from '@/lib/conversations/records';
import { storeProblem, type DeletedConversation, type StoreProblem } from '@/lib/conversations/store';
import { askBackground } from '@/lib/protocol/background.adapter';

const UNDO_MS = 10_000;
const FIRST_SCREEN = 40;

function when(time: number): string {
  const d = new Date(time);
  return Date.now() - time < 86_400_000 ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : d.toLocaleDateString();
}

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
  return (
    <div role="listitem" aria-label={conversation.title} aria-current={active ? 'true' : undefined} className="conversation-row">
      {renaming
        ? (
          <form onSubmit={(e) => { e.preventDefault(); save(); }} className="model-line">
            <input aria-label="Conversation title" value={title} autoFocus onChange={(e) => setTitle(e.target.value)} onKeyDown={(e) => { if (e.key === 'Escape') setRenaming(false); }} />
            <button type="submit">Save title</button>
            <button type="button" onClick={() => setRenaming(false)}>Cancel</button>
          </form>
        )
        : <button type="button" className="link conversation-title" onClick={() => onOpen(conversation.id)}>{conversation.title}</button>}
      <div className="model-line hint">
        <span>{conversation.model}</span>
        {modelWithdrawn && <span className="badge warn" title="Not in the gateway's catalogue any more: copy the ID again, or pick another model">model withdrawn</span>}
        <span>{when(conversation.updatedAt)}</span>
        {conversation.source !== undefined && <span title={conversation.source.url}>{conversation.source.title}</span>}
      </div>
      {!renaming && (
        <div className="model-line">
          <button type="button" onClick={() => onOpen(conversation.id)}>Open</button>
          <button type="button" onClick={() => { setTitle(conversation.title); setRenaming(true); }}>Rename</button>
          <button type="button" onClick={() => onDelete(conversation)}>Delete</button>
        </div>
      )}
    </div>
  );
});

interface ConversationListProps {
  activeId: string | undefined;
  /** Model ids in the catalogue (undefined until it is known). */
  catalogueIds: ReadonlySet<string> | undefined;
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
    <section className="conversations" aria-label="Conversations">
      <div className="catalogue-row">
        <button type="button" onClick={onNew}>New chat</button>
        <p aria-label="Conversation count">{conversations === undefined ? 'Loading…' : `${list.length}${complete ? '' : '+'} ${list.length === 1 && complete ? 'conversation' : 'conversations'}`}</p>
      </div>
      {problem !== undefined && <StoreProblemCallout {...problem} />}
      <UnreadableNote count={unreadable} what="conversations" />
      {deleted !== undefined && (
        <p role="status" className="undo">
          Deleted “{deleted.conversation.title}”. <button type="button" onClick={undo}>Undo</button>
        </p>
      )}
      <VirtualList
        label="Conversation list"
        items={list}
        estimateSize={88}
        itemKey={(c) => c.id}
        renderItem={(c) => <ConversationRow conversation={c} active={c.id === activeId} modelWithdrawn={catalogueIds !== undefined && catalogueIds.size > 0 && !catalogueIds.has(c.model)} onOpen={onOpen} onDelete={remove} />}
      />
    </section>
  );
}

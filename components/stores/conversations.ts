import { create } from 'zustand';
import { conversationStore } from '@/components/data';
import type { Conversation } from '@/lib/conversations/records';
import { storeProblem, type StoreProblem } from '@/lib/conversations/store';
import { SearchIndexer } from '@/lib/search/indexer';

/**
 * The page's one copy of the conversation list, fed live from the database: the rail, the
 * side panel's tab, the command palette and search read it; nobody keeps a copy of their own.
 */
interface ConversationListState {
  /** Newest first; undefined until the first read. */
  conversations: Conversation[] | undefined;
  /** Whether the whole list has been read (a first screenful comes first). */
  complete: boolean;
  unreadable: number;
  problem: { problem: StoreProblem; detail: string } | undefined;
}

export const useConversationList = create<ConversationListState>(() => ({ conversations: undefined, complete: false, unreadable: 0, problem: undefined }));

const FIRST_SCREEN = 40;
let started = false;
let indexer: SearchIndexer | undefined;
let catchUpTimer: ReturnType<typeof setTimeout> | undefined;

/** The page's search index, opened on first use and kept current as the list changes. */
export function searchIndexer(): SearchIndexer {
  indexer ??= new SearchIndexer(conversationStore());
  return indexer;
}

/** Starts watching the database (once per page). */
export function watchConversationList(): void {
  if (started) return;
  started = true;
  let whole = false;
  const failed = (error: unknown): void => useConversationList.setState({ problem: storeProblem(error) });
  conversationStore().listConversations(FIRST_SCREEN).then((first) => {
    if (!whole) useConversationList.setState({ conversations: first, complete: first.length < FIRST_SCREEN });
  }, failed);
  conversationStore().watchConversations((all, unreadable) => {
    whole = true;
    useConversationList.setState({ conversations: all, complete: true, unreadable, problem: undefined });
    // A reply that finished, a rename, a deletion: the index catches up (once things settle).
    if (indexer !== undefined) {
      if (catchUpTimer !== undefined) clearTimeout(catchUpTimer);
      catchUpTimer = setTimeout(() => void indexer?.catchUp(), 300);
    }
  }, failed);
}

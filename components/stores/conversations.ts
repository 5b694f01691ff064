import { create } from 'zustand';
import { conversationStore } from '@/components/data';
import type { Conversation } from '@/lib/conversations/records';
import { storeProblem, type StoreProblem } from '@/lib/conversations/problems';
import { readFirstScreen, writeFirstScreen } from './first-screen';
import { searchClient, searchClientStarted } from './search-client';

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
/** Time for the first screenful to be drawn before the whole list is read. */
const FIRST_PAINT_MS = 50;
let started = false;
let catchUpTimer: ReturnType<typeof setTimeout> | undefined;
/** The search index is opened a moment after the page (off its thread), ahead of the first search. */
const OPEN_INDEX_AFTER_MS = 1_500;

let unwatchAll: (() => void) | undefined;
let indexAhead = false;

/**
 * The page opens the search index a moment after it starts, ahead of the first search (the chat
 * page: search is its first tool). Elsewhere (the side panel) it opens on the first search.
 */
export function openSearchAhead(): void {
  indexAhead = true;
}
let holds = 0;

const failed = (error: unknown): void => useConversationList.setState({ problem: storeProblem(error) });

/** Watches the whole list (thousands, each checked), and has the search index catch up with it. */
function watchAll(): void {
  if (unwatchAll !== undefined || holds > 0) return;
  unwatchAll = conversationStore().watchConversations((all, unreadable) => {
    useConversationList.setState({ conversations: all, complete: true, unreadable, problem: undefined });
    writeFirstScreen(all);
    // A reply that finished, a rename, a deletion, an import: the index catches up (once things
    // settle). A page that has not searched yet opens it only when it asked to (the workspace).
    if (!indexAhead && !searchClientStarted()) return;
    if (catchUpTimer !== undefined) clearTimeout(catchUpTimer);
    catchUpTimer = setTimeout(() => searchClient().catchUp(), catchUpTimer === undefined ? OPEN_INDEX_AFTER_MS : 300);
  }, failed);
}

/** Starts watching the database (once per page). */
export function watchConversationList(): void {
  if (started) return;
  started = true;
  // Drawn at once from the copy kept when last shown; then the first screenful read from the
  // database replaces it, and the whole list after that.
  const kept = readFirstScreen();
  if (kept !== undefined && kept.length > 0) useConversationList.setState({ conversations: kept, complete: false });
  // Opened first, as the watch does: a database that will not open is reported alike by both.
  const read = (): void => void conversationStore().open().then(() => conversationStore().listConversations(FIRST_SCREEN)).then((first) => {
    useConversationList.setState({ conversations: first, complete: first.length < FIRST_SCREEN });
    setTimeout(watchAll, FIRST_PAINT_MS);
  }, (error: unknown) => {
    // The database cannot be read: the list is empty (its callout says why), not loading for ever,
    // and the copy kept from the last time is not shown as if it could be opened.
    useConversationList.setState({ conversations: [], complete: true });
    failed(error);
    watchAll();
  });
  // With a kept copy, the database is read once it is drawn: the read's answer would otherwise
  // land before the first frame and hold it back.
  if (kept !== undefined && kept.length > 0) requestAnimationFrame(() => setTimeout(read, 0));
  else read();
}

/**
 * While a large import writes, the list is not read again after each of its transactions (nor
 * indexed meanwhile): it is read once, and indexed once, when the returned release is called.
 */
export function holdConversationList(): () => void {
  holds++;
  unwatchAll?.();
  unwatchAll = undefined;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
    if (started) watchAll();
  };
}

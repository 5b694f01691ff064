import { deferredStore } from '@/lib/conversations/deferred-store';
import type { Surface } from '@/lib/conversations/records';
import type { ConversationStore } from '@/lib/conversations/store';
import { renderClient } from '@/components/chat/render/render-client';

let loading: Promise<ConversationStore> | undefined;

/**
 * The conversation database, its code (Dexie: a fifth of a page's first script) fetched on first
 * use, so a page paints before it is parsed.
 */
export function loadConversationStore(): Promise<ConversationStore> {
  loading ??= import('@/lib/conversations/store').then(({ ConversationStore }) => new ConversationStore());
  return loading;
}

/**
 * The pages' one handle on the conversation database (the background has its own), each
 * method called once its code has arrived; `close` closes it if it was opened.
 */
const handle = deferredStore({
  current: loadConversationStore,
  close: () => void loading?.then((store) => store.close(), () => undefined),
});

export function conversationStore(): ConversationStore {
  return handle;
}

/**
 * A conversation about to open (a press on its row, a search result chosen): its messages are
 * read from now, and the render worker reads its newest saved renderings meanwhile.
 */
export function preloadConversation(id: string): void {
  void handle.preloadMessages(id);
  renderClient().prefetch(id);
}

/**
 * The surface's most recent conversation, to reopen on. None when the database cannot be read:
 * the surface starts a new conversation, and its chat view says what is wrong.
 */
export function latestConversationId(surface: Surface): Promise<string | undefined> {
  // Opened first: a blocked open is refused rather than left waiting.
  return handle.open().then(() => handle.latestConversation(surface)).then((c) => c?.id, () => undefined);
}

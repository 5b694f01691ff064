import { deferredStore } from '@/lib/conversations/deferred-store';
import type { ConversationStore } from '@/lib/conversations/store';

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

import { ConversationStore } from '@/lib/conversations/store';

let store: ConversationStore | undefined;

/** The pages' one handle on the conversation database (the background has its own). */
export function conversationStore(): ConversationStore {
  store ??= new ConversationStore();
  return store;
}

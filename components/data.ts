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
 * The pages' one handle on the conversation database (the background has its own). Every method
 * is the store's own, called once its code has arrived: those that answer with a promise answer
 * after it; `watch…` returns its unsubscribe at once (a watcher stopped before the store arrived
 * never starts); `close` closes it if it was opened.
 */
const handle = new Proxy({} as ConversationStore, {
  get(_target, name) {
    if (typeof name !== 'string') return undefined;
    type Method = (...args: unknown[]) => unknown;
    const call = (store: ConversationStore, args: unknown[]): unknown => (store[name as keyof ConversationStore] as Method).apply(store, args);
    if (name.startsWith('watch')) {
      return (...args: unknown[]) => {
        let stop: (() => void) | undefined;
        let stopped = false;
        const onError = args[args.length - 1] as (error: unknown) => void;
        loadConversationStore().then((store) => {
          if (!stopped) stop = call(store, args) as () => void;
        }, onError);
        return () => {
          stopped = true;
          stop?.();
        };
      };
    }
    if (name === 'close') return () => void loading?.then((store) => store.close(), () => undefined);
    return (...args: unknown[]) => loadConversationStore().then((store) => call(store, args));
  },
});

export function conversationStore(): ConversationStore {
  return handle;
}

/**
 * The background's conversations when the browser will not open the database (refused, a newer
 * version after a downgrade, blocked) or closes it under the worker (another connection
 * upgraded it): they are kept in memory instead, so the user still chats, without history.
 * The same ConversationStore code, over fake-indexeddb (a pure-JS IndexedDB, bundled: a
 * service worker cannot `import()`).
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { deferredStore } from './deferred-store';
import { storeProblem, type StoreProblem } from './problems';
import { ConversationStore } from './store';

export interface FallbackOptions {
  name?: string;
  /** The real database would not open: from now on, conversations live in memory only. */
  onFallback?(why: { problem: StoreProblem; detail: string }): void;
}

/**
 * A ConversationStore over the real database while it opens, else (for good: writes never split
 * between two databases) over one in memory. A call that failed because the database closed
 * under it is made again in memory.
 */
export function withMemoryFallback({ name = 'gateway-chat', onFallback }: FallbackOptions = {}): ConversationStore {
  const real = new ConversationStore(name);
  let memory: ConversationStore | undefined;
  const current = async (): Promise<ConversationStore> => {
    if (memory !== undefined) return memory;
    try {
      await real.open();
      return real;
    } catch (error) {
      if (memory === undefined) {
        memory = new ConversationStore(name, { indexedDB: new IDBFactory(), IDBKeyRange });
        // Closed for good: it is not tried again behind the memory's back.
        real.close();
        onFallback?.(storeProblem(error));
      }
      return memory;
    }
  };
  return deferredStore({
    current,
    again: async (store) => {
      if (store !== real) return undefined;
      const now = await current();
      return now === real ? undefined : now;
    },
    close: () => {
      real.close();
      memory?.close();
    },
  });
}

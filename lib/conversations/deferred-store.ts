import type { ConversationStore } from './store';

/** Where a deferred store's calls go. */
export interface StoreSource {
  /** The store to call now (loaded on first use, or whichever is in use). */
  current(): Promise<ConversationStore>;
  /** A call failed on `store`: the store to make it again on, or undefined when the failure stands. */
  again?(store: ConversationStore, error: unknown): Promise<ConversationStore | undefined>;
  close(): void;
}

type Method = (...args: unknown[]) => unknown;

/**
 * A ConversationStore whose every method is the store's own, called once `source` has given
 * the store: those that answer with a promise answer after it; `watch…` returns its
 * unsubscribe at once (a watcher stopped before the store arrived never starts, and one whose
 * store never arrives hears why through its last argument, its `onError`).
 */
export function deferredStore(source: StoreSource): ConversationStore {
  // The image store inside (`store.images`) is deferred the same way; its `watch` takes `onError` second.
  const images = deferred<ConversationStore['images']>({
    current: async () => (await source.current()).images,
    again: source.again === undefined ? undefined : async (images, error) => {
      const current = await source.current();
      if (current.images !== images) return current.images;
      return (await source.again?.(current, error))?.images;
    },
    close: () => undefined,
  }, (args) => args[1] as ((error: unknown) => void) | undefined);
  return deferred<ConversationStore>(source, (args) => args[args.length - 1] as (error: unknown) => void, { images });
}

interface Source<T> {
  current(): Promise<T>;
  again?(target: T, error: unknown): Promise<T | undefined>;
  close(): void;
}

function deferred<T extends object>(source: Source<T>, onErrorOf: (args: unknown[]) => ((error: unknown) => void) | undefined, fixed: Record<string, unknown> = {}): T {
  return new Proxy({} as T, {
    get(_target, name) {
      // Not a promise: `await` and `Promise.resolve` take it as it is.
      if (typeof name !== 'string' || name === 'then') return undefined;
      if (name in fixed) return fixed[name];
      const call = (store: T, args: unknown[]): unknown => (store[name as keyof T] as Method).apply(store, args);
      if (name === 'close') return () => source.close();
      if (name.startsWith('watch')) {
        return (...args: unknown[]) => {
          let stop: (() => void) | undefined;
          let stopped = false;
          const onError = onErrorOf(args) ?? (() => undefined);
          source.current().then((store) => {
            if (!stopped) stop = call(store, args) as () => void;
          }, onError);
          return () => {
            stopped = true;
            stop?.();
          };
        };
      }
      return async (...args: unknown[]) => {
        const store = await source.current();
        try {
          return await call(store, args);
        } catch (error) {
          const other = await source.again?.(store, error);
          if (other === undefined) throw error;
          return call(other, args);
        }
      };
    },
  });
}

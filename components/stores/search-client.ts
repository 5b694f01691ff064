import { create } from 'zustand';
import { conversationStore } from '@/components/data';
import type { IndexProgress } from '@/lib/search/indexer';
import type { SearchHit } from '@/lib/search/conversation-index';
import { SearchReplySchema, type SearchReply, type SearchRequest } from '@/lib/search/search-protocol';
import { SearchService, type FoundIn } from '@/lib/search/search-service';

/** The page's search: in a worker where there are workers, in the page otherwise (unit tests). */
export interface SearchClient {
  /** Opens the index ahead of the first search (when the page is idle). */
  open(): void;
  /** The database changed: index what changed. */
  catchUp(): void;
  search(query: string, limit: number): Promise<SearchHit[]>;
  whereFound(query: string, ids: readonly string[]): Promise<Record<string, FoundIn>>;
}

/**
 * The index as the page knows it: `version` grows whenever conversations were indexed (shown
 * results are then asked for again); `pending` conversations are still to be indexed.
 */
export const useSearchIndex = create<{ version: number; pending: number }>(() => ({ version: 0, pending: 0 }));

function indexed(p: IndexProgress): void {
  useSearchIndex.setState((s) => ({ version: s.version + 1, pending: p.of - p.indexed }));
}

function inPage(): SearchClient {
  const service = new SearchService(conversationStore(), { onProgress: indexed });
  return {
    open: () => void service.open().catch(() => undefined),
    catchUp: () => void service.catchUp().catch(() => undefined),
    search: (query, limit) => service.search(query, limit),
    whereFound: (query, ids) => service.whereFound(query, ids),
  };
}

/** A request that is answered, before its number is given. */
type Question = Extract<SearchRequest, { seq: number }> extends infer R ? (R extends unknown ? Omit<R, 'seq'> : never) : never;

function inWorker(): SearchClient {
  const worker = new Worker(new URL('../../lib/search/search.worker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, { resolve(reply: SearchReply): void; reject(error: Error): void }>();
  let seq = 0;
  worker.addEventListener('message', (event: MessageEvent) => {
    const parsed = SearchReplySchema.safeParse(event.data);
    if (!parsed.success) return;
    const reply = parsed.data;
    if (reply.type === 'indexed') {
      indexed(reply);
      return;
    }
    const pending = waiting.get(reply.seq);
    waiting.delete(reply.seq);
    if (reply.type === 'failed') pending?.reject(new Error(reply.detail));
    else pending?.resolve(reply);
  });
  const post = (request: SearchRequest): void => worker.postMessage(request);
  const ask = (request: Question): Promise<SearchReply> => new Promise((resolve, reject) => {
    seq++;
    waiting.set(seq, { resolve, reject });
    post({ ...request, seq });
  });
  return {
    open: () => post({ type: 'open' }),
    catchUp: () => post({ type: 'catchUp' }),
    search: async (query, limit) => {
      const reply = await ask({ type: 'search', query, limit });
      return reply.type === 'hits' ? reply.hits : [];
    },
    whereFound: async (query, ids) => {
      const reply = await ask({ type: 'whereFound', query, ids: [...ids] });
      return reply.type === 'whereFound' ? reply.found : {};
    },
  };
}

let client: SearchClient | undefined;

/** The page's one search client. */
export function searchClient(): SearchClient {
  client ??= typeof Worker === 'undefined' ? inPage() : inWorker();
  return client;
}

import { create } from 'zustand';
import { conversationStore } from '@/components/data';
import type { IndexProgress } from '@/lib/search/indexer';
import type { SearchHit } from '@/lib/search/conversation-index';
import { SearchReplySchema, type SearchReply, type SearchRequest } from '@/lib/search/search-protocol';
import type { FoundIn } from '@/lib/search/search-service';

/** The page's search: in a worker where there are workers, in the page otherwise (unit tests). */
export interface SearchClient {
  /** Opens the index ahead of the first search (when the page is idle). */
  open(): void;
  /** The database changed: index what changed. */
  catchUp(): void;
  /**
   * The ranked hits, and where the words are in the best `snippets` of them (with the hits when
   * their texts were at hand, else a moment later: `where` is then still pending once `hits` is).
   */
  search(query: string, limit: number, snippets: number): { hits: Promise<SearchHit[]>; where: Promise<Record<string, FoundIn>> };
}

/**
 * The index as the page knows it: `version` grows whenever conversations were indexed (shown
 * results are then asked for again); `pending` conversations are still to be indexed.
 */
export const useSearchIndex = create<{ version: number; pending: number }>(() => ({ version: 0, pending: 0 }));

function indexed(p: IndexProgress): void {
  useSearchIndex.setState((s) => ({ version: s.version + 1, pending: p.of - p.indexed }));
}

/** Where there is no worker (unit tests), the index lives in the page: its code is fetched on first use. */
function inPage(): SearchClient {
  const service = import('@/lib/search/search-service').then(({ SearchService }) => new SearchService(conversationStore(), { onProgress: indexed }));
  return {
    open: () => void service.then((s) => s.open()).catch(() => undefined),
    catchUp: () => void service.then((s) => s.catchUp()).catch(() => undefined),
    search: (query, limit, snippets) => {
      const hits = service.then((s) => s.search(query, limit));
      return { hits, where: Promise.all([service, hits]).then(([s, h]) => (snippets > 0 ? s.whereFound(query, h.slice(0, snippets).map((x) => x.id)) : {})) };
    },
  };
}

function inWorker(): SearchClient {
  const worker = new Worker(new URL('../../lib/search/search.worker.ts', import.meta.url), { type: 'module' });
  type Waiting = { resolve(reply: SearchReply): void; reject(error: Error): void };
  /** Per request: who waits for its hits, and for where the words are. */
  const waiting = new Map<number, { hits: Waiting; where?: Waiting }>();
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
    if (pending === undefined) return;
    if (reply.type === 'failed') {
      pending.hits.reject(new Error(reply.detail));
      pending.where?.reject(new Error(reply.detail));
      waiting.delete(reply.seq);
    } else if (reply.type === 'hits') {
      pending.hits.resolve(reply);
      if (reply.found !== undefined) pending.where?.resolve({ type: 'whereFound', seq: reply.seq, found: reply.found });
      if (pending.where === undefined || reply.found !== undefined) waiting.delete(reply.seq);
    } else {
      pending.where?.resolve(reply);
      waiting.delete(reply.seq);
    }
  });
  const post = (request: SearchRequest): void => worker.postMessage(request);
  const deferred = (): { promise: Promise<SearchReply>; waiting: Waiting } => {
    let waiter!: Waiting;
    const promise = new Promise<SearchReply>((resolve, reject) => {
      waiter = { resolve, reject };
    });
    return { promise, waiting: waiter };
  };
  return {
    open: () => post({ type: 'open' }),
    catchUp: () => post({ type: 'catchUp' }),
    search: (query, limit, snippets) => {
      seq++;
      const hits = deferred();
      const where = snippets > 0 ? deferred() : undefined;
      waiting.set(seq, { hits: hits.waiting, ...(where === undefined ? {} : { where: where.waiting }) });
      post({ type: 'search', seq, query, limit, snippets });
      return {
        hits: hits.promise.then((r) => (r.type === 'hits' ? r.hits : [])),
        where: where === undefined ? Promise.resolve({}) : where.promise.then((r) => (r.type === 'whereFound' ? r.found : {})),
      };
    },
  };
}

let client: SearchClient | undefined;

/** Whether this page has asked for its search client yet (the index is then open, or opening). */
export function searchClientStarted(): boolean {
  return client !== undefined;
}

/** The page's one search client. */
export function searchClient(): SearchClient {
  client ??= typeof Worker === 'undefined' ? inPage() : inWorker();
  return client;
}

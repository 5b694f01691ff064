/**
 * A page's search, off its thread: the index is opened (or built), kept current and searched
 * here, and snippets are read here too. The page sends requests and gets replies
 * (search-protocol.ts; the page's side is components/stores/search-client.ts).
 */
import { ConversationStore } from '../conversations/store';
import { SearchRequestSchema, type SearchReply } from './search-protocol';
import { SearchService } from './search-service';

const reply = (message: SearchReply): void => (self as unknown as { postMessage(m: unknown): void }).postMessage(message);
const service = new SearchService(new ConversationStore(), {
  onProgress: (p) => reply({ type: 'indexed', seq: 0, ...p, size: service.indexer.size }),
});
/** How long the hits wait for their snippets, to be drawn with them. */
const SNIPPETS_WAIT_MS = 20;
const failure = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

self.addEventListener('message', (event: MessageEvent) => {
  const parsed = SearchRequestSchema.safeParse(event.data);
  if (!parsed.success) return;
  const request = parsed.data;
  switch (request.type) {
    case 'open':
      void service.open().catch(() => undefined);
      break;
    case 'catchUp':
      void service.catchUp().catch(() => undefined);
      break;
    case 'search':
      // The ranked hits at once; where the words are in the best of them right after, without
      // waiting for the page to ask.
      service.search(request.query, request.limit).then(async (hits) => {
        const best = hits.slice(0, request.snippets).map((h) => h.id);
        if (best.length === 0) {
          reply({ type: 'hits', seq: request.seq, hits });
          return;
        }
        // Snippets found soon (their texts at hand, or a quick read) come with the hits: one
        // answer, drawn once. Else the hits go first and the snippets follow.
        const found = service.whereFound(request.query, best);
        const soon = service.hasTexts(best) ? await found : await Promise.race([found, new Promise<undefined>((resolve) => setTimeout(resolve, SNIPPETS_WAIT_MS))]);
        if (soon !== undefined) {
          reply({ type: 'hits', seq: request.seq, hits, found: soon });
          return;
        }
        reply({ type: 'hits', seq: request.seq, hits });
        reply({ type: 'whereFound', seq: request.seq, found: await found });
      }).catch((error: unknown) => reply({ type: 'failed', seq: request.seq, detail: failure(error) }));
      break;
  }
});

/**
 * Search as the pages use it: ranked conversations from the index, then where in each the words
 * are (the message and a snippet). Runs in a worker for the pages (search.worker.ts), so opening
 * a large index, indexing an import and reading messages for snippets never hold up a page.
 */
import type { ConversationStore, MessageText } from '../conversations/store';
import type { SearchHit } from './conversation-index';
import { SearchIndexer, type IndexProgress } from './indexer';
import { highlightNeedles, matchesIn, searchable, snippetIn, type Searchable, type Snippet } from './tokens';
import { keyedTable } from '../shared/own-keys';

export interface FoundIn {
  /** The message the words are in. */
  messageId: string;
  snippet: Snippet;
}

type Prepared = { id: string } & Searchable;

/** The message that matches best: the most of the query's pieces, the newest among equals. */
export function bestMatch(messages: readonly Prepared[], query: string): FoundIn | undefined {
  const needles = highlightNeedles(query);
  // Counted in every message; the snippet made for the best one only.
  let best: Prepared | undefined;
  let most = 0;
  for (const m of messages) {
    const { matched } = matchesIn(m, needles);
    if (matched > 0 && matched >= most) {
      best = m;
      most = matched;
    }
  }
  const snippet = best === undefined ? undefined : snippetIn(best, needles);
  return best === undefined || snippet === undefined ? undefined : { messageId: best.id, snippet };
}

/**
 * Conversations' texts read for snippets are kept, up to this many characters: the next
 * keystroke of a query mostly finds the same conversations, which are then not read again.
 */
const KEPT_CHARACTERS = 6_000_000;

export class SearchService {
  readonly indexer: SearchIndexer;

  constructor(private readonly store: ConversationStore, options: { saveDelayMs?: number; onProgress?: (p: IndexProgress) => void } = {}) {
    this.indexer = new SearchIndexer(store, options);
  }

  private opened = false;

  /** Opens the saved index (or builds one) and catches up with the database. */
  open(): Promise<void> {
    this.opened = true;
    return this.indexer.open();
  }

  /** Indexes what changed (opening the index first when it is not open yet). */
  catchUp(): Promise<void> {
    return this.opened ? this.indexer.catchUp() : this.open();
  }

  search(query: string, limit?: number): Promise<SearchHit[]> {
    return this.indexer.search(query, limit);
  }

  /** Texts read for snippets, oldest use first, each with the `updatedAt` it was read at. */
  private kept = new Map<string, { updatedAt: number | undefined; messages: Prepared[]; size: number }>();
  private keptSize = 0;

  private isKept(id: string): boolean {
    const entry = this.kept.get(id);
    return entry !== undefined && entry.updatedAt === this.indexer.updatedAtOf(id);
  }

  /** Whether these conversations' texts are at hand (snippets need no read). */
  hasTexts(ids: readonly string[]): boolean {
    return ids.every((id) => this.isKept(id));
  }

  /** Where the words are in each of these conversations (those where they are in a message). */
  async whereFound(query: string, ids: readonly string[]): Promise<Record<string, FoundIn>> {
    const missing = ids.filter((id) => !this.isKept(id));
    if (missing.length > 0) this.keep(await this.store.messageTexts(missing));
    // Keyed by conversation ids, which imported files choose.
    const out = keyedTable<FoundIn>();
    for (const id of ids) {
      const entry = this.kept.get(id);
      if (entry === undefined) continue;
      // Used now: it moves to the newest end.
      this.kept.delete(id);
      this.kept.set(id, entry);
      const found = bestMatch(entry.messages, query);
      if (found !== undefined) out[id] = found;
    }
    return out;
  }

  private keep(read: Map<string, MessageText[]>): void {
    for (const [id, messages] of read) {
      const old = this.kept.get(id);
      if (old !== undefined) this.keptSize -= old.size;
      const prepared = messages.filter((m) => m.text !== '').map((m) => ({ id: m.id, ...searchable(m.text) }));
      const size = prepared.reduce((n, m) => n + m.text.length, 0);
      this.kept.delete(id);
      this.kept.set(id, { updatedAt: this.indexer.updatedAtOf(id), messages: prepared, size });
      this.keptSize += size;
    }
    for (const [id, entry] of this.kept) {
      if (this.keptSize <= KEPT_CHARACTERS) break;
      this.kept.delete(id);
      this.keptSize -= entry.size;
    }
  }
}

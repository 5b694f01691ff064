import { useEffect, useState } from 'react';
import type { Conversation } from '@/lib/conversations/records';
import type { Snippet } from '@/lib/search/tokens';
import { ownValue } from '@/lib/shared/own-keys';
import { useConversationList } from './conversations';
import { searchClient, useSearchIndex } from './search-client';

export interface SearchResult {
  conversation: Conversation;
  /** The message the match is in (absent when only the title matched). */
  messageId?: string;
  snippet?: Snippet;
}

const NONE: readonly Conversation[] = [];
const lookups = new WeakMap<readonly Conversation[], ReadonlyMap<string, Conversation>>();

/**
 * The list by id, made once per list and only when a search needs it (not on every change of a
 * list of thousands during an import, nor on every keystroke).
 */
function byIdOf(list: readonly Conversation[]): ReadonlyMap<string, Conversation> {
  let map = lookups.get(list);
  if (map === undefined) {
    map = new Map(list.map((c) => [c.id, c]));
    lookups.set(list, map);
  }
  return map;
}

/** Results with snippets: about a screenful (the rest show their titles, times and models). */
const WITH_SNIPPETS = 10;

/** Full-text search as you type: ranked conversations, then where in each the words are (undefined while searching). */
export function useConversationSearch(query: string): SearchResult[] | undefined {
  const { results, searching } = useConversationSearchState(query);
  return searching ? undefined : results;
}

/**
 * The same, for a list shown as you type: while the next letter's results are sought, the last
 * ones stay (`searching`), so that rows found again are kept rather than drawn anew each time.
 */
export function useConversationSearchState(query: string): { results: SearchResult[] | undefined; searching: boolean } {
  const conversations = useConversationList((s) => s.conversations);
  // Conversations indexed since (an import, a reply that finished): the results are asked for again.
  const indexVersion = useSearchIndex((s) => s.version);
  const [results, setResults] = useState<{ query: string; results: SearchResult[] }>();
  const trimmed = query.trim();
  // A cleared field forgets the last results: a new search starts from none.
  if (trimmed === '' && results !== undefined) setResults(undefined);
  useEffect(() => {
    if (trimmed === '') return;
    let live = true;
    void (async () => {
      const asked = searchClient().search(trimmed, 50, WITH_SNIPPETS);
      // Failing with the hits (the database cannot be read), it is never awaited: handled here.
      asked.where.catch(() => undefined);
      const hits = await asked.hits;
      // Snippets that came with the hits are drawn with them, in one go.
      const ready = await Promise.race([asked.where, Promise.resolve(undefined)]);
      if (!live) return;
      const byId = byIdOf(conversations ?? NONE);
      const found = hits.flatMap((h) => {
        const conversation = byId.get(h.id);
        return conversation === undefined ? [] : [{ conversation }];
      });
      const withWhere = (where: Awaited<typeof asked.where>): SearchResult[] => found.map((r) => {
        const match = ownValue(where, r.conversation.id);
        return match === undefined ? r : { ...r, ...match };
      });
      if (ready !== undefined) {
        setResults({ query: trimmed, results: withWhere(ready) });
        return;
      }
      setResults({ query: trimmed, results: found });
      const where = await asked.where;
      if (!live || Object.keys(where).length === 0) return;
      setResults({ query: trimmed, results: withWhere(where) });
    })().catch(() => {
      // The database cannot be read (its callout says so): no results, not "Searching…" for ever.
      if (live) setResults({ query: trimmed, results: [] });
    });
    return () => {
      live = false;
    };
  }, [trimmed, conversations, indexVersion]);
  return trimmed === '' ? { results: undefined, searching: false } : { results: results?.results, searching: results?.query !== trimmed };
}

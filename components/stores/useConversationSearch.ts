import { useEffect, useState } from 'react';
import { conversationStore } from '@/components/data';
import type { Conversation, Message } from '@/lib/conversations/records';
import { snippet, type Snippet } from '@/lib/search/tokens';
import { searchIndexer, useConversationList } from './conversations';

export interface SearchResult {
  conversation: Conversation;
  /** The message the match is in (absent when only the title matched). */
  messageId?: string;
  snippet?: Snippet;
}

/** Results with snippets are read for the first few; the rest show their titles. */
const WITH_SNIPPETS = 20;

/** The message that matches best: the most marks, the newest among equals. */
function bestMatch(messages: readonly Message[], query: string): { messageId: string; snippet: Snippet } | undefined {
  let best: { messageId: string; snippet: Snippet } | undefined;
  for (const m of messages) {
    const s = snippet(m.text, query);
    if (s !== undefined && (best === undefined || s.marks.length >= best.snippet.marks.length)) best = { messageId: m.id, snippet: s };
  }
  return best;
}

/** Full-text search as you type: ranked conversations, then where in each the words are. */
export function useConversationSearch(query: string): SearchResult[] | undefined {
  const conversations = useConversationList((s) => s.conversations);
  const [results, setResults] = useState<{ query: string; results: SearchResult[] }>();
  const trimmed = query.trim();
  useEffect(() => {
    if (trimmed === '') return;
    let live = true;
    void (async () => {
      const hits = await searchIndexer().search(trimmed, 50);
      if (!live) return;
      const byId = new Map((conversations ?? []).map((c) => [c.id, c]));
      const found = hits.flatMap((h) => {
        const conversation = byId.get(h.id);
        return conversation === undefined ? [] : [{ conversation }];
      });
      setResults({ query: trimmed, results: found });
      const top = found.slice(0, WITH_SNIPPETS);
      if (top.length === 0) return;
      const messages = await conversationStore().messagesOf(top.map((r) => r.conversation.id));
      if (!live) return;
      setResults({
        query: trimmed,
        results: found.map((r) => {
          const match = bestMatch(messages.get(r.conversation.id) ?? [], trimmed);
          return match === undefined ? r : { ...r, ...match };
        }),
      });
    })();
    return () => {
      live = false;
    };
  }, [trimmed, conversations]);
  return trimmed === '' ? undefined : results?.query === trimmed ? results.results : undefined;
}

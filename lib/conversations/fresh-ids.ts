/**
 * Imported messages under ids of their own. Message ids are unique across the whole database
 * (one table, one key), but a file's ids are the file's: a conversation imported with an id
 * another conversation's message already has would take that message over the moment it is
 * unpacked. Such a message gets a new id, and everything that names it (its children's
 * `parentId`, the conversation's `leafId`, an open comparison's ids, legacy `<id>~v<n>`
 * version ids) follows, so the tree stays the same tree.
 */
import { isLegacyVersion, recordIdOf } from './branches';
import { newId } from './ids';
import type { Conversation, Message } from './records';

export interface ImportedItem {
  conversation: Conversation;
  messages: Message[];
}

/**
 * The conversation with a new id for each message whose id is `taken` (by another
 * conversation); the same object when none is.
 */
export function withFreshIds<T extends ImportedItem>(item: T, taken: (id: string) => boolean): T {
  const fresh = new Map<string, string>();
  for (const m of item.messages) if (!fresh.has(m.id) && taken(m.id)) fresh.set(m.id, newId());
  if (fresh.size === 0) return item;
  const rename = (id: string): string => {
    const direct = fresh.get(id);
    if (direct !== undefined) return direct;
    if (!isLegacyVersion(id)) return id;
    // `<id>~v<n>`: an earlier inline version of a renamed record keeps its number.
    const record = recordIdOf(id);
    const renamed = fresh.get(record);
    return renamed === undefined ? id : `${renamed}${id.slice(record.length)}`;
  };
  const messages = item.messages.map((m) => {
    const id = rename(m.id);
    const parentId = m.parentId === undefined || m.parentId === null ? m.parentId : rename(m.parentId);
    return id === m.id && parentId === m.parentId ? m : { ...m, id, ...(parentId === undefined ? {} : { parentId }) };
  });
  const { leafId, compare } = item.conversation;
  const conversation: Conversation = { ...item.conversation };
  if (leafId !== undefined) conversation.leafId = rename(leafId);
  if (compare !== undefined) conversation.compare = { userId: rename(compare.userId), replyIds: compare.replyIds.map(rename) };
  return { ...item, conversation, messages };
}

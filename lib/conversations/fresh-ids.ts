/**
 * Imported messages under ids of their own. Message ids are unique across the whole database
 * (one table, one key), but a file's ids are the file's: a conversation imported with an id
 * another conversation's message already has would take that message over the moment it is
 * unpacked. Such a message gets a new id, and everything that names it (its children's
 * `parentId`, the conversation's `leafId`, an open comparison's ids, legacy `<id>~v<n>`
 * version ids) follows, so the tree stays the same tree. Images are named by id too (one table,
 * one key): an image whose id another conversation's image has, or whose message got a new id,
 * gets a new one, and its message's `imageIds` and text references (`gc-image:{id}`) follow.
 */
import { isLegacyVersion, recordIdOf } from './branches';
import { newId } from './ids';
import type { Conversation, Message } from './records';
import { IMAGE_REF_SCHEME, type ImageRecord } from '../images/types';

export interface ImportedItem {
  conversation: Conversation;
  messages: Message[];
  images?: ImageRecord[];
}

/**
 * The conversation with a new id for each message whose id is `taken` (by another
 * conversation); the same object when none is.
 */
export function withFreshIds<T extends ImportedItem>(item: T, taken: (id: string) => boolean, imageTaken: (id: string) => boolean = () => false): T {
  const fresh = new Map<string, string>();
  for (const m of item.messages) if (!fresh.has(m.id) && taken(m.id)) fresh.set(m.id, newId());
  const freshImages = new Map<string, string>();
  for (const image of item.images ?? []) {
    if (!freshImages.has(image.id) && (fresh.has(image.messageId) || imageTaken(image.id))) freshImages.set(image.id, newId());
  }
  if (fresh.size === 0 && freshImages.size === 0) return item;
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
    const images = freshImages.size === 0 ? undefined : renamedImages(m, freshImages);
    if (id === m.id && parentId === m.parentId && images === undefined) return m;
    return { ...m, id, ...(parentId === undefined ? {} : { parentId }), ...images };
  });
  const { leafId, compare } = item.conversation;
  const conversation: Conversation = { ...item.conversation };
  if (leafId !== undefined) conversation.leafId = rename(leafId);
  if (compare !== undefined) conversation.compare = { userId: rename(compare.userId), replyIds: compare.replyIds.map(rename) };
  const images = item.images?.map((image) => {
    const id = freshImages.get(image.id) ?? image.id;
    const messageId = rename(image.messageId);
    return id === image.id && messageId === image.messageId ? image : { ...image, id, messageId };
  });
  return { ...item, conversation, messages, ...(images === undefined ? {} : { images }) };
}

/** A message's image ids and text references under the images' new ids; undefined when it names none of them. */
function renamedImages(m: Message, fresh: ReadonlyMap<string, string>): Pick<Message, 'imageIds' | 'text'> | undefined {
  const named = m.imageIds?.some((id) => fresh.has(id)) === true;
  const referred = m.text.includes(IMAGE_REF_SCHEME);
  if (!named && !referred) return undefined;
  const out: Pick<Message, 'imageIds' | 'text'> = { text: m.text };
  if (m.imageIds !== undefined) out.imageIds = m.imageIds.map((id) => fresh.get(id) ?? id);
  if (referred) out.text = m.text.replace(/gc-image:([A-Za-z0-9_-]+)/g, (ref, id: string) => {
    const renamed = fresh.get(id);
    return renamed === undefined ? ref : `${IMAGE_REF_SCHEME}${renamed}`;
  });
  return out;
}

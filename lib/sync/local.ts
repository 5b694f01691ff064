/**
 * Between this device's saved conversations and the merged sync state (README.md), as plans: the
 * changes this device has made since the state last saw it, and the updates the merged state asks
 * of the local database. Pure functions over records; the store applies the plans.
 *
 * A round: plan this device's changes against the state as it was when the database last matched
 * it, and apply them to the state; merge what arrived; then plan and apply the local updates, so
 * the database matches the state again. Deletions are not guessed from absence (a conversation
 * may be missing here because its fields have not arrived yet): the store says which it deleted.
 */
import { ConversationSchema, type Conversation, type Message } from '@/lib/conversations/records';
import type { Change } from './changes';
import type { ExportedImage } from '@/lib/transfer/history-file';
import { isAlive, type MergedView, type SyncState } from './merge';

/** The conversation fields that sync (the rest is this device's own: the reply status). */
export const SYNCED_CONVERSATION_FIELDS = ['title', 'createdAt', 'updatedAt', 'profileId', 'model', 'surface', 'source', 'leafId', 'settings', 'pinned', 'compare'] as const;

export interface LocalRecords {
  conversations: readonly Conversation[];
  messages: readonly Message[];
  /** The images the database holds (their ids), when images sync. */
  imageIds?: ReadonlySet<string>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The changes that bring the merged state up to this device's records (and its deletions since the
 * last round, `deletedHere`), each stamped by `stamp()`.
 */
export function planLocalChanges(local: LocalRecords, state: SyncState, stamp: () => string, deletedHere: readonly string[] = [], deferred: readonly string[] = []): Change[] {
  const changes: Change[] = [];
  const localIds = new Set<string>();
  const busy = streamingConversations(local);
  const behind = new Set(deferred);
  const deleting = new Set(deletedHere);
  // Conversations here that the state says were deleted, and that this device has not been told
  // to delete (Undo after the deletion synced, a turn added while it was being deleted
  // elsewhere): they come back, whole, on every device.
  const back = new Set(local.conversations.filter((c) => !busy.has(c.id) && !behind.has(c.id) && !deleting.has(c.id) && state.tombstones.has(`conversation:${c.id}`) && !isAlive(state, 'conversation', c.id)).map((c) => c.id));
  for (const conversation of local.conversations) {
    localIds.add(conversation.id);
    // A conversation whose reply is still streaming waits (its title, branch and time are about
    // to change with it): it syncs, whole, once the reply ends.
    if (busy.has(conversation.id)) continue;
    const fields = state.fields.get(`conversation:${conversation.id}`);
    for (const field of SYNCED_CONVERSATION_FIELDS) {
      const value = conversation[field];
      const known = fields?.get(field);
      if (back.has(conversation.id)) {
        // Stamped anew, so it is newer than the deletion.
        if (value !== undefined) changes.push({ type: 'field', stamp: stamp(), kind: 'conversation', id: conversation.id, field, value });
        continue;
      }
      if (known === undefined ? value === undefined : same(value, known.value)) continue;
      // Held back while its reply streamed (`LocalUpdates.deferred`): a value the state has since
      // replaced is not an edit made here, it is what the database still holds.
      if (behind.has(conversation.id) && known !== undefined && known.history.some((h) => same(h.value, value))) continue;
      changes.push({ type: 'field', stamp: stamp(), kind: 'conversation', id: conversation.id, field, value: value ?? null });
    }
  }
  // A message syncs once its conversation has no reply streaming.
  for (const message of local.messages) {
    if (busy.has(message.conversationId)) continue;
    // A conversation coming back sends its messages again: the devices that deleted it have lost them.
    if (state.messages.has(message.id) && !back.has(message.conversationId)) continue;
    changes.push({ type: 'message', stamp: stamp(), message });
  }
  for (const id of new Set(deletedHere)) {
    if (localIds.has(id) || !isAlive(state, 'conversation', id)) continue;
    changes.push({ type: 'delete', stamp: stamp(), kind: 'conversation', id });
  }
  return changes;
}

/** The conversations with a reply still streaming on this device. */
function streamingConversations(local: LocalRecords): Set<string> {
  return new Set(local.messages.filter((m) => m.status === 'streaming').map((m) => m.conversationId));
}

export interface LocalUpdates {
  putConversations: Conversation[];
  putMessages: Message[];
  deleteConversations: string[];
  /**
   * Conversations streaming here whose merged record differs from the database's: left as they
   * are this round; the next round's `planLocalChanges` is told (they are behind, not edited).
   */
  deferred: string[];
  /** Images from elsewhere the database does not have. */
  putImages: ExportedImage[];
}

/** What the local database must change to hold the merged state. */
export function planLocalUpdates(view: MergedView, local: LocalRecords): LocalUpdates {
  const conversations = new Map(local.conversations.map((c) => [c.id, c]));
  const messageIds = new Set(local.messages.map((m) => m.id));
  const putConversations: Conversation[] = [];
  const deferred: string[] = [];
  // A conversation streaming here is left alone until its reply ends (what arrived for it waits in the state).
  const busy = streamingConversations(local);
  for (const record of view.records) {
    if (record.kind !== 'conversation') continue;
    const here = conversations.get(record.id);
    const merged: Record<string, unknown> = { ...here, id: record.id };
    for (const field of SYNCED_CONVERSATION_FIELDS) {
      if (!(field in record.fields)) continue;
      const value = record.fields[field];
      if (value === null) delete merged[field];
      else merged[field] = value;
    }
    // Not whole yet (its fields are in a segment still to come): left as it is until they are.
    const parsed = ConversationSchema.safeParse(merged);
    if (!parsed.success) continue;
    if (here !== undefined && same(here, parsed.data)) continue;
    if (busy.has(record.id)) deferred.push(record.id);
    else putConversations.push(parsed.data);
  }
  const putMessages: Message[] = [];
  // Messages from elsewhere are written even to a conversation streaming here: they are new
  // versions beside what streams, and the state keeps no copy once the database has them.
  for (const list of view.messages.values()) for (const message of list) if (!messageIds.has(message.id)) putMessages.push(message);
  const deleteConversations = view.deleted.filter((d) => d.kind === 'conversation' && conversations.has(d.id) && !busy.has(d.id)).map((d) => d.id);
  const putImages = view.images.filter((image) => local.imageIds !== undefined && !local.imageIds.has(image.id));
  return { putConversations, putMessages, deleteConversations, deferred, putImages };
}

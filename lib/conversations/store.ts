/**
 * Conversations and messages in IndexedDB through Dexie, shared by every surface (the
 * background writes while a run streams; pages read and watch). Records are parsed on read.
 */
import * as z from 'zod/mini';
import Dexie, { liveQuery, type DexieOptions, type Table } from 'dexie';
import { ConversationSchema, MessageSchema, type Comparison, type Conversation, type ConversationSettings, type Message, type Surface } from './records';
import { buildTree, isLegacyVersion, parentIdOf, recordIdOf, subtree } from './branches';
import { newId } from './ids';
import { withFreshIds } from './fresh-ids';
import { openOrRefuse } from './open';
import { RenderCache } from '../render/cache';
import { ImageStore, imagesOfConversations, imagesOfMessages, parseImages } from '../images/store';
import type { ImageRecord } from '../images/types';
import { SharedWatches } from './shared-watches';

class GatewayChatDb extends Dexie {
  conversations!: Table<Conversation, string>;
  messages!: Table<Message, string>;
  /** The search index as saved (lib/search), one row. */
  search!: Table<{ id: string; index: unknown; watermark: number }, string>;
  /** Imported conversations' messages, a few rows per conversation (see `PackRow`). */
  packs!: Table<PackRow, string>;
  /** Images as Blobs (lib/images/store.ts), each named by the message that holds it. */
  images!: Table<ImageRecord, string>;
  /** Conversations deleted here, for sync to tell the other devices (lib/sync/local.ts). */
  syncDeletions!: Table<{ id: string; at: number }, string>;

  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({
      conversations: 'id, updatedAt, surface',
      messages: 'id, conversationId, [conversationId+seq], status',
    });
    this.version(2).stores({ search: 'id' });
    this.version(3).stores({ packs: 'id, conversationId, *ids' });
    this.version(4).stores({ images: 'id, conversationId, messageId, createdAt' });
    this.version(5).stores({ syncDeletions: 'id' });
  }
}

/**
 * Messages of an imported conversation, saved together. Writing a row costs far more than
 * writing its bytes (20,000 small rows take about two seconds), so an import of 200,000
 * messages writes them as about 10,000 packs instead. A conversation's messages are either all
 * its own rows or all in packs: before anything changes one of them, the conversation is
 * unpacked (`unpack`), and from then on it is like any other.
 */
interface PackRow {
  /** `{conversationId}/{n}`, n zero-padded: a conversation's packs read in order. */
  id: string;
  conversationId: string;
  /** Ids of the messages inside (a message found by id without knowing its conversation). */
  ids: string[];
  /** Message records as saved, in order. */
  messages: unknown[];
}

/** A pack stays below this many characters, under the size at which the browser writes a value to a file of its own. */
const PACK_CHARS = 30_000;
const PACK_MESSAGES = 200;

/** A conversation's messages, as packs. */
function packsOf(conversationId: string, messages: readonly Message[]): PackRow[] {
  const packs: PackRow[] = [];
  let current: PackRow | undefined;
  let chars = 0;
  for (const message of messages) {
    const size = 200 + message.text.length + message.reasoning.length
      + (message.images ?? []).reduce((n, image) => n + image.length, 0)
      + (message.files ?? []).reduce((n, file) => n + file.text.length, 0)
      + (message.versions ?? []).reduce((n, v) => n + v.text.length + v.reasoning.length, 0);
    if (current === undefined || (current.messages.length > 0 && (chars + size > PACK_CHARS || current.messages.length >= PACK_MESSAGES))) {
      current = { id: `${conversationId}/${String(packs.length).padStart(5, '0')}`, conversationId, ids: [], messages: [] };
      packs.push(current);
      chars = 0;
    }
    current.ids.push(message.id);
    current.messages.push(message);
    chars += size;
  }
  return packs;
}

/** Message rows by conversation: a conversation's own rows, else (packed) its packs' messages. */
function byConversation(conversationIds: readonly string[], rows: readonly { conversationId: string }[], packs: readonly PackRow[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>(conversationIds.map((id) => [id, []]));
  for (const row of rows) out.get(row.conversationId)?.push(row);
  const packed = new Set(conversationIds.filter((id) => out.get(id)!.length === 0));
  for (const pack of [...packs].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (packed.has(pack.conversationId) && Array.isArray(pack.messages)) out.get(pack.conversationId)!.push(...pack.messages);
  }
  return out;
}

/** What search snippets read of a message. */
const MessageTextSchema = z.object({ id: z.string(), conversationId: z.string(), seq: z.number(), text: z.string(), versions: z.optional(z.array(z.object({ text: z.string() }))) });
export type MessageText = z.infer<typeof MessageTextSchema>;

/** Rows that parse, and how many did not (damaged, or written by a newer version). */
export interface Checked<T> {
  items: T[];
  unreadable: number;
}

function parseAll<T>(rows: unknown[], schema: { safeParse(v: unknown): { success: boolean; data?: T } }): Checked<T> {
  const items: T[] = [];
  let unreadable = 0;
  for (const row of rows) {
    const parsed = schema.safeParse(row);
    if (parsed.success) items.push(parsed.data as T);
    else unreadable++;
  }
  return { items, unreadable };
}

/** How long a preloaded conversation's read waits for its view (a press is followed by its click within a second or so). */
const PRELOAD_HOLD_MS = 5_000;

/** Rows read per request when reading a whole table. */
const ROWS_PER_READ = 1_000;

/** Rows checked per slice: a slice takes a few milliseconds. */
const SLICE = 1_500;

/** `parseAll` a slice at a time, yielding between slices; undefined when `superseded` says to stop. */
async function parseInSlices<T>(rows: unknown[], schema: { safeParse(v: unknown): { success: boolean; data?: T } }, superseded: () => boolean): Promise<Checked<T> | undefined> {
  if (rows.length <= SLICE) return parseAll<T>(rows, schema);
  const items: T[] = [];
  let unreadable = 0;
  for (let i = 0; i < rows.length; i += SLICE) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    if (superseded()) return undefined;
    const part = parseAll<T>(rows.slice(i, i + SLICE), schema);
    items.push(...part.items);
    unreadable += part.unreadable;
  }
  return { items, unreadable };
}

/** An id held by more than one conversation (saved before imports took ids of their own): nobody's to take. */
const SEVERAL_HOLDERS = Symbol('several conversations');
/** Which conversation holds each message id (see `importConversations`). */
export type MessageHolders = Map<string, string | typeof SEVERAL_HOLDERS>;

export interface DeletedConversation {
  conversation: Conversation;
  messages: Message[];
  /** Its images, put back with it. */
  images?: ImageRecord[];
}

/** A question and reply deleted together, with what Undo needs. */
export interface RemovedPair {
  conversation: Conversation | undefined;
  removed: Message[];
  /** Messages whose parent changed, with the parent they had. */
  restoreParents: { id: string; parentId: string | null | undefined }[];
  /** The images the removed messages held, put back with them. */
  images?: ImageRecord[];
}


export interface NewConversation {
  id?: string;
  profileId: string;
  model: string;
  surface: Surface;
  title: string;
  source?: Conversation['source'];
}

/**
 * What a turn does to the conversation's open comparison: opens one (a question sent to several
 * models), puts a column's new version in the place of the one asked again, or closes it (a new
 * question continues from the reply shown).
 */
export type CompareChange = { open: Comparison } | { swap: [string, string] } | 'close';

/** A new conversation's record, as it will be saved. */
export function conversationRecord(input: NewConversation, now: number): Conversation {
  const { id, source, ...rest } = input;
  return { id: id ?? newId(), createdAt: now, updatedAt: now, ...rest, ...(source === undefined ? {} : { source }) };
}

export class ConversationStore {
  private readonly db: GatewayChatDb;
  /** Saved renderings of these messages (lib/render/cache.ts): forgotten with what they show. */
  private readonly renderings: RenderCache;
  /** Images, by id; they go with their conversation (deleted, restored, replaced by an import). */
  readonly images: ImageStore;
  /** Each conversation's messages, read once however many views (and a preload) watch them. */
  private readonly messageWatches = new SharedWatches<Checked<Message>>((id, next, fail) => this.live(() => this.readMessages(id), next, fail));

  /** `indexedDB` and `IDBKeyRange`: another IndexedDB than the browser's (the background's in-memory fallback). */
  constructor(name = 'gateway-chat', options?: Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange'>) {
    this.db = new GatewayChatDb(name, options);
    this.renderings = new RenderCache(`${name}-renderings`, options);
    this.images = new ImageStore(this.db.images, () => this.open());
  }

  /**
   * Forgets saved renderings of what was deleted. After the deletion, and apart from it: they can
   * be made again, so their database failing (refused, full) never fails a deletion, and the next
   * open of a message checks that a rendering was made from its text anyway.
   */
  private async forgetRenderings(forget: (cache: RenderCache) => Promise<void>): Promise<void> {
    try {
      await forget(this.renderings);
    } catch {
      // Nothing to do: see above.
    }
  }

  /** Opens the database now; rejects when it will not open (refused, newer, blocked). */
  open(): Promise<void> {
    return openOrRefuse(this.db);
  }

  async createConversation(input: NewConversation): Promise<Conversation> {
    const conversation = conversationRecord(input, Date.now());
    await this.db.conversations.add(conversation);
    return conversation;
  }

  /**
   * A new turn in one transaction, so pages watching see it as one change (one re-read, not
   * three) and the request goes out sooner: the conversation created (`created`) or moved to
   * its turn's model and profile, and the turn's messages.
   */
  async addTurn(turn: { conversation: Conversation; created: boolean; messages: Message[]; compare?: CompareChange }): Promise<void> {
    const now = Date.now();
    const reply = turn.messages.findLast((m) => m.role === 'assistant');
    const status = reply === undefined ? {} : { replyStatus: reply.status };
    await this.db.transaction('rw', this.db.messages, this.db.packs, this.db.conversations, async () => {
      if (turn.created) await this.db.conversations.add({ ...turn.conversation, updatedAt: now, ...status });
      else {
        const { model, profileId, leafId } = turn.conversation;
        await this.unpack(turn.conversation.id);
        const change: Partial<Conversation> = { model, profileId, updatedAt: now, ...status, ...(leafId === undefined ? {} : { leafId }) };
        const compare = turn.compare;
        if (compare === 'close') change.compare = undefined;
        else if (compare !== undefined && 'open' in compare) change.compare = compare.open;
        else if (compare !== undefined) {
          // Read here, in the transaction: two columns asked again at once both land.
          const open = (await this.getConversation(turn.conversation.id))?.compare;
          if (open !== undefined) change.compare = { ...open, replyIds: open.replyIds.map((id) => (id === compare.swap[0] ? compare.swap[1] : id)) };
        }
        await this.db.conversations.update(turn.conversation.id, change);
      }
      await this.db.messages.bulkAdd(turn.messages);
    });
  }

  /**
   * "Continue with this one": a compared reply becomes the conversation's answer (its model the
   * conversation's), the others stay as its versions, and the comparison closes.
   */
  async continueWith(conversationId: string, replyId: string): Promise<void> {
    await this.db.transaction('rw', this.db.messages, this.db.packs, this.db.conversations, async () => {
      const reply = await this.getMessage(replyId);
      if (reply === undefined || reply.conversationId !== conversationId) return;
      await this.db.conversations.update(conversationId, { leafId: replyId, compare: undefined, ...(reply.model === undefined ? {} : { model: reply.model }) });
    });
  }

  async getConversation(id: string): Promise<Conversation | undefined> {
    const row = await this.db.conversations.get(id);
    const parsed = ConversationSchema.safeParse(row);
    return parsed.success ? parsed.data : undefined;
  }

  async updateConversation(id: string, patch: Partial<Omit<Conversation, 'id'>>): Promise<void> {
    await this.db.conversations.update(id, { ...patch, updatedAt: Date.now() });
  }

  /** The most recently updated conversation of a surface (the popup reopens on it). */
  async latestConversation(surface: Surface): Promise<Conversation | undefined> {
    const rows = await this.db.conversations.where('surface').equals(surface).toArray();
    const list = parseAll<Conversation>(rows, ConversationSchema).items;
    return list.sort((a, b) => b.updatedAt - a.updatedAt)[0];
  }

  /** Newest first; `limit` for a first screenful before the whole list. */
  async listConversations(limit?: number): Promise<Conversation[]> {
    return (await this.readConversations(limit)).items;
  }

  private async readConversations(limit?: number): Promise<Checked<Conversation>> {
    const newest = this.db.conversations.orderBy('updatedAt').reverse();
    const rows = await (limit === undefined ? newest : newest.limit(limit)).toArray();
    return parseAll<Conversation>(rows, ConversationSchema);
  }

  async messages(conversationId: string): Promise<Message[]> {
    return (await this.readMessages(conversationId)).items;
  }

  private async readMessages(conversationId: string): Promise<Checked<Message>> {
    return parseAll<Message>(await this.rowsOf(conversationId), MessageSchema);
  }

  /** A conversation's message rows as saved, in order: its own, or its packs'. */
  private async rowsOf(conversationId: string): Promise<unknown[]> {
    // One transaction: an unpacking in between is never seen as a conversation without messages.
    return (await this.db.transaction('r', this.db.messages, this.db.packs, () => this.readRows([conversationId]))).get(conversationId)!;
  }

  /**
   * Message rows of these conversations, in order (inside a transaction on messages and packs).
   * Every read is asked for at once, each a range read in one go (`anyOf` would walk a cursor
   * row by row, and nested transactions wait for each other).
   */
  private async readRows(conversationIds: readonly string[]): Promise<Map<string, unknown[]>> {
    const [rows, packs] = await Promise.all([
      Promise.all(conversationIds.map((id) => this.db.messages.where('[conversationId+seq]').between([id, Dexie.minKey], [id, Dexie.maxKey]).toArray())),
      Promise.all(conversationIds.map((id) => this.db.packs.where('conversationId').equals(id).toArray())),
    ]);
    return byConversation(conversationIds, rows.flat(), packs.flat());
  }

  /** A message's saved row, its own or inside a pack. */
  private async rowOf(id: string): Promise<unknown> {
    return this.db.transaction('r', this.db.messages, this.db.packs, async () => {
      const row = await this.db.messages.get(id);
      if (row !== undefined) return row;
      const pack = await this.db.packs.where('ids').equals(id).first();
      return pack?.messages.find((m) => (m as { id?: unknown }).id === id);
    });
  }

  /**
   * A packed conversation's messages become its own rows again, before anything changes one of
   * them (inside a transaction on messages and packs). Nothing to do for any other.
   */
  private async unpack(conversationId: string): Promise<void> {
    const packs = this.db.packs.where('conversationId').equals(conversationId);
    const messages = byConversation([conversationId], [], await packs.toArray()).get(conversationId)! as Message[];
    if (messages.length === 0) return;
    const others = await this.heldByOthers(messages);
    let own = messages;
    if (others.size > 0) {
      // Only files imported before imports took ids of their own hold such a message: it is never
      // written over the other conversation's, and keeps its place in its own tree under a new id.
      const conversation = await this.getConversation(conversationId);
      if (conversation === undefined) own = messages.filter((m) => !others.has(m.id));
      else {
        const renamed = withFreshIds({ conversation, messages }, (id) => others.has(id));
        own = renamed.messages;
        await this.db.conversations.update(conversationId, { leafId: renamed.conversation.leafId, compare: renamed.conversation.compare });
      }
    }
    await this.db.messages.bulkPut(own);
    await packs.delete();
  }

  /** The ids of these messages that another conversation's row holds (inside a transaction on messages). */
  private async heldByOthers(messages: readonly Message[]): Promise<Set<string>> {
    const stored = await this.db.messages.bulkGet(messages.map((m) => m.id));
    return new Set(messages.filter((m, i) => stored[i] !== undefined && stored[i].conversationId !== m.conversationId).map((m) => m.id));
  }

  /** The messages whose ids no other conversation's row holds: a message is never written over another conversation's. */
  private async notOthers(messages: readonly Message[]): Promise<Message[]> {
    const others = await this.heldByOthers(messages);
    return others.size === 0 ? [...messages] : messages.filter((m) => !others.has(m.id));
  }

  /**
   * The conversation that holds each of these message ids, in rows or in packs (inside a
   * transaction on messages and packs). Read by key only: an import's ids are rarely here.
   */
  private async holdersOf(ids: readonly string[]): Promise<MessageHolders> {
    const holders: MessageHolders = new Map();
    const hold = (id: string, conversationId: string): void => {
      const held = holders.get(id);
      holders.set(id, held === undefined || held === conversationId ? conversationId : SEVERAL_HOLDERS);
    };
    if (ids.length === 0) return holders;
    const [rows] = await Promise.all([
      this.db.messages.where(':id').anyOf([...ids]).toArray(),
      // A pack's key is `{conversationId}/{n}`: its conversation, without reading the pack.
      this.db.packs.where('ids').anyOf([...ids]).eachPrimaryKey((key, cursor) => hold(String(cursor.key), key.slice(0, key.lastIndexOf('/')))),
    ]);
    for (const row of rows) hold(row.id, row.conversationId);
    return holders;
  }

  /** Changes a message's row (unpacking its conversation first where it is packed); false where there is none. */
  private async updateRow(id: string, patch: Partial<Omit<Message, 'id' | 'conversationId'>>): Promise<boolean> {
    if (await this.db.messages.update(id, patch) > 0) return true;
    const pack = await this.db.packs.where('ids').equals(id).first();
    if (pack === undefined) return false;
    await this.unpack(pack.conversationId);
    return await this.db.messages.update(id, patch) > 0;
  }

  async getMessage(id: string): Promise<Message | undefined> {
    const parsed = MessageSchema.safeParse(await this.rowOf(id));
    return parsed.success ? parsed.data : undefined;
  }

  async addMessage(message: Message): Promise<void> {
    await this.db.transaction('rw', this.db.messages, this.db.packs, this.db.conversations, async () => {
      await this.unpack(message.conversationId);
      await this.db.messages.add(message);
      await this.db.conversations.update(message.conversationId, { updatedAt: Date.now(), ...(message.role === 'assistant' ? { replyStatus: message.status } : {}) });
    });
  }

  /** The text so far of replies streaming together (a comparison's), in one write. */
  async updateMessageTexts(texts: readonly { id: string; text: string; reasoning: string }[]): Promise<void> {
    if (texts.length === 1) return this.updateMessage(texts[0]!.id, { text: texts[0]!.text, reasoning: texts[0]!.reasoning });
    await this.db.messages.bulkUpdate(texts.map(({ id, text, reasoning }) => ({ key: id, changes: { text, reasoning } })));
  }

  /** Saves a change to a message; a reply's new status is noted on its conversation too. */
  async updateMessage(id: string, patch: Partial<Omit<Message, 'id' | 'conversationId'>>): Promise<void> {
    // A streaming reply's text, every half second: one row, nothing else read.
    if (patch.status === undefined && await this.db.messages.update(id, patch) > 0) return;
    await this.db.transaction('rw', this.db.messages, this.db.packs, this.db.conversations, async () => {
      await this.updateRow(id, patch);
      if (patch.status !== undefined) await this.noteReplyStatus([id], patch.status);
    });
  }

  /** The conversations of these replies show `status` in the list (inside a transaction on both tables). */
  private async noteReplyStatus(messageIds: readonly string[], status: Message['status']): Promise<void> {
    const messages = await this.db.messages.bulkGet([...messageIds]);
    const conversations = new Set(messages.filter((m): m is Message => m !== undefined && m.role === 'assistant').map((m) => m.conversationId));
    for (const conversationId of conversations) await this.db.conversations.update(conversationId, { replyStatus: status });
  }

  /** Shows the branch through this message (a version chosen with ‹ ›); no other change. */
  async selectVersion(conversationId: string, messageId: string): Promise<void> {
    await this.db.conversations.update(conversationId, { leafId: messageId });
  }

  /** The conversation's own settings (undefined: all follow the global ones). */
  async setConversationSettings(id: string, settings: ConversationSettings | undefined): Promise<void> {
    await this.db.conversations.update(id, { settings });
  }

  async setPinned(id: string, pinned: boolean): Promise<void> {
    await this.db.conversations.update(id, { pinned });
  }

  /**
   * Deletes a question and its reply as shown (with the reply's other versions): what followed
   * the reply now follows the question's parent. Returns what Undo needs to put it back.
   */
  async deletePair(userMessageId: string, replyId: string | undefined): Promise<RemovedPair | undefined> {
    return this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images], async () => {
      const question = await this.getMessage(userMessageId);
      if (question === undefined) return undefined;
      await this.unpack(question.conversationId);
      const all = await this.messages(question.conversationId);
      const tree = buildTree(all);
      const parent = parentIdOf(tree, question.id);
      const gone = subtree(tree, question.id).filter((m) => !isLegacyVersion(m.id));
      const shownReply = replyId === undefined ? undefined : tree.byId.get(recordIdOf(replyId));
      const kept = shownReply === undefined ? [] : (tree.childrenOf.get(shownReply.id) ?? []).flatMap((child) => subtree(tree, child.id));
      const keptIds = new Set(kept.map((m) => m.id));
      // The saved records (the tree's may be copies without inline versions).
      const saved = new Map(all.map((m) => [m.id, m]));
      const removed = gone.filter((m) => !keptIds.has(m.id)).flatMap((m) => saved.get(m.id) ?? []);
      const moved = shownReply === undefined ? [] : (tree.childrenOf.get(shownReply.id) ?? []).flatMap((m) => saved.get(m.id) ?? []);
      const removedIds = new Set(removed.map((m) => m.id));
      // Messages saved before branching follow the one before them: name their parents now, as
      // removing two messages would otherwise hand them another.
      const legacy = all.filter((m) => m.parentId === undefined && !removedIds.has(m.id));
      for (const m of legacy) await this.db.messages.update(m.id, { parentId: parentIdOf(tree, m.id) });
      for (const m of moved) await this.db.messages.update(m.id, { parentId: parent });
      await this.db.messages.bulkDelete(removed.map((m) => m.id));
      const images = await imagesOfMessages(this.db.images, removed.map((m) => m.id));
      await this.db.images.bulkDelete(images.map((i) => i.id));
      const conversation = await this.getConversation(question.conversationId);
      if (conversation?.leafId !== undefined && removedIds.has(recordIdOf(conversation.leafId))) {
        await this.db.conversations.update(conversation.id, { leafId: moved[0]?.id ?? parent ?? undefined });
      }
      await this.db.conversations.update(question.conversationId, { updatedAt: Date.now() });
      return { conversation, removed, restoreParents: [...legacy, ...moved].map((m) => ({ id: m.id, parentId: m.parentId })), images };
    }).then(async (pair) => {
      if (pair !== undefined) await this.forgetRenderings((cache) => cache.forgetMessages(pair.removed.map((m) => m.id)));
      return pair;
    });
  }

  /** Puts a deleted pair back, as it was. */
  async restorePair(pair: RemovedPair): Promise<void> {
    await this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images], async () => {
      await this.db.messages.bulkPut(await this.notOthers(pair.removed));
      if (pair.images !== undefined) await this.db.images.bulkPut(pair.images);
      for (const { id, parentId } of pair.restoreParents) await this.updateRow(id, { parentId });
      if (pair.conversation !== undefined) await this.db.conversations.update(pair.conversation.id, { leafId: pair.conversation.leafId, updatedAt: Date.now() });
    });
  }

  /** Every conversation id (cheap: keys only). */
  async conversationIds(): Promise<string[]> {
    return (await this.db.conversations.toCollection().primaryKeys()) as string[];
  }

  /** Conversations changed at or after `since` (epoch ms). */
  async conversationsUpdatedSince(since: number): Promise<Conversation[]> {
    return parseAll<Conversation>(await this.db.conversations.where('updatedAt').aboveOrEqual(since).toArray(), ConversationSchema).items;
  }

  async getConversations(ids: readonly string[]): Promise<Conversation[]> {
    return parseAll<Conversation>((await this.db.conversations.bulkGet([...ids])).filter((c) => c !== undefined), ConversationSchema).items;
  }

  /** The messages of several conversations, by conversation. */
  async messagesOf(conversationIds: readonly string[]): Promise<Map<string, Message[]>> {
    const rows = await this.db.transaction('r', this.db.messages, this.db.packs, () => this.readRows(conversationIds));
    return new Map([...rows].map(([id, list]) => [id, parseAll<Message>(list, MessageSchema).items]));
  }

  /**
   * The texts of these conversations' messages, in order (search: indexing, snippets): only the
   * fields needed are checked, so a thousand long messages are read quickly.
   */
  async messageTexts(conversationIds: readonly string[]): Promise<Map<string, MessageText[]>> {
    const rows = await this.db.transaction('r', this.db.messages, this.db.packs, () => this.readRows(conversationIds));
    return new Map(conversationIds.map((id) => [id, parseAll<MessageText>(rows.get(id)!, MessageTextSchema).items]));
  }

  /** Raw records of a conversation, as saved (for an export that gives back what it took). */
  async rawConversation(id: string): Promise<{ conversation: unknown; messages: unknown[] } | undefined> {
    const conversation = await this.db.conversations.get(id);
    if (conversation === undefined) return undefined;
    return { conversation, messages: await this.rowsOf(id) };
  }

  /** Raw records of these conversations (all when absent), as saved, for an export; their images as records (history-file.ts `withImageData` encodes them). */
  async exportRaw(ids?: readonly string[]): Promise<{ conversation: unknown; messages: unknown[]; imageRecords: ImageRecord[] }[]> {
    const conversations = ids === undefined ? await this.db.conversations.orderBy('updatedAt').reverse().toArray() : (await this.db.conversations.bulkGet([...ids])).filter((c) => c !== undefined);
    const [rows, packs, imageRows] = await this.db.transaction('r', [this.db.messages, this.db.packs, this.db.images], () => Promise.all([
      ids === undefined ? this.db.messages.toArray() : this.db.messages.where('conversationId').anyOf([...ids]).toArray(),
      ids === undefined ? this.db.packs.toArray() : this.db.packs.where('conversationId').anyOf([...ids]).toArray(),
      ids === undefined ? this.db.images.toArray() : this.db.images.where('conversationId').anyOf([...ids]).toArray(),
    ]));
    rows.sort((a, b) => a.seq - b.seq);
    const messages = byConversation(conversations.map((c) => c.id), rows, packs);
    // Partial images too: a stream cut short left them, and its reply names them.
    const images = new Map<string, ImageRecord[]>();
    for (const image of parseImages(imageRows)) {
      const list = images.get(image.conversationId) ?? [];
      list.push(image);
      images.set(image.conversationId, list);
    }
    return conversations.map((conversation) => ({ conversation, messages: messages.get(conversation.id) ?? [], imageRecords: (images.get(conversation.id) ?? []).sort((a, b) => a.createdAt - b.createdAt || a.index - b.index) }));
  }

  /** The conversations that hold each of these message ids now (see `importConversations`). */
  async messageHolders(ids: readonly string[]): Promise<MessageHolders> {
    return this.db.transaction('r', this.db.messages, this.db.packs, () => this.holdersOf(ids));
  }

  /**
   * Merges imported conversations: one that is here already is replaced only by a newer one
   * (its messages with it); never a second copy. A message whose id another conversation holds
   * (here, or earlier in the import) takes a new one (see fresh-ids.ts). An import in several
   * batches passes `holders`, read once before its first (`messageHolders`) and kept up to date
   * here: each batch then looks up nothing, where a lookup would wade through the packs the
   * import itself has just written. Returns how many were written and kept.
   */
  async importConversations(batch: readonly { conversation: Conversation; messages: Message[]; images?: ImageRecord[] }[], holders?: MessageHolders): Promise<{ written: number; olderSkipped: number }> {
    let replaced: string[] = [];
    const result = await this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images], async () => {
      const existing = await this.db.conversations.bulkGet(batch.map((b) => b.conversation.id));
      let written = 0;
      let olderSkipped = 0;
      const replace: string[] = [];
      const conversations: Conversation[] = [];
      const packs: PackRow[] = [];
      const newer = batch.filter((item, i) => {
        const older = (existing[i]?.updatedAt ?? -Infinity) > item.conversation.updatedAt;
        if (older) olderSkipped++;
        return !older;
      });
      const stored = new Set(existing.flatMap((c) => (c === undefined ? [] : [c.id])));
      const held = holders ?? await this.holdersOf(newer.flatMap((item) => item.messages.map((m) => m.id)));
      // Which conversation holds each imported image's id (an image is never written over another's).
      const imageIds = newer.flatMap((item) => (item.images ?? []).map((i) => i.id));
      const imageHolders = new Map<string, string>();
      if (imageIds.length > 0) for (const row of await this.db.images.where(':id').anyOf(imageIds).toArray()) imageHolders.set(row.id, row.conversationId);
      const images: ImageRecord[] = [];
      for (const imported of newer) {
        const id = imported.conversation.id;
        const item = withFreshIds(imported, (messageId) => (held.get(messageId) ?? id) !== id, (imageId) => (imageHolders.get(imageId) ?? id) !== id);
        for (const m of item.messages) held.set(m.id, id);
        for (const image of item.images ?? []) {
          imageHolders.set(image.id, id);
          images.push(image.conversationId === id ? image : { ...image, conversationId: id });
        }
        if (stored.has(id)) replace.push(id);
        // Nothing streams into an imported conversation: a reply exported mid-stream was cut short.
        conversations.push(item.conversation.replyStatus === 'streaming' ? { ...item.conversation, replyStatus: 'interrupted' } : item.conversation);
        const messages = item.messages.map((m) => (m.status === 'streaming' ? { ...m, status: 'interrupted' as const } : m));
        packs.push(...packsOf(item.conversation.id, [...messages].sort((a, b) => a.seq - b.seq)));
        written++;
      }
      if (replace.length > 0) {
        await this.db.messages.where('conversationId').anyOf(replace).delete();
        await this.db.packs.where('conversationId').anyOf(replace).delete();
        await this.db.images.where('conversationId').anyOf(replace).delete();
      }
      await this.db.conversations.bulkPut(conversations);
      await this.db.packs.bulkPut(packs);
      await this.db.images.bulkPut(images);
      replaced = replace;
      return { written, olderSkipped };
    });
    if (replaced.length > 0) await this.forgetRenderings((cache) => cache.forgetConversations(replaced));
    return result;
  }

  /** The saved search index and the `updatedAt` it is current to (undefined: none, or unreadable). */
  async loadSearchIndex(): Promise<{ index: unknown; watermark: number } | undefined> {
    const row = await this.db.search.get('conversations');
    return row === undefined || typeof row.watermark !== 'number' ? undefined : { index: row.index, watermark: row.watermark };
  }

  async saveSearchIndex(index: unknown, watermark: number): Promise<void> {
    await this.db.search.put({ id: 'conversations', index, watermark });
  }

  /** Deletes every conversation (tests; "clear history"). */
  async clearAll(): Promise<void> {
    await this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images, this.db.syncDeletions], async () => {
      await this.db.syncDeletions.clear();
      await this.db.messages.clear();
      await this.db.images.clear();
      await this.db.packs.clear();
      await this.db.conversations.clear();
    });
    await this.forgetRenderings((cache) => cache.clear());
  }

  async renameConversation(id: string, title: string): Promise<void> {
    // A new title is a change: the search index takes it.
    await this.db.conversations.update(id, { title: title.trim() === '' ? 'Untitled' : title.trim(), updatedAt: Date.now() });
  }

  /** Deletes a conversation and its messages; returns them, so that Undo can put them back. */
  async deleteConversation(id: string): Promise<DeletedConversation | undefined> {
    return this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images, this.db.syncDeletions], async () => {
      const conversation = await this.getConversation(id);
      if (conversation === undefined) return undefined;
      const messages = await this.messages(id);
      const images = await imagesOfConversations(this.db.images, [id]);
      await this.removeConversations([id]);
      // Sync tells the other devices (a conversation absent here is not taken for deleted).
      await this.db.syncDeletions.put({ id, at: Date.now() });
      return { conversation, messages, images };
    }).then(async (deleted) => {
      if (deleted !== undefined) await this.forgetRenderings((cache) => cache.forgetConversations([id]));
      return deleted;
    });
  }

  /**
   * Puts a deleted conversation back. Its run was stopped before it was deleted, so nothing
   * is streaming any more: a reply saved as streaming comes back interrupted, with Retry.
   */
  async restoreConversation(deleted: DeletedConversation): Promise<void> {
    const messages = deleted.messages.map((m) => (m.status === 'streaming' ? { ...m, status: 'interrupted' as const } : m));
    await this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images, this.db.syncDeletions], async () => {
      await this.db.syncDeletions.delete(deleted.conversation.id);
      const conversation = deleted.conversation.replyStatus === 'streaming' ? { ...deleted.conversation, replyStatus: 'interrupted' as const } : deleted.conversation;
      await this.db.conversations.put(conversation);
      await this.db.messages.bulkPut(await this.notOthers(messages));
      if (deleted.images !== undefined) await this.db.images.bulkPut(deleted.images);
    });
  }

  /** A conversation's rows, packs and images gone (inside a transaction on them and conversations). */
  private async removeConversations(ids: readonly string[]): Promise<void> {
    await this.db.messages.where('conversationId').anyOf([...ids]).delete();
    await this.db.packs.where('conversationId').anyOf([...ids]).delete();
    await this.db.images.where('conversationId').anyOf([...ids]).delete();
    await this.db.conversations.bulkDelete([...ids]);
  }

  /** Every conversation and message, for sync to compare with what it has merged (lib/sync/local.ts). */
  async syncRecords(): Promise<{ conversations: Conversation[]; messages: Message[] }> {
    const conversations = parseAll<Conversation>(await this.db.conversations.toArray(), ConversationSchema).items;
    const messages = await this.messagesOf(conversations.map((c) => c.id));
    return { conversations, messages: [...messages.values()].flat() };
  }

  /** The ids of every image held, for sync to find the ones it has not sent. */
  async syncImageIds(): Promise<string[]> {
    return (await this.db.images.toCollection().primaryKeys()) as string[];
  }

  /** The conversations deleted here since `takeSyncDeletions` was last followed by `forgetSyncDeletions`. */
  async syncDeletions(): Promise<string[]> {
    return (await this.db.syncDeletions.toCollection().primaryKeys()) as string[];
  }

  /** Deletions the other devices have been told of. */
  async forgetSyncDeletions(ids: readonly string[]): Promise<void> {
    await this.db.syncDeletions.bulkDelete([...ids]);
  }

  /**
   * What the merged sync state asks of this database (lib/sync/local.ts): conversations written,
   * messages added (a packed conversation unpacked first; a message id another conversation holds
   * is never written over), conversations deleted (without telling sync again). `readAs`: the
   * conversations as the updates were planned from; one changed here since (renamed meanwhile)
   * is left as it is now, and its change syncs next round.
   */
  async applySyncUpdates(updates: { putConversations: readonly Conversation[]; putMessages: readonly Message[]; deleteConversations: readonly string[]; putImages?: readonly ImageRecord[] }, readAs?: readonly Conversation[]): Promise<void> {
    const touched = [...new Set([...updates.putConversations.map((c) => c.id), ...updates.putMessages.map((m) => m.conversationId), ...updates.deleteConversations])];
    const planned = readAs === undefined ? undefined : new Map(readAs.map((c) => [c.id, JSON.stringify(c)]));
    await this.db.transaction('rw', [this.db.messages, this.db.packs, this.db.conversations, this.db.images, this.db.syncDeletions], async () => {
      // Deleted elsewhere, unless it changed here since the round read it (a turn added
      // meanwhile): then it stays, and the next round brings it back on the other devices.
      const deleting = planned === undefined ? updates.deleteConversations : (await this.db.conversations.bulkGet([...updates.deleteConversations])).filter((current) => {
        if (current === undefined) return false;
        const parsed = ConversationSchema.safeParse(current);
        return parsed.success && planned.get(current.id) === JSON.stringify(parsed.data);
      }).map((current) => current!.id);
      if (deleting.length > 0) await this.removeConversations(deleting);
      const now = await this.db.conversations.bulkGet(updates.putConversations.map((c) => c.id));
      await this.db.conversations.bulkPut(updates.putConversations.filter((_, i) => {
        const current = now[i];
        if (current === undefined || planned === undefined) return true;
        // Compared as read (parsed: the schema's order of fields, not the order they were written in).
        const parsed = ConversationSchema.safeParse(current);
        return parsed.success && planned.get(current.id) === JSON.stringify(parsed.data);
      }));
      for (const id of new Set(updates.putMessages.map((m) => m.conversationId))) await this.unpack(id);
      await this.db.messages.bulkPut(await this.notOthers(updates.putMessages));
      // An image id another conversation holds here is never written over.
      const images = updates.putImages ?? [];
      if (images.length > 0) {
        const held = await this.db.images.bulkGet(images.map((i) => i.id));
        await this.db.images.bulkPut(images.filter((image, i) => held[i] === undefined || held[i]!.conversationId === image.conversationId));
      }
    });
    if (touched.length > 0) await this.forgetRenderings((cache) => cache.forgetConversations(touched));
  }

  /** Makes sure a conversation exists (an action's refusal may follow a start that created it). */
  async ensureConversation(input: Parameters<ConversationStore['createConversation']>[0] & { id: string }): Promise<Conversation> {
    return this.db.transaction('rw', this.db.conversations, async () => {
      const existing = await this.getConversation(input.id);
      return existing ?? this.createConversation(input);
    });
  }

  /**
   * Live list of every conversation, newest first, updated when any surface writes, with the
   * number of rows that could not be read. A database that fails goes to `onError`.
   */
  watchConversations(onChange: (conversations: Conversation[], unreadable: number) => void, onError: (error: unknown) => void): () => void {
    // Thousands of rows are checked a slice at a time, between which the page may draw: one read
    // of a large history is never one long task. A newer read supersedes one still being checked.
    let latest = 0;
    return this.live(() => this.allConversationRows(), (rows) => {
      const read = ++latest;
      void parseInSlices<Conversation>(rows, ConversationSchema, () => read !== latest).then(async (checked) => {
        // A long list is handed over in a task of its own: the page draws it apart from the last slice checked.
        if (checked !== undefined && rows.length > SLICE) await new Promise((resolve) => setTimeout(resolve, 0));
        if (checked !== undefined && read === latest) onChange(checked.items, checked.unreadable);
      });
    }, onError);
  }

  /**
   * Every conversation row, newest first. Read a page at a time: the browser hands over each
   * answer in one piece, and ten thousand rows at once would be one long task for the page.
   */
  private async allConversationRows(): Promise<Conversation[]> {
    const rows = await this.db.transaction('r', this.db.conversations, async () => {
      const all: Conversation[] = [];
      for (;;) {
        const last = all.at(-1)?.id;
        const page = await (last === undefined ? this.db.conversations.toCollection() : this.db.conversations.where(':id').above(last)).limit(ROWS_PER_READ).toArray();
        all.push(...page);
        if (page.length < ROWS_PER_READ) return all;
      }
    });
    return rows.sort((a, b) => (b.updatedAt > a.updatedAt ? 1 : b.updatedAt < a.updatedAt ? -1 : 0));
  }

  /**
   * A live query whose failures reach `onError`. The database is opened first: a live query
   * takes a database that fails to open (blocked, refused, newer) for one that was closed on
   * purpose and waits for ever, which a page would show as an empty history.
   */
  private live<T>(query: () => Promise<T>, onChange: (value: T) => void, onError: (error: unknown) => void): () => void {
    let stopped = false;
    let subscription: { unsubscribe(): void } | undefined;
    this.open().then(() => {
      if (!stopped) subscription = liveQuery(query).subscribe({ next: onChange, error: onError });
    }, (error: unknown) => {
      if (!stopped) onError(error);
    });
    return () => {
      stopped = true;
      subscription?.unsubscribe();
    };
  }

  /**
   * A page that watched a reply stream keeps what it saw when the worker died before saving
   * it: the longer text wins, and the reply is marked interrupted. Returns whether it wrote.
   */
  async keepInterruptedText(id: string, text: string, reasoning: string): Promise<boolean> {
    return this.db.transaction('rw', this.db.messages, this.db.packs, this.db.conversations, async () => {
      const saved = MessageSchema.safeParse(await this.rowOf(id));
      if (!saved.success || (saved.data.status !== 'streaming' && saved.data.status !== 'interrupted')) return false;
      if (saved.data.status === 'streaming') await this.noteReplyStatus([id], 'interrupted');
      if (text.length + reasoning.length <= saved.data.text.length + saved.data.reasoning.length) {
        if (saved.data.status === 'streaming') await this.updateRow(id, { status: 'interrupted' });
        return false;
      }
      await this.updateRow(id, { text, reasoning, status: 'interrupted' });
      return true;
    });
  }

  /** After a worker restart no run is alive: whatever was streaming was cut short. */
  async markStreamingInterrupted(): Promise<number> {
    return this.db.transaction('rw', this.db.messages, this.db.packs, this.db.conversations, async () => {
      const ids = await this.db.messages.where('status').equals('streaming').primaryKeys();
      await this.noteReplyStatus(ids as string[], 'interrupted');
      return this.db.messages.where('status').equals('streaming').modify({ status: 'interrupted' });
    });
  }

  /** Live view of a conversation's messages (and how many could not be read), updated when any surface writes. */
  watchMessages(conversationId: string, onChange: (messages: Message[], unreadable: number) => void, onError: (error: unknown) => void): () => void {
    return this.messageWatches.watch(conversationId, (r) => onChange(r.items, r.unreadable), onError);
  }

  /**
   * Starts reading a conversation's messages now, for the view about to watch them: a press on
   * its row calls this, and the view the click then opens joins the read begun during the press.
   */
  preloadMessages(conversationId: string): void {
    this.messageWatches.hold(conversationId, PRELOAD_HOLD_MS);
  }

  /**
   * Calls `onChange` when anything sync carries may have changed, from any surface: a
   * conversation or message written or deleted, a deletion logged.
   */
  watchSyncChanges(onChange: () => void, _onError: (error: unknown) => void): () => void {
    // Dexie tells of every write to this database, here or in any other page or worker of the
    // extension (it relays them over a BroadcastChannel).
    const tables = ['conversations', 'messages', 'packs', 'syncDeletions'].map((table) => `idb://${this.db.name}/${table}/`);
    const listener = (parts: Record<string, unknown>): void => {
      if (Object.keys(parts).some((part) => tables.some((table) => part.startsWith(table)))) onChange();
    };
    Dexie.on.storagemutated.subscribe(listener);
    return () => Dexie.on.storagemutated.unsubscribe(listener);
  }

  /** Live view of one conversation's record (model, title), undefined once deleted. */
  watchConversation(id: string, onChange: (conversation: Conversation | undefined) => void, onError: (error: unknown) => void): () => void {
    return this.live(() => this.getConversation(id), onChange, onError);
  }

  close(): void {
    this.db.close();
    this.renderings.close();
  }
}

/**
 * Saved renderings of finished messages, so that opening a conversation again parses, highlights
 * and lays out no formula anew (a conversation of 1,000 messages would otherwise be highlighted
 * on every open). A database of its own: it holds nothing that cannot be made again, so it can be
 * dropped, cleared or refused (a full disk) without touching the history; the history's store
 * forgets a conversation's renderings when it deletes the conversation (`forgetRenderings`), so
 * nothing of a deleted conversation stays behind in here.
 *
 * A row is used only when it was made by this renderer version and this sanitiser, with these
 * words, from this exact text (`sourceKey`); any other row is made again and replaced.
 *
 * A render takes a moment, and a conversation may be deleted meanwhile: each deletion leaves a
 * note (`forgotten`) for a while, and a rendering begun before it is not saved.
 */
import * as z from 'zod/mini';
import Dexie, { type DexieOptions, type Table } from 'dexie';
import { RenderedBlockSchema, type RenderedBlock } from './worker/protocol';

/**
 * Raised whenever the renderer's output changes shape or content (our rules, or an update of
 * markdown-it 15.0.3, highlight.js 11.12.0 / lowlight 3.3.0, KaTeX 0.19.1): every saved
 * rendering is then made again.
 */
export const RENDERER_VERSION = 3;

declare const __SANITISER__: string | undefined;

/**
 * Which sanitiser this build has (scripts/sanitiser-fingerprint.ts: its source, and the parser's
 * versions). A saved rendering is shown as it was saved, not sanitised again
 * (lib/render/worker/handler.ts), so one is read back only by a build with the sanitiser that
 * made it: whatever an older sanitiser let through is made again, never shown. (A build that did
 * not say has one of its own, so it reads back only what it saved itself.)
 */
export const SANITISER: string = typeof __SANITISER__ === 'string' ? __SANITISER__ : `unnamed-${Math.random().toString(36).slice(2)}`;

export const RENDER_CACHE_NAME = 'gateway-chat-renderings';

const RenderingSchema = z.object({
  /** The message's id. */
  id: z.string(),
  conversationId: z.string(),
  /** The message's place in its conversation: the newest renderings are read ahead of an opening (`newest`). */
  seq: z.optional(z.number()),
  version: z.number(),
  /** The sanitiser that made it (`SANITISER`; none before renderer version 3). */
  sanitiser: z.optional(z.string()),
  labelsKey: z.string(),
  sourceKey: z.string(),
  blocks: z.array(RenderedBlockSchema),
});
export type Rendering = z.infer<typeof RenderingSchema>;

/** A deletion's note: `all`, `c:{conversationId}` or `m:{messageId}`, and when. */
interface Forgotten {
  id: string;
  at: number;
}

/** Long past any render: notes older than this are dropped. */
const FORGOTTEN_KEPT_MS = 10 * 60_000;

class RenderingsDb extends Dexie {
  renderings!: Table<Rendering, string>;
  forgotten!: Table<Forgotten, string>;
  constructor(name: string, options?: DexieOptions) {
    super(name, options);
    this.version(1).stores({ renderings: 'id, conversationId', forgotten: 'id, at' });
    // Renderings by their message's place in its conversation (rows saved before have none, and are read only by id).
    this.version(2).stores({ renderings: 'id, conversationId, [conversationId+seq]' });
  }
}

/** 32-bit FNV-1a over the blocks' sources and their lengths: which text a rendering was made from. */
export function sourceKeyOf(sources: readonly string[]): string {
  let hash = 0x811c9dc5;
  let length = 0;
  for (const source of sources) {
    length += source.length;
    for (let i = 0; i < source.length; i++) {
      hash ^= source.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    hash ^= 0xff;
    hash = Math.imul(hash, 0x01000193);
  }
  return `${sources.length}:${length}:${(hash >>> 0).toString(36)}`;
}

/** Whether a saved rendering was made by this renderer version and this sanitiser (else it is made again). */
function madeByThisBuild(row: Rendering): boolean {
  return row.version === RENDERER_VERSION && row.sanitiser === SANITISER;
}

/** A saved rendering's blocks, if it was made by this build (`madeByThisBuild`), with these words, from these sources. */
export function blocksOf(row: Rendering, labelsKey: string, sources: readonly string[]): RenderedBlock[] | undefined {
  if (!madeByThisBuild(row) || row.labelsKey !== labelsKey || row.sourceKey !== sourceKeyOf(sources) || row.blocks.length !== sources.length) return undefined;
  return row.blocks;
}

export class RenderCache {
  private readonly db: RenderingsDb;

  constructor(name = RENDER_CACHE_NAME, options?: Pick<DexieOptions, 'indexedDB' | 'IDBKeyRange'>) {
    this.db = new RenderingsDb(name, options);
  }

  /**
   * Opens the database and reads from it once, ahead of the first message opened: opening takes
   * longer than a read (about 20 ms in the worker, measured), and a conversation opened would wait for it.
   */
  async open(): Promise<void> {
    await this.db.renderings.get('');
  }

  /** The saved blocks of a message, if they were made by this version, with these words, from these sources. */
  async get(messageId: string, labelsKey: string, sources: readonly string[]): Promise<RenderedBlock[] | undefined> {
    const parsed = RenderingSchema.safeParse(await this.db.renderings.get(messageId));
    return parsed.success ? blocksOf(parsed.data, labelsKey, sources) : undefined;
  }

  /**
   * The renderings of a conversation's `count` newest messages (by their place in it) made by
   * this version and this sanitiser, with whatever words: read when it is about to open, before
   * its messages are.
   */
  async newest(conversationId: string, count: number): Promise<Rendering[]> {
    const rows = await this.db.renderings.where('[conversationId+seq]').between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey]).reverse().limit(count).toArray();
    return rows.flatMap((row) => {
      const parsed = RenderingSchema.safeParse(row);
      return parsed.success && madeByThisBuild(parsed.data) ? [parsed.data] : [];
    });
  }

  /** Saves a message's rendering, begun at `startedAt` (epoch ms), unless it was deleted since. */
  async put(message: { id: string; conversationId: string; seq?: number | undefined }, labelsKey: string, sources: readonly string[], blocks: readonly RenderedBlock[], startedAt: number): Promise<void> {
    await this.db.transaction('rw', this.db.renderings, this.db.forgotten, async () => {
      const notes = await this.db.forgotten.bulkGet(['all', `c:${message.conversationId}`, `m:${message.id}`]);
      if (notes.some((note) => note !== undefined && note.at >= startedAt)) return;
      await this.db.renderings.put({ id: message.id, conversationId: message.conversationId, ...(message.seq === undefined ? {} : { seq: message.seq }), version: RENDERER_VERSION, sanitiser: SANITISER, labelsKey, sourceKey: sourceKeyOf(sources), blocks: [...blocks] });
    });
  }

  async forgetConversations(conversationIds: readonly string[]): Promise<void> {
    await this.forget(conversationIds.map((id) => `c:${id}`), () => this.db.renderings.where('conversationId').anyOf([...conversationIds]).delete());
  }

  async forgetMessages(messageIds: readonly string[]): Promise<void> {
    await this.forget(messageIds.map((id) => `m:${id}`), () => this.db.renderings.bulkDelete([...messageIds]));
  }

  async clear(): Promise<void> {
    await this.forget(['all'], () => this.db.renderings.clear());
  }

  private async forget(notes: readonly string[], remove: () => Promise<unknown>): Promise<void> {
    const at = Date.now();
    await this.db.transaction('rw', this.db.renderings, this.db.forgotten, async () => {
      await remove();
      await this.db.forgotten.where('at').below(at - FORGOTTEN_KEPT_MS).delete();
      await this.db.forgotten.bulkPut(notes.map((id) => ({ id, at })));
    });
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Images as Blobs in the conversations database (table `images`, see lib/conversations/store.ts):
 * written by the run manager as they arrive, read by pages through object URLs. Every row read is
 * parsed with `ImageRecordSchema`. An image goes with its conversation (deleted, restored by Undo,
 * replaced by an import): the conversation store does that inside its own transactions, with the
 * helpers below.
 */
import { liveQuery, type Table } from 'dexie';
import { ImageRecordSchema, type ImageMeta, type ImageRecord } from './types';

export interface ImageListOptions {
  /** Every word of it (case-insensitive) in the prompt or the revised prompt. */
  query?: string;
  /** At most this many. */
  limit?: number;
  /** Only images made before this time (epoch ms): the next page after the last one shown. */
  before?: number;
}

export function parseImages(rows: readonly unknown[]): ImageRecord[] {
  const out: ImageRecord[] = [];
  for (const row of rows) {
    const parsed = ImageRecordSchema.safeParse(row);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

export function metaOf(record: ImageRecord): ImageMeta {
  const { blob: _blob, ...meta } = record;
  return meta;
}

/** Whether an image's prompts hold every word of `query`. */
export function matchesQuery(image: Pick<ImageMeta, 'prompt' | 'revisedPrompt'>, query: string | undefined): boolean {
  const words = (query ?? '').toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const text = `${image.prompt}\n${image.revisedPrompt ?? ''}`.toLowerCase();
  return words.every((w) => text.includes(w));
}

/** The images of these conversations (inside a transaction that holds the table). */
export async function imagesOfConversations(table: Table<ImageRecord, string>, conversationIds: readonly string[]): Promise<ImageRecord[]> {
  if (conversationIds.length === 0) return [];
  return parseImages(await table.where('conversationId').anyOf([...conversationIds]).toArray());
}

/** The images held by these messages (inside a transaction that holds the table). */
export async function imagesOfMessages(table: Table<ImageRecord, string>, messageIds: readonly string[]): Promise<ImageRecord[]> {
  if (messageIds.length === 0) return [];
  return parseImages(await table.where('messageId').anyOf([...messageIds]).toArray());
}

export class ImageStore {
  /**
   * `ready`: opens the database first (a live query on a database that fails to open waits for
   * ever; see ConversationStore.live).
   */
  constructor(private readonly table: Table<ImageRecord, string>, private readonly ready: () => Promise<void>) {}

  async put(record: ImageRecord): Promise<void> {
    await this.table.put(record);
  }

  async get(id: string): Promise<ImageRecord | undefined> {
    return parseImages([await this.table.get(id)])[0];
  }

  /** The images by id, in the order asked; those missing (or unreadable) are left out. */
  async getMany(ids: readonly string[]): Promise<ImageRecord[]> {
    return parseImages((await this.table.bulkGet([...ids])).filter((r) => r !== undefined));
  }

  /** Finished images (no partials), newest first. */
  async list(options: ImageListOptions = {}): Promise<ImageMeta[]> {
    const { query, limit, before } = options;
    const newest = (before === undefined ? this.table.orderBy('createdAt') : this.table.where('createdAt').below(before)).reverse();
    // Filtered on the cursor: a search reads only as far as it must.
    const rows = await newest.filter((row) => {
      const parsed = ImageRecordSchema.safeParse(row);
      return parsed.success && parsed.data.partial !== true && matchesQuery(parsed.data, query);
    }).limit(limit ?? Infinity).toArray();
    return parseImages(rows).map(metaOf);
  }

  /** `list(options)` now and after every change to the table; failures go to `onError`. */
  watch(onChange: (images: ImageMeta[]) => void, onError: (error: unknown) => void = () => undefined, options: ImageListOptions = {}): () => void {
    let stopped = false;
    let subscription: { unsubscribe(): void } | undefined;
    this.ready().then(() => {
      if (!stopped) subscription = liveQuery(() => this.list(options)).subscribe({ next: onChange, error: onError });
    }, (error: unknown) => {
      if (!stopped) onError(error);
    });
    return () => {
      stopped = true;
      subscription?.unsubscribe();
    };
  }

  /**
   * `onChange()` now and after every change to the table, reading only its keys (a view that
   * lists a page of images asks for it again; nothing is parsed here).
   */
  watchChanges(onChange: () => void, onError: (error: unknown) => void = () => undefined): () => void {
    let stopped = false;
    let subscription: { unsubscribe(): void } | undefined;
    this.ready().then(() => {
      if (!stopped) subscription = liveQuery(() => this.table.toCollection().primaryKeys()).subscribe({ next: () => onChange(), error: onError });
    }, (error: unknown) => {
      if (!stopped) onError(error);
    });
    return () => {
      stopped = true;
      subscription?.unsubscribe();
    };
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.table.bulkDelete([...ids]);
  }
}

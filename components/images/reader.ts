/**
 * What the pages read of the image store (`ConversationStore.images`, lib/images/store.ts): the
 * images by id, a list newest first, and news of a change. One module-level handle, so a test
 * gives an in-memory one (`setImageReader`) and the pages read the database's.
 */
import { loadConversationStore } from '@/components/data';
import type { ImageMeta, ImageRecord } from '@/lib/images/types';
import type { ImageStore } from '@/lib/images/store';

export interface ImageQuery {
  /** Every word of it in the prompt (or the revised prompt), any case. */
  query?: string;
  limit?: number;
  /** Only images made before this time (the next page of a list). */
  before?: number;
}

export interface ImageReader {
  get(id: string): Promise<ImageRecord | undefined>;
  getMany(ids: readonly string[]): Promise<readonly (ImageRecord | undefined)[]>;
  /** Newest first; finished images only. */
  list(query?: ImageQuery): Promise<ImageMeta[]>;
  /** Calls `onChange` when images are added or removed; returns the stop. */
  watch(onChange: () => void, onError?: (error: unknown) => void): () => void;
}

/** The database's image store, once its code has arrived (in memory where the database cannot be opened). */
async function databaseImages(): Promise<ImageStore> {
  const store = await loadConversationStore();
  return store.images;
}

/**
 * Images asked for in the same moment (a conversation opening asks for each of its images) are
 * read together, in one transaction.
 */
interface Waiting { resolve(record: ImageRecord | undefined): void; reject(error: unknown): void }
let batch: Map<string, Waiting[]> | undefined;
function readTogether(id: string): Promise<ImageRecord | undefined> {
  if (batch === undefined) {
    const asked = new Map<string, Waiting[]>();
    batch = asked;
    setTimeout(() => {
      batch = undefined;
      const all = [...asked.values()].flat();
      databaseImages().then((r) => r.getMany([...asked.keys()])).then((records) => {
        const byId = new Map(records.flatMap((record) => (record === undefined ? [] : [[record.id, record] as const])));
        for (const [key, waiting] of asked) for (const w of waiting) w.resolve(byId.get(key));
      }, (error: unknown) => {
        for (const w of all) w.reject(error);
      });
    }, 0);
  }
  const asked = batch;
  return new Promise((resolve, reject) => {
    const waiting = asked.get(id) ?? [];
    waiting.push({ resolve, reject });
    asked.set(id, waiting);
  });
}

/** The database's images, each call made once the store is there. */
const database: ImageReader = {
  get: readTogether,
  getMany: (ids) => databaseImages().then((r) => r.getMany(ids)),
  list: (query) => databaseImages().then((r) => r.list(query)),
  watch: (onChange, onError) => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void databaseImages().then((r) => {
      if (!stopped) stop = r.watchChanges(onChange, onError);
    }, (error: unknown) => onError?.(error));
    return () => {
      stopped = true;
      stop?.();
    };
  },
};

let current: ImageReader = database;

/** The pages' image store. */
export function imageReader(): ImageReader {
  return current;
}

/** Another image store (tests); undefined: the database's again. */
export function setImageReader(reader: ImageReader | undefined): void {
  current = reader ?? database;
}

/** The record's facts, its bytes left out (what components keep in state). */
export function metaOf(record: ImageRecord): ImageMeta {
  const { blob: _blob, ...meta } = record;
  return meta;
}

/**
 * What the pages read of the image store (`ConversationStore.images`, lib/images/store.ts): the
 * images by id, a list newest first, and news of a change. One module-level handle, so a test
 * gives an in-memory one (`setImageReader`) and the pages read the database's.
 */
import { loadConversationStore } from '@/components/data';
import type { ImageMeta, ImageRecord } from '@/lib/images/types';

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
async function databaseImages(): Promise<ImageReader> {
  const store = await loadConversationStore();
  return store.images;
}

/** The database's images, each call made once the store is there. */
const database: ImageReader = {
  get: (id) => databaseImages().then((r) => r.get(id)),
  getMany: (ids) => databaseImages().then((r) => r.getMany(ids)),
  list: (query) => databaseImages().then((r) => r.list(query)),
  watch: (onChange, onError) => {
    let stop: (() => void) | undefined;
    let stopped = false;
    void databaseImages().then((r) => {
      if (!stopped) stop = r.watch(onChange, onError);
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

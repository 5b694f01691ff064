/**
 * Whether the background keeps conversations in memory (its database would not open: see
 * fallback-store.ts), told to the pages through session storage. A page whose own open went
 * through (the background's was blocked, say) would otherwise show a history the background no
 * longer writes to, and drop each reply from the screen once it ends, thinking it saved.
 */
import { storage } from '@wxt-dev/storage';
import * as z from 'zod/mini';
import { STORE_PROBLEMS } from './problems';

const KEY = 'session:conversationsInMemory';

const MemoryModeSchema = z.object({ problem: z.enum(STORE_PROBLEMS), detail: z.string() });
export type MemoryMode = z.infer<typeof MemoryModeSchema>;

const parse = (raw: unknown): MemoryMode | undefined => {
  const parsed = MemoryModeSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
};

/** Said by the background: in memory, and why (undefined: a new worker, on the database again). */
export async function noteMemoryMode(mode: MemoryMode | undefined): Promise<void> {
  if (mode === undefined) await storage.removeItem(KEY);
  else await storage.setItem(KEY, mode);
}

/** The background's mode now and whenever it changes. */
export function watchMemoryMode(onChange: (mode: MemoryMode | undefined) => void): () => void {
  let changed = false;
  const unwatch = storage.watch(KEY, (raw) => {
    changed = true;
    onChange(parse(raw));
  });
  void storage.getItem(KEY).then((raw) => {
    if (!changed) onChange(parse(raw));
  }, () => undefined);
  return unwatch;
}

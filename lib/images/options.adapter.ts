/**
 * The composer's image options, kept per model in `storage.local` (across sessions and
 * surfaces): what was last set next to the composer, and whether the user turned image
 * generation on for a model the catalogue does not mark as an image model.
 */
import { storage } from '@wxt-dev/storage';
import * as z from 'zod/mini';
import { ImageOptionsSchema } from './types';

export const ModelImagePrefsSchema = z.object({
  options: z._default(z.catch(ImageOptionsSchema, {}), {}),
  /** For a model not marked as an image model: generation turned on (after the user confirmed). */
  on: z.optional(z.boolean()),
});
export type ModelImagePrefs = z.infer<typeof ModelImagePrefsSchema>;

const ImagePrefsSchema = z.record(z.string(), ModelImagePrefsSchema);
export type ImagePrefs = z.infer<typeof ImagePrefsSchema>;

const KEY = 'local:imageOptions';

/** Every model's image options (an unreadable entry is left out). */
export async function loadImagePrefs(): Promise<ImagePrefs> {
  const raw: unknown = await storage.getItem(KEY);
  if (raw === null || typeof raw !== 'object') return {};
  const out: ImagePrefs = {};
  for (const [model, value] of Object.entries(raw)) {
    const parsed = ModelImagePrefsSchema.safeParse(value);
    if (parsed.success) out[model] = parsed.data;
  }
  return out;
}

export async function saveImagePrefs(prefs: ImagePrefs): Promise<void> {
  await storage.setItem(KEY, ImagePrefsSchema.parse(prefs));
}

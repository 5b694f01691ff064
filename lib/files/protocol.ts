/** The page and the files worker (files.worker.ts) talk in these, parsed on both sides. */
import * as z from 'zod/mini';
import { AttachedFileSchema, FILE_REFUSALS } from './types';

export const FilesRequestSchema = z.object({
  type: z.literal('extract'),
  seq: z.number(),
  id: z.string(),
  file: z.custom<File>((value) => typeof File !== 'undefined' && value instanceof File),
});
export type FilesRequest = z.infer<typeof FilesRequestSchema>;

export const ExtractResultSchema = z.union([
  z.object({ ok: z.literal(true), file: AttachedFileSchema }),
  z.object({
    ok: z.literal(false),
    refusal: z.object({ name: z.string(), code: z.enum(FILE_REFUSALS), params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))) }),
  }),
]);

export const FilesReplySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('page'), seq: z.number(), page: z.number(), pages: z.number() }),
  z.object({ type: z.literal('result'), seq: z.number(), result: ExtractResultSchema }),
]);
export type FilesReply = z.infer<typeof FilesReplySchema>;

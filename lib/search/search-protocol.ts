/** The messages between a page and its search worker (search.worker.ts), checked on both sides. */
import * as z from 'zod/mini';

export const SearchRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('open') }),
  z.object({ type: z.literal('catchUp') }),
  /** Answered by 'hits', then (when `snippets` > 0) 'whereFound' for that many of the best. */
  z.object({ type: z.literal('search'), seq: z.number(), query: z.string(), limit: z.number(), snippets: z.number() }),
]);
export type SearchRequest = z.infer<typeof SearchRequestSchema>;

const SnippetSchema = z.object({ text: z.string(), marks: z.array(z.tuple([z.number(), z.number()])), matched: z.number() });
const FoundSchema = z.record(z.string(), z.object({ messageId: z.string(), snippet: SnippetSchema }));

export const SearchReplySchema = z.discriminatedUnion('type', [
  /** `found` comes with the hits when the texts for the snippets were at hand (else in a 'whereFound' after). */
  z.object({ type: z.literal('hits'), seq: z.number(), hits: z.array(z.object({ id: z.string(), score: z.number(), inTitle: z.boolean() })), found: z.optional(FoundSchema) }),
  z.object({ type: z.literal('whereFound'), seq: z.number(), found: FoundSchema }),
  z.object({ type: z.literal('failed'), seq: z.number(), detail: z.string() }),
  /** The index changed (a catch-up's progress): searches shown may be asked again. */
  z.object({ type: z.literal('indexed'), seq: z.literal(0), indexed: z.number(), of: z.number(), size: z.number() }),
]);
export type SearchReply = z.infer<typeof SearchReplySchema>;

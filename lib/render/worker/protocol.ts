/**
 * The render worker's one protocol: the page sends block sources, the worker answers with each
 * block as sanitised HTML. Both sides parse what they receive (a message between parts of the
 * extension is an edge like any other).
 */
import * as z from 'zod/mini';

const LabelsSchema = z.record(z.string(), z.string());

/** A finished message whose rendering is saved, so that opening it again costs no rendering. */
export const SavedMessageSchema = z.object({ id: z.string(), conversationId: z.string(), seq: z.optional(z.number()) });
export type SavedMessage = z.infer<typeof SavedMessageSchema>;

export const ToWorkerSchema = z.discriminatedUnion('type', [
  /** The words buttons carry from now on; `key` names them in caches. */
  z.object({ type: z.literal('labels'), key: z.string(), labels: LabelsSchema }),
  /** Blocks to render, answered by `rendered` with the same id, in the same order. */
  z.object({
    type: z.literal('render'),
    id: z.number(),
    sources: z.array(z.string()),
    saved: z.optional(SavedMessageSchema),
    /** The block still growing: its rendering is not worth keeping in the worker. */
    growing: z.optional(z.boolean()),
  }),
  /**
   * A conversation about to open (a press on its row): its newest saved renderings are read now,
   * while the page reads its messages, and answer its first `render` requests. No answer.
   */
  z.object({ type: z.literal('prefetch'), conversationId: z.string() }),
]);
export type ToWorker = z.infer<typeof ToWorkerSchema>;

export const RenderedBlockSchema = z.object({
  /** Sanitised HTML of the block. */
  html: z.string(),
  /** It holds a formula: the page loads KaTeX's styles. */
  math: z.boolean(),
  /** It holds a diagram to draw on the page. */
  diagram: z.boolean(),
});
export type RenderedBlock = z.infer<typeof RenderedBlockSchema>;

export const FromWorkerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('rendered'), id: z.number(), blocks: z.array(RenderedBlockSchema), fromCache: z.boolean() }),
  /** A render that threw: the page shows those blocks as text. `code` names what failed. */
  z.object({ type: z.literal('failed'), id: z.number(), code: z.string() }),
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;

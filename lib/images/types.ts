/**
 * Images (issue 30): the shapes every part shares. The gateway client asks for them
 * (lib/gateway/images.ts), the run manager keeps them as Blobs in IndexedDB (lib/images/store.ts)
 * and messages name them by id; pages show them through object URLs (components/images/).
 * Base64 is a wire format only: it is turned into a Blob as soon as an image has arrived.
 */
import * as z from 'zod/mini';

export const IMAGE_BACKGROUNDS = ['auto', 'transparent', 'opaque'] as const;
export type ImageBackground = (typeof IMAGE_BACKGROUNDS)[number];
export const IMAGE_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** How many images one request may ask for. */
export const IMAGE_COUNT = { min: 1, max: 4 } as const;

/** A size the user typed: `WxH` (or `auto`). */
export const SIZE_PATTERN = /^(?:\d{2,5}x\d{2,5}|auto)$/;

/** The options set next to the composer; each absent one is left to the gateway. */
export const ImageOptionsSchema = z.object({
  /** `1024x1024`, `auto`, … */
  size: z.optional(z.string()),
  /** `auto`, `low`, `medium`, `high`, `standard`, `hd`, … as the model takes them. */
  quality: z.optional(z.string()),
  /** 1–4. */
  n: z.optional(z.int().check(z.gte(IMAGE_COUNT.min), z.lte(IMAGE_COUNT.max))),
  /** gpt-image models only. */
  background: z.optional(z.enum(IMAGE_BACKGROUNDS)),
  /** gpt-image models only (`output_format`). */
  outputFormat: z.optional(z.enum(IMAGE_FORMATS)),
});
export type ImageOptions = z.infer<typeof ImageOptionsSchema>;

/**
 * What an image reply asked for, saved on the reply (`Message.imageRequest`): it marks the reply
 * as the answer of an image model, and says what to ask again on Retry.
 */
export const ImageRequestRecordSchema = z.object({
  prompt: z.string(),
  options: ImageOptionsSchema,
  /** An edit (`/images/edits`) of the user message's images, rather than a generation. */
  edit: z.optional(z.boolean()),
});
export type ImageRequestRecord = z.infer<typeof ImageRequestRecordSchema>;

/** Where an image came from. */
export const IMAGE_SOURCES = ['generated', 'edited', 'chat', 'attached'] as const;
export type ImageSource = (typeof IMAGE_SOURCES)[number];

/**
 * One image as kept in IndexedDB (table `images` of the conversations database). The Blob is
 * the only copy of its bytes; every message that shows it names its `id`.
 */
export const ImageRecordSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  /** The message that holds it. */
  messageId: z.string(),
  createdAt: z.number(),
  source: z.catch(z.enum(IMAGE_SOURCES), 'generated'),
  /** The prompt that made it (its accessible name, and what the Images view searches). */
  prompt: z.string(),
  /** The prompt as the model rewrote it (`revised_prompt`), when it says. */
  revisedPrompt: z.optional(z.string()),
  model: z.optional(z.string()),
  /**
   * `image/png`, `image/jpeg`, `image/webp` or `image/gif`, as its bytes are: every path that
   * stores an image (a chat model's data URI, an image run's results, a history import) decides
   * it from the bytes and keeps no other type. Read as any string: rows of older builds stay readable.
   */
  mime: z.string(),
  /** The size asked for (`1024x1024`), when one was. */
  size: z.optional(z.string()),
  width: z.optional(z.number()),
  height: z.optional(z.number()),
  /** Its place among the images of its reply (`data[index]`). */
  index: z._default(z.number(), 0),
  /** A partial image of a stream, replaced by the final one when it comes. */
  partial: z.optional(z.boolean()),
  /** What it cost, in the price list's currency, when known (per image). */
  cost: z.optional(z.object({ amount: z.number(), currency: z.string() })),
  blob: z.custom<Blob>((value) => typeof Blob !== 'undefined' && value instanceof Blob),
});
export type ImageRecord = z.infer<typeof ImageRecordSchema>;
/** An image's facts without its bytes (lists, exports' index). */
export type ImageMeta = Omit<ImageRecord, 'blob'>;

/**
 * How message text names an image taken out of it: `![alt](gc-image:{id})`. A chat model's
 * `![image](data:image/png;base64,…)` is kept as this short reference, its bytes in the store.
 */
export const IMAGE_REF_SCHEME = 'gc-image:';

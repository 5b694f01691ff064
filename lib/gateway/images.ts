/**
 * Image models (issue 30): what `POST {base}/images/generations` (JSON) and `/images/edits`
 * (multipart) are sent, and how their answer is read: a JSON body `{data:[{b64_json,url,
 * revised_prompt}], usage?}`, or a stream of `image_generation.partial_image` /
 * `image_generation.completed` events (`image_edit.*` for edits), possibly ended by `[DONE]`.
 * new-api sends both `b64_json` and `url`, one of them empty: the non-empty one is used.
 * The requests themselves go through the client (client.ts): same key confinement, deadlines
 * and error classification as chat.
 */
import * as z from 'zod/mini';
import type { ImageOptions } from '../images/types';
import { buildGatewayError, streamErrorFrom, type ClassifyContext } from './classify';
import { bodyFacts, normalizeUsage, parseJson, snippet } from './decoders';
import type { GatewayError } from './errors';
import type { SseItem } from './sse';
import type { Usage } from './types';
import { UsageWire } from './wire';

export interface ImageRequest extends ImageOptions {
  model: string;
  prompt: string;
  /** Ask for partial images as they are drawn (models that cannot stream answer with JSON anyway). */
  stream?: boolean;
}

export interface ImageEditRequest extends ImageRequest {
  /** The image(s) to edit, sent as `image` (one) or `image[]` (several). */
  images: Blob[];
  mask?: Blob;
}

export type ImageEvent =
  /** A stream's partial image of image `index` (replaced by the next partial, then by the image). */
  | { type: 'partial'; index: number; b64: string; mime: string }
  /** An image, as base64 or (when the gateway gave an address) a `url` to fetch at once: it expires. */
  | { type: 'image'; index: number; b64?: string; url?: string; mime: string; revisedPrompt?: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'error'; error: GatewayError }
  | { type: 'done' };

/**
 * DALL·E models answer with an address by default, which expires and may lie on a host this
 * extension cannot read: they are asked for base64. gpt-image models only answer base64 and
 * refuse `response_format`; other models are left to the gateway. DALL·E cannot stream.
 */
function isDallE(model: string): boolean {
  return /(^|\/)dall-e/i.test(model);
}

/** Whether the request goes out with `stream: true`. */
export function streamsImages(request: ImageRequest): boolean {
  return request.stream === true && !isDallE(request.model);
}

/**
 * How many partial images a streamed request asks for: OpenAI's gpt-image models send none
 * unless asked (`partial_images`, 0–3); other models are not sent the field.
 */
const PARTIAL_IMAGES = 2;

function streamFields(request: ImageRequest): Record<string, string | number | boolean> {
  if (!streamsImages(request)) return {};
  return /gpt-image/i.test(request.model) ? { stream: true, partial_images: PARTIAL_IMAGES } : { stream: true };
}

/** The options as the API names them, only those set. */
function optionFields(request: ImageRequest): Record<string, string | number> {
  const fields: Record<string, string | number> = {};
  if (request.n !== undefined) fields.n = request.n;
  if (request.size !== undefined && request.size !== '') fields.size = request.size;
  if (request.quality !== undefined && request.quality !== '') fields.quality = request.quality;
  if (request.background !== undefined) fields.background = request.background;
  if (request.outputFormat !== undefined) fields.output_format = request.outputFormat;
  if (isDallE(request.model)) fields.response_format = 'b64_json';
  return fields;
}

/** The JSON body of `POST /images/generations`. */
export function imageGenerationBody(request: ImageRequest): Record<string, unknown> {
  return { model: request.model, prompt: request.prompt, ...optionFields(request), ...streamFields(request) };
}

const EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** The multipart body of `POST /images/edits` (fetch sets its Content-Type, with the boundary). */
export function imageEditForm(request: ImageEditRequest): FormData {
  const form = new FormData();
  form.append('model', request.model);
  form.append('prompt', request.prompt);
  const field = request.images.length > 1 ? 'image[]' : 'image';
  request.images.forEach((image, i) => form.append(field, image, `image-${i + 1}.${EXTENSIONS[image.type] ?? 'png'}`));
  if (request.mask !== undefined) form.append('mask', request.mask, `mask.${EXTENSIONS[request.mask.type] ?? 'png'}`);
  for (const [name, value] of Object.entries({ ...optionFields(request), ...streamFields(request) })) form.append(name, String(value));
  return form;
}

const optionalString = z.optional(z.nullable(z.string()));

const ImageDatum = z.looseObject({
  b64_json: optionalString,
  url: optionalString,
  revised_prompt: optionalString,
});

/** The answer of `/images/generations` and `/images/edits` when not streamed. */
export const ImagesResponse = z.looseObject({
  data: z.optional(z.nullable(z.array(ImageDatum))),
  usage: z.optional(z.nullable(UsageWire)),
  output_format: optionalString,
});
export type ImagesResponse = z.infer<typeof ImagesResponse>;

/** One event of a streamed answer (or a whole answer sent as one event by a gateway). */
export const ImageStreamEvent = z.looseObject({
  type: optionalString,
  b64_json: optionalString,
  url: optionalString,
  revised_prompt: optionalString,
  partial_image_index: z.optional(z.nullable(z.number())),
  output_format: optionalString,
  usage: z.optional(z.nullable(UsageWire)),
  data: z.optional(z.nullable(z.array(ImageDatum))),
  error: z.optional(z.unknown()),
});
export type ImageStreamEvent = z.infer<typeof ImageStreamEvent>;

const FORMAT_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

/** An image's type from its first base64 characters (the bytes say it best), if we know it. */
export function sniffBase64Type(b64: string): string | undefined {
  const head = b64.slice(0, 16).trimStart();
  if (head.startsWith('iVBORw0KGgo')) return 'image/png';
  if (head.startsWith('/9j/')) return 'image/jpeg';
  if (head.startsWith('UklGR')) return 'image/webp';
  if (head.startsWith('R0lGOD')) return 'image/gif';
  return undefined;
}

/** An image's type from its first bytes, if we know it. */
export function sniffImageType(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]): boolean => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  return undefined;
}

/** The type of an image: its bytes', else the format (or type) the answer named, else the one asked, else PNG. */
export function imageMime(b64: string | undefined, format: string | null | undefined, asked: string | undefined): string {
  const sniffed = b64 === undefined ? undefined : sniffBase64Type(b64);
  if (sniffed !== undefined) return sniffed;
  const typeOf = (word: string | null | undefined): string | undefined => {
    const lower = (word ?? '').toLowerCase();
    return /^image\/[\w.+-]+$/.test(lower) ? lower : FORMAT_TYPES[lower];
  };
  return typeOf(format) ?? typeOf(asked) ?? 'image/png';
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return value === undefined || value === null || value.trim() === '' ? undefined : value;
}

/** Some gateways put a whole data URI in `b64_json`: its base64, and the type it names. */
function base64Of(value: string | null | undefined): { b64: string; named?: string } | undefined {
  const given = nonEmpty(value);
  if (given === undefined) return undefined;
  const head = /^\s*data:(image\/[\w.+-]+)?(?:;[^,]*)?;base64,/i.exec(given.slice(0, 200));
  if (head === null) return { b64: given };
  const b64 = given.slice(head[0].length);
  if (b64.trim() === '') return undefined;
  return head[1] === undefined ? { b64 } : { b64, named: head[1].toLowerCase() };
}

/** An image of a JSON answer (or of a stream's completed event): base64 when given, else the address. */
function imageFrom(datum: { b64_json?: string | null; url?: string | null; revised_prompt?: string | null }, index: number, format: string | null | undefined, asked: string | undefined): ImageEvent | undefined {
  const inline = base64Of(datum.b64_json);
  const b64 = inline?.b64;
  const url = b64 === undefined ? nonEmpty(datum.url) : undefined;
  if (b64 === undefined && url === undefined) return undefined;
  const event: ImageEvent & { type: 'image' } = { type: 'image', index, mime: imageMime(b64, inline?.named ?? format, asked) };
  if (b64 !== undefined) event.b64 = b64;
  if (url !== undefined) event.url = url;
  const revised = nonEmpty(datum.revised_prompt);
  if (revised !== undefined) event.revisedPrompt = revised;
  return event;
}

/**
 * Reads a streamed image answer, event by event. Images are numbered in the order they complete
 * (a partial belongs to the image being drawn); `partial_image_index` counts a partial's drafts,
 * not images. Ends with exactly one `done` or one `error`.
 */
export class ImageStreamDecoder {
  private over = false;
  private completed = 0;
  private partials = 0;
  private usage: Usage | undefined;

  constructor(private readonly ctx: ClassifyContext, private readonly asked?: string) {}

  /** Images (not partials) received so far. */
  get images(): number {
    return this.completed;
  }

  /** Whether anything that counts as progress came (a partial or an image). */
  get started(): boolean {
    return this.completed + this.partials > 0;
  }

  /** Handles one item of the stream. Returns true once the answer is over. */
  item(item: SseItem, out: ImageEvent[]): boolean {
    if (this.over) return true;
    if (item.kind === 'overflow') return this.failWith(buildGatewayError('bad_response', {}, this.ctx, { code: 'event_too_large', params: { megabytes: 16 } }), out);
    if (item.kind === 'field') {
      if (item.field !== 'error') return false;
      const parsed = parseJson(item.value);
      return this.failWith(streamErrorFrom(parsed.ok ? bodyFacts(parsed.value, this.ctx) : { message: item.value }, this.ctx), out);
    }
    const data = item.data.trim();
    if (item.event === 'error') {
      const parsed = parseJson(data);
      return this.failWith(streamErrorFrom(parsed.ok ? bodyFacts(parsed.value, this.ctx) : { message: data }, this.ctx), out);
    }
    if (data === '') return false;
    if (data === '[DONE]') {
      this.end(out);
      return true;
    }
    const parsed = parseJson(data);
    if (!parsed.ok) {
      // Keep-alive words are not events; a cut or garbled JSON event is a broken stream.
      return /^[[{]/.test(data) ? this.failWith(buildGatewayError('bad_response', {}, this.ctx, { code: 'chunk_not_json', text: snippet(data, this.ctx) }), out) : false;
    }
    const value = ImageStreamEvent.safeParse(parsed.value);
    if (!value.success) return this.failWith(buildGatewayError('bad_response', {}, this.ctx, { code: 'chunk_wrong_shape', text: snippet(data, this.ctx) }), out);
    return this.accept(value.data, item.event, out);
  }

  private accept(event: ImageStreamEvent, name: string | undefined, out: ImageEvent[]): boolean {
    const type = event.type ?? name ?? '';
    if ((event.error !== undefined && event.error !== null) || type === 'error') {
      return this.failWith(streamErrorFrom(bodyFacts(event, this.ctx), this.ctx), out);
    }
    if (event.usage != null) this.usage = normalizeUsage(event.usage);
    if (type.endsWith('.partial_image')) {
      const inline = base64Of(event.b64_json);
      if (inline !== undefined) {
        this.partials++;
        out.push({ type: 'partial', index: this.completed, b64: inline.b64, mime: imageMime(inline.b64, inline.named ?? event.output_format, this.asked) });
      }
      return false;
    }
    if (type.endsWith('.completed')) {
      const image = imageFrom(event, this.completed, event.output_format, this.asked);
      if (image !== undefined) {
        this.completed++;
        out.push(image);
      }
      return false;
    }
    // A gateway that sent its whole JSON answer as one event.
    if (event.data != null) {
      for (const datum of event.data) {
        const image = imageFrom(datum, this.completed, event.output_format, this.asked);
        if (image === undefined) continue;
        this.completed++;
        out.push(image);
      }
    }
    // Other events (`…in_progress`, …) say nothing we show.
    return false;
  }

  /** The body ended (or `[DONE]` came): done when an image came, else why not. */
  end(out: ImageEvent[]): void {
    if (this.over) return;
    if (this.completed > 0) {
      if (this.usage !== undefined) out.push({ type: 'usage', usage: this.usage });
      out.push({ type: 'done' });
      this.over = true;
      return;
    }
    // Partials without their image: the stream was cut; nothing at all: an answer without an image.
    this.fail(this.partials > 0
      ? buildGatewayError('network', {}, this.ctx, { code: 'connection_dropped', params: { origin: originOf(this.ctx.url) } })
      : buildGatewayError('bad_response', {}, this.ctx, { code: 'no_image' }), out);
  }

  /** The stream failed from outside (network, timeout, abort), or the gateway said so: what came is kept, then the error. */
  fail(error: GatewayError, out: ImageEvent[]): void {
    if (this.over) return;
    if (this.usage !== undefined) out.push({ type: 'usage', usage: this.usage });
    out.push({ type: 'error', error });
    this.over = true;
  }

  private failWith(error: GatewayError, out: ImageEvent[]): boolean {
    this.fail(error, out);
    return true;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A JSON answer: the same events as a stream (its images, its usage, done). */
export function decodeImagesBody(value: unknown, ctx: ClassifyContext, asked?: string): ImageEvent[] {
  const parsed = ImagesResponse.safeParse(value);
  if (!parsed.success) throw buildGatewayError('bad_response', {}, ctx, { code: 'no_image' });
  const out: ImageEvent[] = [];
  let index = 0;
  for (const datum of parsed.data.data ?? []) {
    const image = imageFrom(datum, index, parsed.data.output_format, asked);
    if (image === undefined) continue;
    out.push(image);
    index++;
  }
  if (index === 0) throw buildGatewayError('bad_response', {}, ctx, { code: 'no_image' });
  if (parsed.data.usage != null) out.push({ type: 'usage', usage: normalizeUsage(parsed.data.usage) });
  out.push({ type: 'done' });
  return out;
}

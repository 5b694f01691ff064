/**
 * An image run (issue 30): the request to an image model (`/images/generations`, or
 * `/images/edits` with the question's images), its events kept as they come. Each partial image
 * of a stream is saved (`partial: true`) in its place among the reply's images, replaced by the
 * next partial of that place and then by the final image; a final image given by address is
 * fetched at once (the address expires). Bytes become Blobs at once: no base64 outlives its event.
 * The run manager owns the reply (its status, its saves, its watchers); this owns the images.
 */
import { GatewayError, type ModelPrice, type Usage } from '../gateway';
import { sniffImageType } from '../gateway/images';
import type { Message } from '../conversations/records';
import type { ImageStore } from '../images/store';
import type { ImageScaler } from '../images/scale';
import type { ImageOptions, ImageRecord, ImageRequestRecord } from '../images/types';
import type { GatewayClient, ImageEvent, ImageRequest } from '../gateway';
import { base64ToBytes } from '../images/inline';
import { fitForEdit } from './image-fit';
import { blobToBase64 } from '../images/bytes';

/** What an image reply asks, and of what (kept on the reply as `imageRequest`). */
export interface ImageJob {
  model: string;
  prompt: string;
  options: ImageOptions;
  /** The images to edit (the question's attachments and its `imageIds`), when it is an edit. */
  edit?: Blob[];
  /** Per image, from the price list (per call), when known. */
  cost?: { amount: number; currency: string };
}

/** Base64 as an image Blob of the type its bytes are (PNG, JPEG, WebP, GIF); undefined when it is not base64 or not one of those. */
function imageOfBase64(b64: string): Blob | undefined {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = base64ToBytes([b64]);
  } catch {
    return undefined;
  }
  const type = sniffImageType(bytes);
  return type === undefined ? undefined : new Blob([bytes as BlobPart], { type });
}

/** A Blob as an image of the type its bytes are; undefined when they are not a PNG, JPEG, WebP or GIF. */
async function imageOfBlob(blob: Blob): Promise<Blob | undefined> {
  const type = sniffImageType(new Uint8Array(await blob.slice(0, 16).arrayBuffer()));
  if (type === undefined) return undefined;
  return blob.type === type ? blob : new Blob([blob], { type });
}

/** The `imageRequest` saved on the reply of a job. */
export function requestRecordOf(prompt: string, options: ImageOptions, edit: boolean): ImageRequestRecord {
  return { prompt, options, ...(edit ? { edit: true } : {}) };
}

/** A `data:` URL's bytes as a Blob; undefined when it is not a base64 data URL. */
export function dataUrlToBlob(url: string): Blob | undefined {
  const match = /^data:([^;,]+)(?:;[^,]*)?;base64,/i.exec(url.slice(0, 200));
  if (match === null) return undefined;
  return new Blob([base64ToBytes([url.slice(match[0].length)]) as BlobPart], { type: match[1]!.toLowerCase() });
}

/** A Blob as a `data:` URL. */
export async function blobToDataUrl(blob: Blob): Promise<string> {
  return `data:${blob.type || 'image/png'};base64,${await blobToBase64(blob)}`;
}

/** The price of one image: a per-call price is per image (new-api bills `model_price × n`). */
export function costPerImage(price: ModelPrice | undefined): ImageJob['cost'] {
  return price?.perRequest === undefined ? undefined : { amount: price.perRequest, currency: price.currency };
}

/**
 * The images to send for an edit: the question's attachments (data URLs) and stored images
 * (`imageIds`), each scaled down when too large. `scaled` lists those that were (`from`/`to`).
 */
export async function editImagesOf(question: Pick<Message, 'images' | 'imageIds' | 'conversationId'>, images: ImageStore, scaler: ImageScaler): Promise<{ blobs: Blob[]; missing: string[]; scaled: { from: string; to: string }[] }> {
  const attached = (question.images ?? []).flatMap((url) => dataUrlToBlob(url) ?? []);
  const ids = question.imageIds ?? [];
  // Another conversation's image is not this question's: as if it were not stored.
  const stored = (await images.getMany(ids)).filter((s) => s.conversationId === question.conversationId);
  const missing = ids.filter((id) => !stored.some((s) => s.id === id));
  const fitted = await Promise.all([...stored.map((s) => s.blob), ...attached].map((blob) => fitForEdit(blob, scaler)));
  return { blobs: fitted.map((f) => f.blob), missing, scaled: fitted.flatMap((f) => (f.scaled === undefined ? [] : [f.scaled])) };
}

export interface ImageRunContext {
  client: GatewayClient;
  images: ImageStore;
  signal: AbortSignal;
  conversationId: string;
  messageId: string;
  newId(): string;
  now(): number;
  /** The reply's images changed: their ids in order (save them on the reply, tell watchers). */
  onImages(ids: string[]): Promise<void>;
  /** The first image (partial or final) came. */
  onFirst(): void;
}

export type ImageRunEnd = { ended: 'done'; usage?: Usage } | { ended: 'error'; error: GatewayError; usage?: Usage } | { ended: 'cut'; usage?: Usage };

/** Runs the job to its end; throws what the client throws (the caller classifies it as for chat). */
export async function runImageJob(job: ImageJob, context: ImageRunContext): Promise<ImageRunEnd> {
  const { client, images, signal } = context;
  const request: ImageRequest = { model: job.model, prompt: job.prompt, ...job.options, stream: true };
  const events: AsyncIterable<ImageEvent> = job.edit === undefined
    ? client.generateImages(request, { signal })
    : client.editImages({ ...request, images: job.edit }, { signal });
  /** Each place's image now (partial or final), by `index`. */
  const places = new Map<number, { id: string; partial: boolean }>();
  let usage: Usage | undefined;
  let first = true;
  // Each image a time of its own (the Images view pages by time): never two alike within a run.
  let last = 0;
  const createdAt = (): number => (last = Math.max(context.now(), last + 1));
  const record = (index: number, mime: string, blob: Blob, extra: Partial<ImageRecord>): ImageRecord => ({
    id: context.newId(), conversationId: context.conversationId, messageId: context.messageId, createdAt: createdAt(),
    source: job.edit === undefined ? 'generated' : 'edited', prompt: job.prompt, model: job.model, mime,
    index, blob, ...(job.options.size === undefined ? {} : { size: job.options.size }), ...extra,
  });
  const place = async (index: number, image: ImageRecord, partial: boolean): Promise<void> => {
    if (first) {
      first = false;
      context.onFirst();
    }
    const before = places.get(index);
    await images.put(image);
    places.set(index, { id: image.id, partial });
    await context.onImages([...places.entries()].sort(([a], [b]) => a - b).map(([, p]) => p.id));
    if (before !== undefined) await images.remove([before.id]);
  };
  /** An image given was refused (not base64, or not a PNG, JPEG, WebP or GIF by its bytes). */
  let refused = false;
  for await (const event of events) {
    switch (event.type) {
      case 'partial': {
        // A partial that comes after its place's final image is late: the final one stays.
        if (places.get(event.index)?.partial === false) break;
        const image = imageOfBase64(event.b64);
        if (image === undefined) break;
        await place(event.index, record(event.index, image.type, image, { partial: true }), true);
        break;
      }
      case 'image': {
        let blob: Blob | undefined;
        if (event.b64 !== undefined && event.b64 !== '') blob = imageOfBase64(event.b64);
        else if (event.url !== undefined && event.url !== '') blob = await imageOfBlob(await client.fetchImage(event.url, { signal }));
        if (blob === undefined) {
          refused = true;
          break;
        }
        const extra: Partial<ImageRecord> = {};
        if (event.revisedPrompt !== undefined) extra.revisedPrompt = event.revisedPrompt;
        if (job.cost !== undefined) extra.cost = job.cost;
        await place(event.index, record(event.index, blob.type, blob, extra), false);
        break;
      }
      case 'usage':
        usage = event.usage;
        break;
      case 'error':
        return { ended: 'error', error: event.error, ...(usage === undefined ? {} : { usage }) };
      case 'done':
        // Every image refused: no image came, as when the answer holds none.
        if (refused && ![...places.values()].some((p) => !p.partial)) {
          return { ended: 'error', error: new GatewayError({ kind: 'bad_response', url: '', detail: { code: 'no_image' } }), ...(usage === undefined ? {} : { usage }) };
        }
        return { ended: 'done', ...(usage === undefined ? {} : { usage }) };
    }
  }
  return { ended: 'cut', ...(usage === undefined ? {} : { usage }) };
}

/**
 * Images inside a chat model's streamed reply (Gemini's image models answer
 * `![image](data:image/png;base64,…)` in their text, megabytes of it): taken out as they arrive,
 * kept in the image store, and named in the text by `![alt](gc-image:{id})`, so neither the saved
 * text nor what watchers are sent ever holds the base64. On the next turn the references become
 * `data:` URIs again (`withImagesInline`), which is how the model edits its last image.
 */
import { newId } from '../conversations/ids';
import type { Message } from '../conversations/records';
import type { ImageStore } from '../images/store';
import { IMAGE_REF_SCHEME, type ImageRecord } from '../images/types';
import { base64ToBytes, imageRefs, InlineImageExtractor, replaceImageRefs, type InlineImage, type InlinePiece } from '../images/inline';
import { blobToDataUrl } from './image-run';
import { sniffImageType } from '../gateway/images';

export interface ChatImagesContext {
  conversationId: string;
  messageId: string;
  /** The question: each image's name (its prompt). */
  prompt: string;
  model?: string;
  images: ImageStore;
  now(): number;
  /** The reply's image ids changed, the new image saved (save them on the reply, tell watchers). */
  onImages(ids: string[]): Promise<void>;
  onSaveError(failure: unknown): void;
}

/** One streaming reply's images. */
export class ChatImages {
  /** The reply's images so far, in order. */
  ids: string[] = [];
  /** Their saves, in order: the end of the reply is saved after them. */
  saved: Promise<void> = Promise.resolve();
  /** Set at the end when an image was cut off (stopped, or the stream broke) and dropped. */
  cut: { alt: string } | undefined;
  private readonly extractor = new InlineImageExtractor(newId);
  private last = 0;

  constructor(private readonly context: ChatImagesContext) {}

  /** The text to keep of what arrived. */
  push(text: string): string {
    return this.take(this.extractor.push(text));
  }

  /** The text held back at the end. */
  end(): string {
    return this.take(this.extractor.end());
  }

  private take({ text, images, cut }: InlinePiece): string {
    let kept = text;
    for (const image of images) {
      // An image whose bytes are not one makes no reference: the rest of the reply goes on.
      if (!this.keep(image)) kept = kept.replace(`![${image.alt}](${IMAGE_REF_SCHEME}${image.id})`, '');
    }
    if (cut !== undefined) this.cut = cut;
    return kept;
  }

  /**
   * Stores `image`; false when its base64 does not decode or its bytes are not a PNG, JPEG, WebP
   * or GIF (nothing is stored). Its type is its bytes', whatever the data URI said.
   */
  private keep(image: InlineImage): boolean {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = base64ToBytes(image.base64);
    } catch {
      return false;
    }
    const mime = sniffImageType(bytes);
    if (mime === undefined) return false;
    const { conversationId, messageId, prompt, model } = this.context;
    // Each image a time of its own: the Images view pages by time.
    this.last = Math.max(this.context.now(), this.last + 1);
    const record: ImageRecord = {
      id: image.id, conversationId, messageId, createdAt: this.last, source: 'chat', prompt,
      mime, index: this.ids.length, blob: new Blob([bytes as BlobPart], { type: mime }),
      ...(model === undefined ? {} : { model }),
    };
    this.ids = [...this.ids, record.id];
    const ids = this.ids;
    this.saved = this.saved.then(async () => {
      await this.context.images.put(record);
      await this.context.onImages(ids);
    }).catch((failure: unknown) => this.context.onSaveError(failure));
    return true;
  }
}

/** What a model is sent for an image it is not sent: a short mention, never our `gc-image:` address. */
export function imageMention(alt: string): string {
  return alt.trim() === '' ? '[image]' : `[image: ${alt.trim()}]`;
}

/**
 * The history as a model is sent it. The images of the most recent reply that holds any go back
 * inline as `data:` URIs from the store, when the model asked is the one that made them (so it
 * sees, and can edit, its last image); every other reference, to an image of an older reply,
 * another model's, one no longer stored, or one of another conversation, becomes a short mention
 * (`imageMention`): no model is sent megabytes on every turn, nor our internal addresses.
 * A store that cannot be read throws (the turn is refused before anything is written).
 */
export async function withImagesInline(history: Message[], images: ImageStore, asked: { conversationId: string; model: string }): Promise<Message[]> {
  const holds = (m: Message): boolean => m.role === 'assistant' && m.text.includes(IMAGE_REF_SCHEME);
  const last = history.findLast((m) => holds(m) && imageRefs(m.text).length > 0);
  if (last === undefined) return history;
  const ids = last.model === asked.model ? imageRefs(last.text) : [];
  const found = ids.length === 0 ? [] : await images.getMany([...new Set(ids)]);
  const urls = new Map<string, string>();
  for (const image of found) {
    // Another conversation's image is not this one's to send: as if it were not there.
    if (image.conversationId === asked.conversationId) urls.set(image.id, await blobToDataUrl(image.blob));
  }
  return history.map((m) => (holds(m) ? { ...m, text: replaceImageRefs(m.text, (id) => (m === last ? urls.get(id) : undefined), imageMention) } : m));
}

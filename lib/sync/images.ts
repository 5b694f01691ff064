/**
 * Images in sync (issue 31): an image a message holds goes as a change carrying its facts and its
 * bytes as base64, the way history files carry them; one that arrives is checked as an import's
 * is (an image by its bytes, of its conversation) before it is stored.
 */
import { base64ToBlob, blobToBase64 } from '@/lib/images/bytes';
import { metaOf } from '@/lib/images/store';
import type { ImageRecord } from '@/lib/images/types';
import { sniffImageType } from '@/lib/gateway/images';
import type { ExportedImage } from '@/lib/transfer/history-file';

export async function imageForSync(record: ImageRecord): Promise<ExportedImage> {
  return { ...metaOf(record), base64: await blobToBase64(record.blob) };
}

/** An image from another device as the store keeps it, or undefined when its bytes are not an image. */
export function imageFromSync(image: ExportedImage): ImageRecord | undefined {
  const { base64, ...meta } = image;
  const head = base64.slice(0, 64).replace(/\s+/g, '').slice(0, 16);
  let mime: string | undefined;
  try {
    mime = sniffImageType(Uint8Array.from(atob(head.slice(0, head.length - (head.length % 4))), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
  if (mime === undefined) return undefined;
  const blob = base64ToBlob(base64, mime);
  return blob === undefined ? undefined : { ...meta, mime, blob };
}

/** About how many bytes a change takes in a segment (an image's base64 is most of it). */
export function changeWeight(change: { type: string; image?: { base64: string }; message?: { text: string; reasoning: string } }): number {
  if (change.type === 'image') return (change.image?.base64.length ?? 0) + 500;
  if (change.type === 'message') return (change.message?.text.length ?? 0) + (change.message?.reasoning.length ?? 0) + 500;
  return 200;
}

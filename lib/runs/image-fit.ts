/**
 * Images sent to be edited are scaled down first when too large (image models take up to about
 * 4 MB and 2048 px a side; more is refused, or wastes the upload). Done in the background, which
 * holds the images (see lib/images/scale.ts for what the platform offers); the policy is here,
 * apart from the drawing, so it is tested without a canvas.
 */
import type { ImageScaler } from '../images/scale';

export const EDIT_IMAGE_LIMITS = { maxBytes: 4 * 1024 * 1024, maxSide: 2048 } as const;

export interface Fitted {
  blob: Blob;
  /** Set when it was scaled: the sizes before and after (`WxH`). */
  scaled?: { from: string; to: string };
}

/** Formats an edit may be sent in; any other is redrawn as PNG. */
const KEPT_FORMATS = new Set(['image/png', 'image/jpeg', 'image/webp']);

/**
 * The image within the limits: its longer side brought to `maxSide`, then smaller (by the square
 * root of the excess, a few tries) while its bytes are over `maxBytes`. An image that cannot be
 * measured here is sent as it is.
 */
export async function fitForEdit(blob: Blob, scaler: ImageScaler, limits: { maxBytes: number; maxSide: number } = EDIT_IMAGE_LIMITS): Promise<Fitted> {
  const size = await scaler.measure(blob);
  if (size === undefined || (blob.size <= limits.maxBytes && Math.max(size.width, size.height) <= limits.maxSide)) return { blob };
  const mime = KEPT_FORMATS.has(blob.type) ? blob.type : 'image/png';
  let factor = Math.min(1, limits.maxSide / Math.max(size.width, size.height));
  let out = blob;
  let width = size.width;
  let height = size.height;
  for (let attempt = 0; attempt < 4; attempt++) {
    width = Math.max(1, Math.floor(size.width * factor));
    height = Math.max(1, Math.floor(size.height * factor));
    out = await scaler.scale(blob, width, height, mime);
    if (out.size <= limits.maxBytes) break;
    factor *= Math.sqrt(limits.maxBytes / out.size) * 0.9;
  }
  return { blob: out, scaled: { from: `${size.width}x${size.height}`, to: `${width}x${height}` } };
}

/**
 * Measuring and scaling an image down, where the platform can: the background's service worker
 * (Chrome: `createImageBitmap` and `OffscreenCanvas`; Firefox's event page has them too) and
 * pages. Where it cannot (tests in Node), `measure` answers undefined and nothing is scaled: the
 * gateway then says what it refuses.
 */
export interface ImageScaler {
  /** The image's size in pixels; undefined when it cannot be decoded here. */
  measure(blob: Blob): Promise<{ width: number; height: number } | undefined>;
  /** The image drawn at `width`×`height`, encoded as `mime` where the platform can (else PNG). */
  scale(blob: Blob, width: number, height: number, mime: string): Promise<Blob>;
}

interface Canvas {
  getContext(kind: '2d'): { drawImage(image: unknown, x: number, y: number, w: number, h: number): void } | null;
  convertToBlob(options?: { type?: string; quality?: number }): Promise<Blob>;
}
interface Bitmap {
  width: number;
  height: number;
  close(): void;
}
type Platform = {
  createImageBitmap?: (blob: Blob) => Promise<Bitmap>;
  OffscreenCanvas?: new (width: number, height: number) => Canvas;
};

export function platformScaler(platform: Platform = globalThis as unknown as Platform): ImageScaler {
  return {
    async measure(blob) {
      if (platform.createImageBitmap === undefined) return undefined;
      try {
        const bitmap = await platform.createImageBitmap(blob);
        const size = { width: bitmap.width, height: bitmap.height };
        bitmap.close();
        return size;
      } catch {
        return undefined;
      }
    },
    async scale(blob, width, height, mime) {
      if (platform.createImageBitmap === undefined || platform.OffscreenCanvas === undefined) return blob;
      const bitmap = await platform.createImageBitmap(blob);
      try {
        const canvas = new platform.OffscreenCanvas(width, height);
        const context = canvas.getContext('2d');
        if (context === null) return blob;
        context.drawImage(bitmap, 0, 0, width, height);
        return await canvas.convertToBlob({ type: mime, quality: 0.9 });
      } finally {
        bitmap.close();
      }
    },
  };
}

/** Image bytes as base64 and back, a slice at a time (megabytes never go through one call). */

/** Bytes as base64: encoded in slices of a multiple of 3 bytes (no padding inside), joined once. */
export function bytesToBase64(bytes: Uint8Array): string {
  const pieces: string[] = [];
  const SLICE = 3 * 8192;
  for (let at = 0; at < bytes.length; at += SLICE) {
    const slice = bytes.subarray(at, at + SLICE);
    let binary = '';
    for (let i = 0; i < slice.length; i += 4096) binary += String.fromCharCode(...slice.subarray(i, i + 4096));
    pieces.push(btoa(binary));
  }
  return pieces.join('');
}

export async function blobToBase64(blob: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await blob.arrayBuffer()));
}

/** Base64 (whitespace allowed) as a Blob of `mime`, decoded a slice at a time; undefined when it is not base64. */
export function base64ToBlob(base64: string, mime: string): Blob | undefined {
  const text = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) return undefined;
  const parts: Uint8Array<ArrayBuffer>[] = [];
  const SLICE = 4 * 16384;
  for (let at = 0; at < text.length; at += SLICE) {
    const chunk = text.slice(at, at + SLICE);
    const binary = atob(chunk.padEnd(Math.ceil(chunk.length / 4) * 4, '='));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    parts.push(bytes);
  }
  return new Blob(parts, { type: mime });
}

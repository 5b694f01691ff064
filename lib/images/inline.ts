/**
 * Images inside a chat model's text (issue 30, item 4): Gemini image models answer through Chat
 * Completions with `![image](data:image/png;base64,…)` in their text, streamed in pieces, megabytes
 * long. `InlineImageExtractor` takes each one out as it streams (its base64 kept as the pieces it
 * came in, never one growing string) and leaves a short reference `![alt](gc-image:{id})` in the
 * text; `replaceImageRefs` puts data URIs back for the next turn. Framework-free.
 */
import { IMAGE_REF_SCHEME } from './types';

/** An image taken out of the text. */
export interface InlineImage {
  /** The id its reference in the text names (from the extractor's `newId`). */
  id: string;
  alt: string;
  /** `image/png`, … as the data URI said. */
  mime: string;
  /** The base64, whitespace removed, in the pieces it came in (see `base64ToBytes`). */
  base64: string[];
}

/** What one push (or the end) gives: text to show and images completed. */
export interface InlinePiece {
  text: string;
  images: InlineImage[];
  /** The end only: an image was cut off (its head whole, its base64 long): dropped, not given back as text. */
  cut?: { alt: string };
}

/** An unfinished image longer than this (head and base64, in characters) is dropped at the end rather than given back as text. */
export const CUT_IMAGE_CHARS = 2048;

/** The longest alt text (and the longest data URI head) we wait for before deciding it is text. */
const MAX_ALT = 1000;
const MAX_HEAD = 200;

/** A data URI image's head, complete: `![alt](data:image/…[;params];base64,`. */
const IMAGE_HEAD = /^!\[([^\]\n]*)\]\(data:(image\/[\w.+-]+)(?:;[\w.+-]+(?:=[^;,)\s]*)?)*?;base64,/i;
/** What may still become the part after `](`: `data:image/…[;params]` not yet at `;base64,`. */
const HEAD_SO_FAR = /^data:image\/[\w.+-]*(?:;[\w.+-]*(?:=[^;,)\s]*)?)*$/i;
const DATA_IMAGE = 'data:image/';
/** A character that cannot be in base64 (standard or URL-safe) nor whitespace. */
const NOT_BASE64 = /[^A-Za-z0-9+/=_\s-]/;
const SPACE = /\s/;

type Verdict = { kind: 'more' } | { kind: 'no' } | { kind: 'image'; length: number; alt: string; mime: string };

/** Whether `s` from `at` (a `!`) starts an image's head: complete, maybe (need more text), or not. */
function headAt(s: string, at: number): Verdict {
  const view = s.slice(at, at + MAX_ALT + MAX_HEAD + 8);
  if (view.length === 1) return { kind: 'more' };
  if (view[1] !== '[') return { kind: 'no' };
  const close = view.indexOf(']', 2);
  if (close < 0) return view.includes('\n', 2) || view.length > MAX_ALT + 2 ? { kind: 'no' } : { kind: 'more' };
  // An alt longer than MAX_ALT is text, wherever its `]` is: else a head cut off by the view would be waited on forever.
  if (close > MAX_ALT + 2) return { kind: 'no' };
  const full = IMAGE_HEAD.exec(view);
  if (full !== null) return { kind: 'image', length: full[0].length, alt: full[1] ?? '', mime: (full[2] ?? '').toLowerCase() };
  if (view.lastIndexOf('\n', close) > 1) return { kind: 'no' };
  if (close + 1 === view.length) return { kind: 'more' };
  if (view[close + 1] !== '(') return { kind: 'no' };
  const rest = view.slice(close + 2);
  if (rest.length < DATA_IMAGE.length) return DATA_IMAGE.startsWith(rest.toLowerCase()) ? { kind: 'more' } : { kind: 'no' };
  // Not complete (else IMAGE_HEAD matched): still on its way to `;base64,`, or something else.
  return rest.length <= MAX_HEAD && HEAD_SO_FAR.test(rest) ? { kind: 'more' } : { kind: 'no' };
}

function stripSpace(piece: string): string {
  return SPACE.test(piece) ? piece.replace(/\s+/g, '') : piece;
}

/**
 * Takes `![alt](data:image/…;base64,…)` images out of a streamed text. Text that merely looks
 * like a start (`!`, `![`, `![x](`, `![x](data:ima`) is held back only until the next push
 * decides it; everything else is handed on at once.
 */
export class InlineImageExtractor {
  /** Text held back: the start of what may be an image's head. */
  private held = '';
  /** Inside an image: its head as sent, and its base64 pieces as sent (whitespace kept, until it closes). */
  private image: { head: string; alt: string; mime: string; pieces: string[] } | undefined;

  constructor(private readonly newId: () => string) {}

  push(chunk: string): InlinePiece {
    const images: InlineImage[] = [];
    let text = '';
    const s = this.held === '' ? chunk : this.held + chunk;
    this.held = '';
    let i = 0;
    while (i < s.length) {
      const image = this.image;
      if (image !== undefined) {
        const close = s.indexOf(')', i);
        const segment = close < 0 ? s.slice(i) : s.slice(i, close);
        if (NOT_BASE64.test(segment)) {
          // Not an image after all (prose about the syntax): what was taken goes back as text.
          text += image.head + image.pieces.join('');
          this.image = undefined;
          continue;
        }
        if (segment !== '') image.pieces.push(segment);
        if (close < 0) break;
        const id = this.newId();
        images.push({ id, alt: image.alt, mime: image.mime, base64: image.pieces.map(stripSpace).filter((p) => p !== '') });
        text += `![${image.alt}](${IMAGE_REF_SCHEME}${id})`;
        this.image = undefined;
        i = close + 1;
        continue;
      }
      const bang = s.indexOf('!', i);
      if (bang < 0) {
        text += i === 0 ? s : s.slice(i);
        break;
      }
      text += s.slice(i, bang);
      const verdict = headAt(s, bang);
      if (verdict.kind === 'more') {
        // Short by construction (a head is at most MAX_ALT + MAX_HEAD long before it is decided).
        this.held = s.slice(bang);
        break;
      }
      if (verdict.kind === 'no') {
        text += '!';
        i = bang + 1;
        continue;
      }
      this.image = { head: s.slice(bang, bang + verdict.length), alt: verdict.alt, mime: verdict.mime, pieces: [] };
      i = bang + verdict.length;
    }
    return { text, images };
  }

  /**
   * The stream ended: what was held goes out as text. An image still open (no closing `)`) and
   * short is given back as the text it came as: an "image" that never closed is as likely prose
   * about the syntax, which must not vanish. One longer than CUT_IMAGE_CHARS is an image cut off
   * (stopped, or the stream broke): its base64 could not make a whole image and is megabytes of
   * nothing to read, so it is dropped and `cut` says so.
   */
  end(): InlinePiece {
    const held = this.held;
    this.held = '';
    const image = this.image;
    this.image = undefined;
    if (image === undefined) return { text: held, images: [] };
    let length = image.head.length;
    for (const piece of image.pieces) length += piece.length;
    if (length > CUT_IMAGE_CHARS) return { text: held, images: [], cut: { alt: image.alt } };
    return { text: image.head + image.pieces.join('') + held, images: [] };
  }
}

const REF = /!\[([^\]\n]*)\]\(gc-image:([\w.-]+)\)/g;

/** The ids of the `![alt](gc-image:{id})` references in `text`, in order. */
export function imageRefs(text: string): string[] {
  if (!text.includes(IMAGE_REF_SCHEME)) return [];
  return [...text.matchAll(REF)].map((m) => m[2] ?? '');
}

/**
 * `text` with each reference's address replaced by what `address(id)` gives (a data URI, to send
 * the image back to the model); a reference it gives nothing for stays as it is, or becomes what
 * `otherwise(alt)` gives when there is one.
 */
export function replaceImageRefs(text: string, address: (id: string) => string | undefined, otherwise?: (alt: string) => string): string {
  if (!text.includes(IMAGE_REF_SCHEME)) return text;
  return text.replace(REF, (whole, alt: string, id: string) => {
    const url = address(id);
    if (url !== undefined) return `![${alt}](${url})`;
    return otherwise === undefined ? whole : otherwise(alt);
  });
}

/** Characters decoded at a time (a multiple of 4): no one string of megabytes is built. */
const SLICE = 64 * 1024;

/**
 * The bytes of base64 given in pieces of any length (standard or URL-safe, whitespace and missing
 * padding allowed), decoded slice by slice. Throws on characters that are not base64.
 */
export function base64ToBytes(pieces: readonly string[]): Uint8Array<ArrayBuffer> {
  const clean = pieces.map(stripSpace);
  let chars = 0;
  for (const piece of clean) chars += piece.length;
  const out = new Uint8Array(Math.ceil(chars / 4) * 3);
  let written = 0;
  const decode = (quads: string): void => {
    const standard = /[-_]/.test(quads) ? quads.replace(/-/g, '+').replace(/_/g, '/') : quads;
    const binary = atob(standard);
    for (let k = 0; k < binary.length; k++) out[written++] = binary.charCodeAt(k);
  };
  let carry = '';
  for (const piece of clean) {
    let start = 0;
    if (carry !== '') {
      start = Math.min(piece.length, 4 - carry.length);
      carry += piece.slice(0, start);
      if (carry.length < 4) continue;
      decode(carry);
    }
    const end = start + Math.floor((piece.length - start) / 4) * 4;
    for (let k = start; k < end; k += SLICE) decode(piece.slice(k, Math.min(k + SLICE, end)));
    carry = piece.slice(end);
  }
  const tail = carry.replace(/=+$/, '');
  if (tail.length === 1) throw new Error('base64 ends with a single character');
  if (tail !== '') decode(tail.padEnd(4, '='));
  return out.subarray(0, written);
}

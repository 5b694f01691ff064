/**
 * STAND-IN for helper A's `lib/images/inline.ts` (issue 30), written to the same contract so the
 * run manager can be built and tested before it lands: at the merge, delete this file and import
 * `InlineImageExtractor`, `replaceImageRefs` and `base64ToBytes` from `../images/inline`.
 *
 * A streamed reply's `![alt](data:image/…;base64,…)` images are taken out as they arrive (their
 * base64 kept as the pieces it came in, never one growing string) and replaced in the text by
 * `![alt](gc-image:{id})`. Text that could still become such an image is held back until decided.
 */
import { IMAGE_REF_SCHEME } from '../images/types';

export interface InlineImage {
  alt: string;
  mime: string;
  /** The base64, as the pieces it came in (whitespace removed). */
  base64: string[];
}

const ALT_MAX = 300;
const MIME_MAX = 60;
const DATA = 'data:image/';
const BASE64 = ';base64,';
/** The longest opening: `![` alt `](` `data:image/` mime `;base64,`. */
const OPENING_MAX = 2 + ALT_MAX + 2 + 2 + DATA.length + MIME_MAX + 2 + BASE64.length;

/** How a text starting with `!` stands against `![alt](data:image/x;base64,`. */
type Opening = { kind: 'no' } | { kind: 'maybe' } | { kind: 'yes'; alt: string; mime: string; length: number };

function opening(text: string): Opening {
  if (text.length < 2) return { kind: 'maybe' };
  if (text[1] !== '[') return { kind: 'no' };
  let i = 2;
  while (i < text.length && text[i] !== ']') {
    if (text[i] === '\n' || i - 2 > ALT_MAX) return { kind: 'no' };
    i++;
  }
  if (i >= text.length) return { kind: 'maybe' };
  const alt = text.slice(2, i);
  i++;
  if (i >= text.length) return { kind: 'maybe' };
  if (text[i] !== '(') return { kind: 'no' };
  i++;
  const rest = text.slice(i, i + DATA.length);
  if (rest.toLowerCase() !== DATA.slice(0, rest.length)) return { kind: 'no' };
  if (rest.length < DATA.length) return { kind: 'maybe' };
  const mimeStart = i + 5;
  i += DATA.length;
  while (i < text.length && /[A-Za-z0-9.+-]/.test(text[i]!)) {
    if (i - mimeStart > MIME_MAX) return { kind: 'no' };
    i++;
  }
  const tail = text.slice(i, i + BASE64.length);
  if (tail.toLowerCase() !== BASE64.slice(0, tail.length)) return { kind: 'no' };
  if (tail.length < BASE64.length) return { kind: 'maybe' };
  return { kind: 'yes', alt, mime: text.slice(mimeStart, i).toLowerCase(), length: i + BASE64.length };
}

export class InlineImageExtractor {
  /** Text held back: it may be the start of an image. */
  private held = '';
  /** The image whose base64 is arriving. */
  private current: InlineImage | undefined;

  constructor(private readonly newId: () => string) {}

  push(chunk: string): { text: string; images: InlineImage[] } {
    let text = '';
    const images: InlineImage[] = [];
    let input = chunk;
    while (input !== '') {
      if (this.current !== undefined) {
        const close = input.indexOf(')');
        const piece = (close < 0 ? input : input.slice(0, close)).replace(/\s+/g, '');
        if (piece !== '') this.current.base64.push(piece);
        if (close < 0) break;
        images.push(this.current);
        text += `![${this.current.alt}](${IMAGE_REF_SCHEME}${this.newId()})`;
        this.current = undefined;
        input = input.slice(close + 1);
        continue;
      }
      // Only the held text (short) is joined with the new: the base64 never is.
      const buffer = this.held + input;
      this.held = '';
      input = '';
      // Scanned by index (a chunk of many `!` is never sliced once per `!`); an opening is decided
      // within OPENING_MAX characters, so only that much is looked at.
      let from = 0;
      for (;;) {
        const bang = buffer.indexOf('!', from);
        if (bang < 0) {
          text += buffer.slice(from);
          break;
        }
        text += buffer.slice(from, bang);
        const open = opening(buffer.slice(bang, bang + OPENING_MAX));
        if (open.kind === 'maybe') {
          this.held = buffer.slice(bang);
          break;
        }
        if (open.kind === 'no') {
          text += '!';
          from = bang + 1;
          continue;
        }
        this.current = { alt: open.alt, mime: open.mime, base64: [] };
        input = buffer.slice(bang + open.length);
        break;
      }
    }
    return { text, images };
  }

  /** The end of the stream: what was held goes out as text; an image cut short is dropped (its text would be megabytes of base64). */
  end(): { text: string; images: InlineImage[] } {
    const text = this.held;
    this.held = '';
    this.current = undefined;
    return { text, images: [] };
  }
}

const REF = /gc-image:([A-Za-z0-9_-]+)/g;

/** The ids of the images a text names, in order. */
export function imageRefs(text: string): string[] {
  return [...text.matchAll(REF)].map((m) => m[1]!);
}

/** The text with each image reference replaced by what `replace` gives (kept when it gives nothing). */
export function replaceImageRefs(text: string, replace: (id: string) => string | undefined): string {
  return text.replace(REF, (ref, id: string) => replace(id) ?? ref);
}

/** Base64 pieces (any lengths) as bytes, decoded a slice at a time. */
export function base64ToBytes(pieces: readonly string[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let carry = '';
  const decode = (chunk: string): void => {
    const binary = atob(chunk);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    parts.push(bytes);
  };
  for (const piece of pieces) {
    const text = carry + piece;
    const whole = text.length - (text.length % 4);
    if (whole > 0) decode(text.slice(0, whole));
    carry = text.slice(whole);
  }
  if (carry.replace(/=+$/, '') !== '') decode(carry.padEnd(Math.ceil(carry.length / 4) * 4, '='));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Real PNG files for the reference gateway's image models, and the reader tests use to say
 * which prompt made an image: an image is drawn from its prompt (a colour from the prompt's
 * hash, a band of its complement), is exactly the size asked (IHDR), and carries `tEXt`
 * chunks (`iTXt` when the text is not Latin-1): `prompt`, for an edit `edit-of` =
 * `imageTag(bytes)` of the image edited, `index` (of n > 1), `partial` (a stream's partial image).
 * A tiny encoder (zlib's deflate and a CRC32 table); no dependency.
 */
import { createHash } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crcOf(head.subarray(4, 8), data), 0);
  return Buffer.concat([head, data, crc]);
}

/** A chunk's CRC-32, over its type and its data. */
function crcOf(type: Uint8Array, data: Uint8Array): number {
  let c = 0xffffffff;
  for (const part of [type, data]) for (const b of part) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A `tEXt` chunk (Latin-1), or an `iTXt` chunk (UTF-8) for text beyond Latin-1. */
function textChunk(keyword: string, text: string): Buffer {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0001-\u00ff]*$/.test(text)) return chunk('tEXt', Buffer.from(`${keyword}\0${text}`, 'latin1'));
  return chunk('iTXt', Buffer.concat([Buffer.from(`${keyword}\0\0\0\0\0`, 'latin1'), Buffer.from(text, 'utf8')]));
}

export type Rgb = readonly [number, number, number];

/** A colour from a hash of `text` (never too dark or too light to tell apart). */
export function colourOf(text: string): Rgb {
  const h = createHash('sha256').update(text).digest();
  return [48 + (h[0]! % 160), 48 + (h[1]! % 160), 48 + (h[2]! % 160)];
}

/** Which image an edit (or a chat model's next image) was made from: 12 hex digits of its bytes' SHA-256. */
export function imageTag(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 12);
}

export interface DrawOptions {
  width: number;
  height: number;
  /** The prompt: the colour comes from its hash; it is written in a `prompt` chunk. */
  prompt: string;
  /** Further `tEXt` chunks (`edit-of`, …), in order. */
  text?: Readonly<Record<string, string>>;
  /** Pad the file to at least this many bytes with a `tEXt` chunk `padding` of random-looking letters. */
  padTo?: number;
}

/**
 * A PNG of the size asked: the prompt's colour with a band of its complement across the middle
 * third (rows repeat, so even 2048×2048 deflates to a few kB).
 */
export function drawPng(options: DrawOptions): Buffer {
  const { width, height } = options;
  const colour = colourOf(options.prompt);
  const band: Rgb = [255 - colour[0], 255 - colour[1], 255 - colour[2]];
  const row = (c: Rgb): Buffer => {
    const r = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) r.set(c, 1 + x * 3);
    return r;
  };
  const plain = row(colour);
  const banded = row(band);
  const raw = Buffer.alloc(height * plain.length);
  for (let y = 0; y < height; y++) (y >= height / 3 && y < (2 * height) / 3 ? banded : plain).copy(raw, y * plain.length);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const texts = [textChunk('prompt', options.prompt), ...Object.entries(options.text ?? {}).map(([k, v]) => textChunk(k, v))];
  const idat = chunk('IDAT', deflateSync(raw));
  const iend = chunk('IEND', Buffer.alloc(0));
  const parts = [SIGNATURE, chunk('IHDR', ihdr), ...texts, idat, iend];
  const size = parts.reduce((n, p) => n + p.length, 0);
  if (options.padTo !== undefined && options.padTo > size) {
    // 12 bytes of chunk framing and 8 of keyword and its NUL.
    const room = Math.max(0, options.padTo - size - 12 - 8);
    parts.splice(parts.length - 2, 0, textChunk('padding', noise(room, options.prompt)));
  }
  return Buffer.concat(parts);
}

/** `length` letters and digits that do not compress, the same for the same seed. */
function noise(length: number, seed: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update(seed).digest();
  for (let i = 0; i < length; i++) {
    if (i % 32 === 0 && i > 0) block = createHash('sha256').update(block).digest();
    out[i] = alphabet.charCodeAt(block[i % 32]! % alphabet.length);
  }
  return out.toString('latin1');
}

export interface PngFacts {
  width: number;
  height: number;
  /** Every `tEXt` and `iTXt` chunk, by keyword (`prompt`, `edit-of`, …). */
  text: Record<string, string>;
  /** The colour of its first pixel (the prompt's colour). */
  colour: Rgb | undefined;
}

function toBytes(input: Uint8Array | ArrayBuffer | string): Buffer {
  if (typeof input !== 'string') return Buffer.from(input instanceof ArrayBuffer ? new Uint8Array(input) : input);
  const base64 = input.startsWith('data:') ? input.slice(input.indexOf(',') + 1) : input;
  return Buffer.from(base64.replace(/\s+/g, ''), 'base64');
}

/**
 * A PNG's size, its `tEXt` chunks and its first pixel's colour, from its bytes, its base64 or a
 * `data:` URI. Throws when the bytes are not a PNG (or a chunk's CRC is wrong).
 */
export function readPng(input: Uint8Array | ArrayBuffer | string): PngFacts {
  const bytes = toBytes(input);
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  const facts: PngFacts = { width: 0, height: 0, text: {}, colour: undefined };
  const idat: Buffer[] = [];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (bytes.readUInt32BE(at + 8 + length) !== crcOf(type, data)) throw new Error(`bad CRC in ${type.toString('latin1')}`);
    const name = type.toString('latin1');
    if (name === 'IHDR') {
      facts.width = data.readUInt32BE(0);
      facts.height = data.readUInt32BE(4);
    } else if (name === 'tEXt') {
      const nul = data.indexOf(0);
      facts.text[data.subarray(0, nul).toString('latin1')] = data.subarray(nul + 1).toString('latin1');
    } else if (name === 'iTXt') {
      // keyword NUL, compression flag and method (0 0: not compressed), language NUL, translated keyword NUL, UTF-8 text.
      const nul = data.indexOf(0);
      const language = data.indexOf(0, nul + 3);
      const translated = data.indexOf(0, language + 1);
      facts.text[data.subarray(0, nul).toString('latin1')] = data.subarray(translated + 1).toString('utf8');
    } else if (name === 'IDAT') {
      idat.push(data);
    } else if (name === 'IEND') {
      break;
    }
    at += 12 + length;
  }
  if (idat.length > 0 && facts.width > 0) {
    // The first row's filter byte, then its first pixel (RGB, 8 bits: what drawPng writes).
    const first = inflateSync(Buffer.concat(idat)).subarray(0, 4);
    if (first.length === 4) facts.colour = [first[1]!, first[2]!, first[3]!];
  }
  return facts;
}

/** The `tEXt` chunks of a PNG (bytes, base64 or data URI), by keyword. */
export function readPngText(input: Uint8Array | ArrayBuffer | string): Record<string, string> {
  return readPng(input).text;
}

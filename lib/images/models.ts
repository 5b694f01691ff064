/**
 * What the composer offers for an image model: the sizes and qualities its family takes (as
 * OpenAI documents them, which new-api passes on), and whether it takes `background` and
 * `output_format` (gpt-image only). A model not in this table gets a free `WxH` size field.
 */
import { IMAGE_COUNT, SIZE_PATTERN, type ImageOptions } from './types';

export interface ImageModelFamily {
  family: 'gpt-image' | 'dall-e-3' | 'dall-e-2';
  sizes: readonly string[];
  qualities: readonly string[];
  /** Most images one request may ask for. */
  maxCount: number;
  /** Takes `background` and `output_format`. */
  gptImageOptions: boolean;
}

const FAMILIES: readonly (ImageModelFamily & { test: RegExp })[] = [
  { family: 'gpt-image', test: /(^|\/)gpt-image/i, sizes: ['auto', '1024x1024', '1536x1024', '1024x1536'], qualities: ['auto', 'low', 'medium', 'high'], maxCount: IMAGE_COUNT.max, gptImageOptions: true },
  { family: 'dall-e-3', test: /(^|\/)dall-e-3/i, sizes: ['1024x1024', '1792x1024', '1024x1792'], qualities: ['standard', 'hd'], maxCount: 1, gptImageOptions: false },
  { family: 'dall-e-2', test: /(^|\/)dall-e-2/i, sizes: ['256x256', '512x512', '1024x1024'], qualities: ['standard'], maxCount: IMAGE_COUNT.max, gptImageOptions: false },
];

/** The family of `model` (by its id, a vendor prefix allowed), or undefined. */
export function imageModelFamily(model: string): ImageModelFamily | undefined {
  const found = FAMILIES.find((f) => f.test.test(model));
  if (found === undefined) return undefined;
  const { test: _test, ...family } = found;
  return family;
}

/** A size the user typed, if it is one (`1024x1024`, `auto`). */
export function isImageSize(text: string): boolean {
  return SIZE_PATTERN.test(text.trim());
}

/**
 * The options to send for `model`: those it does not take dropped (gpt-image's background
 * and format for other models), the count kept within what it allows, a bad size dropped.
 */
export function optionsFor(model: string, options: ImageOptions): ImageOptions {
  const family = imageModelFamily(model);
  const out: ImageOptions = {};
  if (options.size !== undefined && isImageSize(options.size)) out.size = options.size.trim();
  if (options.quality !== undefined && options.quality !== '') out.quality = options.quality;
  const max = family?.maxCount ?? IMAGE_COUNT.max;
  if (options.n !== undefined) out.n = Math.min(max, Math.max(IMAGE_COUNT.min, Math.round(options.n)));
  if (family?.gptImageOptions === true) {
    if (options.background !== undefined) out.background = options.background;
    if (options.outputFormat !== undefined) out.outputFormat = options.outputFormat;
  }
  return out;
}

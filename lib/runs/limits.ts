/**
 * How much one message may carry: its text (estimated in tokens, as large selections are) and
 * its images (how many, how many bytes together). Checked by the composer before sending and
 * by the background before a run starts, so an oversized message gets a reason and a remedy,
 * not a message-size failure between extension parts. Codes and numbers here; words in the UI.
 */
import { estimateTokens } from '../actions/tokens';
import type { AttachedFile } from '../files/types';

export interface MessageLimits {
  /** Estimated tokens of a typed or pasted message. */
  maxTextTokens: number;
  maxImages: number;
  /** All attached images together, as the bytes of their data: URLs. */
  maxImageBytes: number;
}

export const DEFAULT_MESSAGE_LIMITS: MessageLimits = {
  maxTextTokens: 100_000,
  maxImages: 8,
  maxImageBytes: 20 * 1024 * 1024,
};

export type MessageTooLarge =
  | { problem: 'text_too_long'; tokens: number; limit: number }
  /** The text and the attached files together are over: `name` is the largest file, `fits` the tokens left for files beside the text. */
  | { problem: 'files_too_long'; name: string; tokens: number; limit: number; fits: number }
  | { problem: 'too_many_images'; count: number; limit: number }
  | { problem: 'images_too_large'; bytes: number; limit: number };

/** The first limit a message breaks, or undefined when it fits. */
export function checkMessageSize(text: string, images: readonly string[], limits: MessageLimits = DEFAULT_MESSAGE_LIMITS, files: readonly AttachedFile[] = []): MessageTooLarge | undefined {
  // The estimate never exceeds the length: a text no longer than the limit fits without counting.
  const filesTokens = files.reduce((sum, f) => sum + f.tokens, 0);
  if (text.length + filesTokens > limits.maxTextTokens) {
    const tokens = estimateTokens(text);
    if (tokens > limits.maxTextTokens) return { problem: 'text_too_long', tokens, limit: limits.maxTextTokens };
    if (tokens + filesTokens > limits.maxTextTokens) {
      const largest = files.reduce((a, b) => (b.tokens > a.tokens ? b : a));
      return { problem: 'files_too_long', name: largest.name, tokens: tokens + filesTokens, limit: limits.maxTextTokens, fits: limits.maxTextTokens - tokens };
    }
  }
  if (images.length > limits.maxImages) return { problem: 'too_many_images', count: images.length, limit: limits.maxImages };
  const bytes = images.reduce((sum, url) => sum + url.length, 0);
  if (bytes > limits.maxImageBytes) return { problem: 'images_too_large', bytes, limit: limits.maxImageBytes };
  return undefined;
}

/** How many models one comparison asks at once. */
export const COMPARE_MODELS = { min: 2, max: 4 } as const;

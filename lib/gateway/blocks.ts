/**
 * A prompt or reply the model's own filter blocked, in codes every interface shares: why
 * (`reason`: the vendor's finish or block reason, lower-cased) and, where the vendor names it,
 * which kind of harm (`category`). The UI words the codes listed here and shows any other as
 * sent, so a reason a vendor adds tomorrow still reads as a block.
 */
import type { ErrorDetail } from './errors';

/**
 * The reasons the UI words: Gemini's finish and block reasons, `content_filter` (Chat
 * Completions, the Responses API) and Anthropic's `refusal`.
 */
export const BLOCK_REASONS = [
  'safety', 'recitation', 'blocklist', 'prohibited_content', 'spii',
  'image_safety', 'image_prohibited_content', 'image_recitation',
  'other', 'model_armor', 'jailbreak',
  'content_filter', 'refusal',
] as const;

/** The categories the UI words (Gemini's harm categories and Azure's filter names, as one list). */
export const BLOCK_CATEGORIES = [
  'harassment', 'hate', 'sexual', 'dangerous', 'violence', 'self_harm', 'civic_integrity', 'jailbreak', 'profanity', 'protected_material',
] as const;
type BlockCategory = (typeof BLOCK_CATEGORIES)[number];

/**
 * Gemini's finish reasons that mean its filter stopped the reply. The others end a reply as
 * they always did: STOP, MAX_TOKENS, LANGUAGE, OTHER, the tool-call failures, NO_IMAGE,
 * IMAGE_OTHER (@google/genai's `FinishReason`).
 */
export const GEMINI_BLOCKING_FINISH: ReadonlySet<string> = new Set([
  'SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'IMAGE_RECITATION',
]);

/** Vendor names of one category (a Map: keys come from outside, never from a prototype). */
const CATEGORY_ALIASES: ReadonlyMap<string, BlockCategory> = new Map([
  ['hate_speech', 'hate'],
  ['sexually_explicit', 'sexual'],
  ['dangerous_content', 'dangerous'],
  ['protected_material_text', 'protected_material'],
  ['protected_material_code', 'protected_material'],
]);

/** A code read from the wire is kept short: it is shown, never trusted. */
const CODE_LENGTH = 64;

/** A vendor's category (`HARM_CATEGORY_HATE_SPEECH`, `HARM_CATEGORY_IMAGE_HATE`, Azure's `hate`) as one code. */
export function blockCategory(vendor: string): string {
  const bare = vendor.toLowerCase().replace(/^harm_category_/, '').replace(/^image_/, '').slice(0, CODE_LENGTH);
  return CATEGORY_ALIASES.get(bare) ?? bare;
}

/** The error detail of a block: the reason lower-cased, the category as one code where known. */
export function blockDetail(code: 'prompt_blocked' | 'reply_blocked', reason: string, category?: string): ErrorDetail {
  const params: Record<string, string> = { reason: reason.toLowerCase().slice(0, CODE_LENGTH) };
  if (category !== undefined && category !== '') params.category = blockCategory(category);
  return { code, params };
}

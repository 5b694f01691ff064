/**
 * Large selections. The estimate (tokens.ts) counts about four characters per token for
 * alphabetic text and one token per character for CJK and other wide scripts. Above the limit the
 * selection is cut at a paragraph or sentence boundary and a notice says exactly how much was
 * sent: one predictable request, no hidden fan-out of paid requests on a balance (see README,
 * "Large selections").
 */
import { estimateTokens } from './tokens';

export interface PreparedSelection {
  text: string;
  /** Set when the selection was cut: what was sent of what, as numbers for the UI's words. */
  notice?: { code: 'selection_cut'; params: { tokens: number; limit: number; sentChars: number; totalChars: number; percent: number } };
  originalTokens: number;
}

function cutAtBoundary(text: string, maxChars: number): string {
  const head = text.slice(0, maxChars);
  const paragraph = head.lastIndexOf('\n\n');
  if (paragraph > maxChars * 0.8) return head.slice(0, paragraph).trimEnd();
  const sentence = Math.max(head.lastIndexOf('. '), head.lastIndexOf('。'), head.lastIndexOf('! '), head.lastIndexOf('? '));
  if (sentence > maxChars * 0.8) return head.slice(0, sentence + 1);
  return head;
}

export function prepareSelection(selection: string, maxTokens: number): PreparedSelection {
  const text = selection.replace(/\r\n?/g, '\n').trim();
  const originalTokens = estimateTokens(text);
  if (originalTokens <= maxTokens) return { text, originalTokens };
  // Shrink the character budget until the estimate fits (wide scripts need fewer characters).
  let maxChars = Math.floor(text.length * (maxTokens / originalTokens));
  let cut = cutAtBoundary(text, maxChars);
  while (estimateTokens(cut) > maxTokens && maxChars > 1) {
    maxChars = Math.floor(maxChars * 0.95);
    cut = cutAtBoundary(text, maxChars);
  }
  const share = Math.max(1, Math.round((cut.length / text.length) * 100));
  const params = { tokens: originalTokens, limit: maxTokens, sentChars: cut.length, totalChars: text.length, percent: share };
  return { text: cut, notice: { code: 'selection_cut', params }, originalTokens };
}

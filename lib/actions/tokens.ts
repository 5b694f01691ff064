/**
 * How many tokens a text is, estimated: about four characters per token for alphabetic text and
 * one token per character for CJK and other wide scripts (gateways bill the same way before the
 * upstream reports usage). Apart from large-selection.ts, which cuts selections to an estimate:
 * the pages' first scripts (the composer's size check) need only the estimate.
 */

export function estimateTokens(text: string): number {
  let narrow = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x2e80 || (code >= 0xd800 && code <= 0xdfff)) narrow++;
    else wide++;
  }
  return Math.ceil(narrow / 4) + wide;
}

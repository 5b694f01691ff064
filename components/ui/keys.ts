import type { KeyboardEvent } from 'react';

/**
 * Whether a key press belongs to an input method's composition (pinyin, kana, hangul…): Enter
 * then confirms the candidate, arrows move among candidates, Escape cancels; none of them is
 * ours. Chromium and Firefox say so with `isComposing`; Safari and older engines send the
 * composition's keydown as keyCode 229.
 */
export function isComposing(event: KeyboardEvent): boolean {
  return event.nativeEvent.isComposing || event.keyCode === 229;
}

/**
 * Previews of ```html and ```svg blocks (issue 29, item 4), only when asked: "Preview" runs the
 * code in a frame under the block, "Open preview in a new tab" in a tab. Both show the sandboxed
 * preview page (entrypoints/preview.sandbox, Chromium's manifest `sandbox.pages`): a unique
 * origin with no extension API, storage or network, whose frame runs the code (see
 * lib/render/preview-page.ts for the rules). Firefox has no sandboxed extension pages: there the
 * buttons give way to a note saying so, and the source stays as it is.
 */
import type { MouseEvent as ReactMouseEvent } from 'react';
import type { Words } from '@/lib/i18n/messages';
import { withMoreWords } from '@/components/i18n/words';

export type PreviewWords = Pick<Words, 't'>;

const BUTTONS = 'button[data-preview], button[data-preview-tab]';

/** Whether this build can isolate a preview (a build-time fact: Chromium's builds can, Firefox's cannot). */
function previewsIsolated(): boolean {
  return !import.meta.env.FIREFOX;
}

/** Puts the "why not" note after a code block (once) in place of its Preview buttons. */
function explainNoPreview(block: Element, words: PreviewWords): void {
  for (const b of block.querySelectorAll(BUTTONS)) b.remove();
  if (block.nextElementSibling?.classList.contains('preview-note') === true) return;
  const note = document.createElement('p');
  note.className = 'preview-note';
  note.setAttribute('role', 'note');
  note.textContent = words.t('markdown.previewOffFirefox');
  block.after(note);
}

/**
 * Where previews cannot be isolated (Firefox), replaces the Preview buttons under `root` with
 * a note saying why. Call it after setting a block's HTML, as `enhanceDiagrams`.
 */
export function enhancePreviews(root: HTMLElement, words: PreviewWords): void {
  if (previewsIsolated()) return;
  for (const b of root.querySelectorAll(BUTTONS)) {
    const block = b.closest('.code-block');
    if (block !== null) explainNoPreview(block, words);
  }
}

/**
 * Handles a click on a code block's "Preview" or "Open preview in a new tab" (call it from the
 * `.markdown` root's click handler); true when the click was one of them.
 */
export function handlePreviewClick(event: MouseEvent | ReactMouseEvent, words: PreviewWords): boolean {
  const target = event.target as Element | null;
  const opener = target?.closest<HTMLButtonElement>(BUTTONS) ?? null;
  const block = opener?.closest('.code-block') ?? null;
  if (opener === null || block === null) return false;
  event.preventDefault();
  if (!previewsIsolated()) {
    explainNoPreview(block, words);
    return true;
  }
  // What opens it arrives with the first preview asked for (not with every page that shows
  // replies), with the words it says (the popup loads them after its first frame).
  void withMoreWords(() => import('./preview-open')).then((m) => m.openPreview(block, opener, words));
  return true;
}

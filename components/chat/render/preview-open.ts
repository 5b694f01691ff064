/**
 * Opening a preview (components/chat/render/preview.ts decides that a click asks for one): in a
 * frame under the code block, or in a tab, both on the sandboxed preview page.
 */
import { PREVIEW_PAGE, previewHash, type PreviewRequest } from '@/lib/render/preview-page';
import type { PreviewWords } from './preview';

function previewUrl(request: PreviewRequest): string {
  return new URL(`${PREVIEW_PAGE}${previewHash(request)}`, location.href).href;
}

function closeFrame(panel: HTMLElement, opener: HTMLButtonElement | null): void {
  panel.remove();
  opener?.focus();
}

function showFrame(block: Element, opener: HTMLButtonElement, url: string, words: PreviewWords): void {
  // One preview per block: asking again runs the code afresh.
  const next = block.nextElementSibling;
  if (next?.classList.contains('preview-panel') === true) next.remove();
  const panel = document.createElement('div');
  panel.className = 'preview-panel';
  const head = document.createElement('div');
  head.className = 'preview-head';
  const title = document.createElement('span');
  title.textContent = words.t('markdown.previewFrame');
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = words.t('markdown.closePreview');
  close.addEventListener('click', () => closeFrame(panel, opener));
  head.append(title, close);
  const frame = document.createElement('iframe');
  // Sandboxed twice: by this attribute and by the page's own manifest sandbox.
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = words.t('markdown.previewFrame');
  frame.referrerPolicy = 'no-referrer';
  frame.src = url;
  panel.append(head, frame);
  block.after(panel);
}

/** Runs `block`'s code as `opener` asks: "Preview" (a frame under it) or "Open preview in a new tab". */
export function openPreview(block: Element, opener: HTMLButtonElement, words: PreviewWords): void {
  const kind = opener.dataset.preview ?? opener.dataset.previewTab;
  const request: PreviewRequest = {
    kind: kind === 'svg' ? 'svg' : 'html',
    code: block.querySelector('code')?.textContent ?? '',
    title: words.t('markdown.previewFrame'),
  };
  const url = previewUrl(request);
  if (opener.dataset.previewTab !== undefined) window.open(url, '_blank', 'noopener');
  else showFrame(block, opener, url, words);
}

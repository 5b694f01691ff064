import { wordsFor } from '@/lib/i18n/messages';
import type { RenderLabels } from '@/lib/render/labels';

/** The render labels the page would send, from a locale's words (their `{placeholders}` kept). */
export function renderLabels(locale: 'en' | 'zh-CN' = 'en'): RenderLabels {
  const w = wordsFor(locale);
  return {
    copy: w.t('common.copy'),
    code: w.t('markdown.code'),
    copyCode: w.t('markdown.copyCode'),
    loadImage: w.t('markdown.loadImage'),
    loadImageAlt: w.t('markdown.loadImageAlt'),
    wrapLines: w.t('markdown.wrapLines'),
    showAllLines: w.t('markdown.showAllLines'),
    preview: w.t('markdown.preview'),
    openPreviewTab: w.t('markdown.openPreviewTab'),
    tableMenu: w.t('markdown.tableMenu'),
  };
}

const ELEMENTS = new Set(['p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'em', 'strong', 'del', 's', 'blockquote', 'ul', 'ol', 'li', 'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'pre', 'code', 'span', 'div', 'button', 'figure']);
const ATTRIBUTES = new Set(['class', 'title', 'aria-label', 'aria-pressed', 'aria-expanded', 'aria-haspopup', 'role', 'hidden', 'tabindex']);

/**
 * What in `root` the sanitiser's markdown allow-list (ARCH-29) would refuse: elements and
 * attributes off the list, buttons of another type, styles other than a cell's alignment, and
 * anything but hljs spans inside `<code>`.
 */
export function offTheAllowList(root: Element): string[] {
  const wrong: string[] = [];
  for (const el of root.querySelectorAll('*')) {
    const tag = el.localName;
    if (!ELEMENTS.has(tag)) wrong.push(`<${tag}>`);
    if (el.closest('code') !== null && el.localName !== 'code' && !(tag === 'span' && [...el.classList].every((c) => c.startsWith('hljs-')))) wrong.push(`in code: ${el.outerHTML}`);
    for (const { name, value } of el.attributes) {
      if (ATTRIBUTES.has(name) || name.startsWith('data-')) continue;
      if (tag === 'button' && name === 'type' && value === 'button') continue;
      if ((tag === 'th' || tag === 'td') && name === 'style' && /^text-align:\s*(left|right|center);?$/.test(value)) continue;
      if (tag === 'ol' && name === 'start') continue;
      wrong.push(`${tag}[${name}="${value}"]`);
    }
  }
  return wrong;
}

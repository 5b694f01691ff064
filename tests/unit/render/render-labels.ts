import { wordsFor } from '@/lib/i18n/messages';
import type { RenderLabels } from '@/lib/render/labels';
import { labelsFor } from '@/components/i18n/markdown-labels';

/** The render labels the page sends, from a locale's words (their `{placeholders}` kept). */
export function renderLabels(locale: 'en' | 'zh-CN' = 'en'): RenderLabels {
  return labelsFor(wordsFor(locale));
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

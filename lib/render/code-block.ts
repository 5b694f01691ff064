/**
 * A fenced code block as HTML: its language, its buttons (Preview for HTML and SVG, Wrap lines,
 * Copy) and its code, folded past `FOLD_LINES` lines. The page gives the buttons their behaviour
 * (components/chat/render/block-actions.tsx, preview.ts) by event delegation on the reply.
 * Everything here passes the sanitiser's markdown allow-list (lib/render/sanitize.ts).
 */
import { codeLanguage } from './highlight';
import { FOLD_LINES, lineCount } from './fold';
import { fill, type RenderLabels } from './labels';

/** Languages whose code can run in a sandboxed preview (components/chat/render/preview.ts). */
const PREVIEWABLE = new Set(['html', 'svg']);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * One code block. `info` is the fence's info string (its first word names the language, shown as
 * written); `highlighted` is `highlightCode`'s output for it, or undefined to show the code as
 * plain text. The `<code>` element's text is exactly `code`.
 */
export function codeBlockHtml({ info, code, highlighted, labels }: { info: string; code: string; highlighted: string | undefined; labels: RenderLabels }): string {
  const word = info.trim().split(/\s/, 1)[0]!;
  const language = codeLanguage(word);
  const name = escapeHtml(word === '' ? labels.code : word);
  const lines = lineCount(code);
  const folded = lines > FOLD_LINES;
  const head = [`<span class="code-lang">${name}</span>`];
  if (language !== undefined && PREVIEWABLE.has(language)) {
    const tab = escapeHtml(labels.openPreviewTab);
    head.push(
      `<button type="button" data-preview="${language}">${escapeHtml(labels.preview)}</button>`,
      `<button type="button" data-preview-tab="${language}" aria-label="${tab}" title="${tab}"></button>`,
    );
  }
  head.push(
    `<button type="button" data-wrap aria-pressed="false">${escapeHtml(labels.wrapLines)}</button>`,
    `<button type="button" data-copy-code aria-label="${escapeHtml(fill(labels.copyCode, { language: word === '' ? labels.code : word }))}">${escapeHtml(labels.copy)}</button>`,
  );
  const attributes = `${language === undefined ? '' : ` data-lang="${language}"`} data-lines="${lines}"${folded ? ' data-folded' : ''}`;
  const codeClass = language === undefined ? '' : ` class="hljs language-${language}"`;
  const showAll = folded ? `<button type="button" data-show-all>${escapeHtml(fill(labels.showAllLines, { n: lines }))}</button>` : '';
  return `<div class="code-block"${attributes}><div class="code-head">${head.join('')}</div><pre><code${codeClass}>${highlighted ?? escapeHtml(code)}</code></pre>${showAll}</div>`;
}

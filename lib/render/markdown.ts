/**
 * Model output → safe HTML, one block at a time. Model output is untrusted:
 * - raw HTML is never rendered (markdown-it `html: false` escapes it);
 * - links keep only http(s) and mailto targets, and open in a new tab with noopener;
 * - images are not loaded: each becomes a button that loads it on the user's click
 *   (inline `data:image/…` pictures, which fetch nothing, are shown);
 * - DOMPurify then cleans the result again, in case a rule above is ever wrong.
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { BARE_LABELS, fill, type RenderLabels } from './labels';

const SAFE_LINK = /^(https?:|mailto:)/i;
const INLINE_IMAGE = /^data:image\/(gif|png|jpeg|webp);/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

/** markdown-it's per-render environment, which its rules receive: the caller's words. */
type RenderEnv = {
  labels: RenderLabels;
};

function labelsOf(env: unknown): RenderLabels {
  return (env as Partial<RenderEnv> | undefined)?.labels ?? BARE_LABELS;
}

md.validateLink = (url: string) => SAFE_LINK.test(url.trim()) || INLINE_IMAGE.test(url.trim()) || /^#/.test(url.trim());

md.renderer.rules.link_open = (tokens, idx, options, _env, self) => {
  const token = tokens[idx]!;
  token.attrSet('target', '_blank');
  token.attrSet('rel', 'noopener noreferrer nofollow');
  return self.renderToken(tokens, idx, options);
};

md.renderer.rules.image = (tokens, idx, _options, env) => {
  const labels = labelsOf(env);
  const token = tokens[idx]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = token.content;
  const escape = md.utils.escapeHtml;
  if (INLINE_IMAGE.test(src)) return `<img src="${escape(src)}" alt="${escape(alt)}">`;
  let host = src;
  try {
    host = new URL(src).host;
  } catch {
    // Not a URL: show it as written.
  }
  const label = alt === '' ? fill(labels.loadImage, { host }) : fill(labels.loadImageAlt, { alt, host });
  return `<button type="button" class="remote-image" data-load-image="${escape(src)}" data-alt="${escape(alt)}" aria-label="${escape(label)}">${escape(label)}</button>`;
};

md.renderer.rules.fence = (tokens, idx, _options, env) => {
  const labels = labelsOf(env);
  const token = tokens[idx]!;
  const lang = token.info.trim().split(/\s+/)[0] ?? '';
  const escape = md.utils.escapeHtml;
  const langLabel = lang === '' ? labels.code : lang;
  return `<div class="code-block"><div class="code-head"><span>${escape(langLabel)}</span><button type="button" data-copy-code aria-label="${escape(fill(labels.copyCode, { language: langLabel }))}">${escape(labels.copy)}</button></div><pre><code${lang === '' ? '' : ` class="language-${escape(lang)}"`}>${escape(token.content)}</code></pre></div>\n`;
};

let purifyConfigured = false;

function purify(html: string): string {
  if (!purifyConfigured) {
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A') {
        const href = node.getAttribute('href') ?? '';
        if (!SAFE_LINK.test(href) && !href.startsWith('#')) node.removeAttribute('href');
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
      if (node.tagName === 'IMG' && !INLINE_IMAGE.test(node.getAttribute('src') ?? '')) node.removeAttribute('src');
    });
    // Set once: a configuration passed to every sanitize() is parsed again on every call (about
    // a millisecond, on every frame of a streaming reply).
    DOMPurify.setConfig({
      ADD_ATTR: ['target', 'data-copy-code', 'data-load-image'],
      FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
    });
    purifyConfigured = true;
  }
  return DOMPurify.sanitize(html);
}

/**
 * Makes ready what rendering `sources` needs that loads on first use, so that rendering them
 * (synchronous, as markdown-it's rules are) finds it there.
 */
export async function prepareMarkdown(_sources: readonly string[]): Promise<void> {
  // Grammars for highlighting are loaded here (lib/render/highlight.ts).
}

/** One markdown block → safe HTML, its buttons worded with `labels`. */
export function renderMarkdownBlock(source: string, labels: RenderLabels = BARE_LABELS): string {
  const env: RenderEnv = { labels };
  return purify(md.render(source, env));
}

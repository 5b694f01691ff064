/**
 * Model output → safe HTML, one block at a time, in the render worker (lib/render/worker).
 * Model output is untrusted:
 * - raw HTML is never rendered (markdown-it `html: false` escapes it);
 * - links keep only http(s) and mailto targets, and open in a new tab with noopener;
 * - images are not loaded: each becomes a button that loads it on the user's click
 *   (inline `data:image/…` pictures, which fetch nothing, are shown);
 * - code is highlighted into spans of highlight.js classes only (./highlight.ts), formulas are laid
 *   out by KaTeX with no trust in their source (./math.ts);
 * - the sanitiser (./sanitize.ts) then keeps only what each renderer may emit, in case a rule
 *   above is ever wrong. It needs no DOM, so all of this runs in a worker.
 */
import MarkdownIt from 'markdown-it';
import { codeBlockHtml } from './code-block';
import { ensureLanguages, highlightCode, languagesIn } from './highlight';
import { BARE_LABELS, fill, type RenderLabels } from './labels';
import { mathPlugin } from './math';
import { sanitizeRendered } from './sanitize';
import { tablePlugin } from './tables';

const SAFE_LINK = /^(https?:|mailto:)/i;
const INLINE_IMAGE = /^data:image\/(gif|png|jpeg|webp);/i;

const md = new MarkdownIt({ html: false, linkify: true, breaks: false }).use(mathPlugin).use(tablePlugin);

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

const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/**
 * Notes on each fence whether its closing line came (`meta.closed`): a diagram is drawn only
 * from a finished source, while a fence still streaming shows as code.
 */
md.core.ruler.push('fence_closed', (state) => {
  let lines: string[] | undefined;
  for (const token of state.tokens) {
    if (token.type !== 'fence' || token.map === null || firstWord(token.info) !== 'mermaid') continue;
    lines ??= state.src.split('\n');
    const [start, end] = token.map;
    const marks = CLOSING_FENCE.exec(lines[end - 1] ?? '')?.[1];
    token.meta = { closed: end - start >= 2 && marks !== undefined && marks[0] === token.markup[0] && marks.length >= token.markup.length };
  }
});

function firstWord(info: string): string {
  return info.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
}

md.renderer.rules.fence = (tokens, idx, _options, env) => {
  const token = tokens[idx]!;
  const block = codeBlockHtml({ info: token.info, code: token.content, highlighted: highlightCode(token.content, token.info), labels: labelsOf(env) });
  // A finished Mermaid source: the page draws it (components/chat/render/diagrams.ts).
  if ((token.meta as { closed?: boolean } | null)?.closed === true) return `<div class="diagram-block" data-diagram>${block}</div>\n`;
  return block;
};

/**
 * Makes ready what rendering `sources` needs that loads on first use (the grammars of the
 * languages their code blocks name), so that rendering them, synchronous as markdown-it's rules
 * are, finds it there.
 */
export async function prepareMarkdown(sources: readonly string[]): Promise<void> {
  const languages = new Set<string>();
  for (const source of sources) for (const language of languagesIn(source)) languages.add(language);
  if (languages.size > 0) await ensureLanguages([...languages]);
}

/** One markdown block → safe HTML, its buttons worded with `labels`. */
export function renderMarkdownBlock(source: string, labels: RenderLabels = BARE_LABELS): string {
  const env: RenderEnv = { labels };
  return sanitizeRendered(md.render(source, env));
}

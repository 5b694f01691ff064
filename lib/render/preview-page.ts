/**
 * The contract between a code block's Preview buttons and the sandboxed preview page
 * (entrypoints/preview.sandbox): what to run travels in the page address's hash, so no message
 * channel between the chat page and the sandbox is needed (and the popup may close once a tab
 * has opened). The rules the preview runs under are here too, so the manifest and the page say
 * the same thing.
 */
import * as z from 'zod/mini';

export const PREVIEW_PAGE = '/preview.html';

/**
 * What code in a preview may do: run its own inline scripts and styles, show `data:` images,
 * media and fonts; nothing else loads, no request leaves, no form posts, no frame navigates.
 */
const CONTENT_RULES = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'media-src data:',
  'font-src data:',
  "connect-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
];

/**
 * The manifest's `content_security_policy.sandbox` (Chromium): the page runs in a unique origin
 * (no same-origin, so no extension API, storage or cookies), with no top navigation, popups,
 * forms or modals; only its own script ('self') and the preview's inline code run.
 */
export const PREVIEW_SANDBOX_CSP = ['sandbox allow-scripts', "script-src 'self' 'unsafe-inline'", ...CONTENT_RULES].join('; ') + ';';

/**
 * The same rules again inside the preview's own document, which may not even load the
 * extension's scripts: only inline code runs there.
 */
export const PREVIEW_DOCUMENT_CSP = ["script-src 'unsafe-inline'", ...CONTENT_RULES].join('; ');

const PreviewRequest = z.object({
  kind: z.enum(['html', 'svg']),
  code: z.string(),
  title: z.string(),
});
export type PreviewRequest = z.infer<typeof PreviewRequest>;

/** The hash (with its `#`) that asks the preview page to run `request`. */
export function previewHash(request: PreviewRequest): string {
  const params = new URLSearchParams({ kind: request.kind, title: request.title, code: request.code });
  return `#${params.toString()}`;
}

/** The request a preview page's hash holds, or undefined when it holds none. */
export function readPreviewHash(hash: string): PreviewRequest | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const parsed = PreviewRequest.safeParse({ kind: params.get('kind'), code: params.get('code'), title: params.get('title') });
  return parsed.success ? parsed.data : undefined;
}

/** The document a preview frame shows: the rules first (a later `<meta>` can only add to them), then the code. */
export function previewDocument(request: PreviewRequest): string {
  const rules = `<meta http-equiv="Content-Security-Policy" content="${PREVIEW_DOCUMENT_CSP}">`;
  const fit = request.kind === 'svg' ? '<style>svg{max-width:100%;height:auto}</style>' : '';
  return `<!doctype html><meta charset="utf-8">${rules}${fit}${request.code}`;
}

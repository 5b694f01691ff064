/**
 * Which pages an extension may not read, and why, from their address: the browser's own pages,
 * the extension stores, local files (unless the user allowed them), PDFs in the built-in viewer.
 * Codes only: the pages word them, with what to do instead.
 */
export const PAGE_UNREADABLE = ['browser_page', 'store_page', 'pdf', 'file_page', 'no_text', 'no_tab', 'refused', 'busy'] as const;
export type PageUnreadable = (typeof PAGE_UNREADABLE)[number];

/**
 * How long a page has to answer the reader. A page busy running a script of its own (a loop
 * that never yields) would keep the reader, and the ask, waiting for ever: past this the ask is
 * refused as `busy`. Readability on the largest page we analyse takes a fraction of it.
 */
export const PAGE_READ_DEADLINE_MS = 10_000;

const BROWSER_SCHEMES = /^(chrome|chrome-untrusted|edge|brave|opera|vivaldi|about|view-source|devtools|chrome-search|chrome-extension|moz-extension|resource|data|blob|javascript):/i;
const STORES: readonly [string, string][] = [
  ['chromewebstore.google.com', '/'],
  ['chrome.google.com', '/webstore'],
  ['microsoftedge.microsoft.com', '/addons'],
  ['addons.mozilla.org', '/'],
  ['addons.opera.com', '/'],
];

/** Why the page at `url` cannot be read, when its address alone says so. */
export function unreadableReason(url: string | undefined): PageUnreadable | undefined {
  if (url === undefined || url === '') return undefined;
  if (BROWSER_SCHEMES.test(url)) return 'browser_page';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'browser_page';
  }
  if (parsed.protocol === 'file:') return /\.pdf$/i.test(parsed.pathname) ? 'pdf' : 'file_page';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'browser_page';
  if (STORES.some(([host, path]) => parsed.hostname === host && parsed.pathname.startsWith(path))) return 'store_page';
  return undefined;
}

/** Where the background leaves, for the injected reader, how many characters are worth reading. */
export const READ_LIMIT_GLOBAL = '__gatewayChatReadLimit';

/** Characters worth reading from a page for a request of at most `maxTokens` (generous: a token is about 4 Latin characters, 1 CJK). */
export function readLimitFor(maxTokens: number): number {
  return maxTokens * 5;
}

/** What `within` gives when the work did not settle in time. */
export const LATE = Symbol('late');

/** The work's result, or LATE once `ms` have passed (the work goes on unheard: a script waiting for a page cannot be called back). */
export async function within<T>(ms: number, work: Promise<T>): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => resolve(LATE), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

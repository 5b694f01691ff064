/**
 * Which pages an extension may not read, and why, from their address: the browser's own pages,
 * the extension stores, local files (unless the user allowed them), PDFs in the built-in viewer.
 * Codes only: the pages word them, with what to do instead.
 */
export const PAGE_UNREADABLE = ['browser_page', 'store_page', 'pdf', 'file_page', 'no_text', 'no_tab', 'refused'] as const;
export type PageUnreadable = (typeof PAGE_UNREADABLE)[number];

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

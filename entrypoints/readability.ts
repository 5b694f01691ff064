/**
 * Injected into the page the user asks about (on their gesture: activeTab + scripting), never
 * declared as a content script. Its value is what `scripting.executeScript` returns: the page's
 * main content as text (lib/page/read-page.ts).
 */
import { readPage } from '@/lib/page/read-page';
import { READ_LIMIT_GLOBAL } from '@/lib/page/page-access';

export default defineUnlistedScript(() => {
  // Set by the background just before (same isolated world): how much text a request may carry.
  const limit = (globalThis as Record<string, unknown>)[READ_LIMIT_GLOBAL];
  return readPage(document, location.href, {
    visibleText: () => document.body?.innerText ?? '',
    ...(typeof limit === 'number' && limit > 0 ? { maxChars: limit } : {}),
  });
});

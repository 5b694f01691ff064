/**
 * Injected into the page the user asks about (on their gesture: activeTab + scripting), never
 * declared as a content script. Its value is what `scripting.executeScript` returns: the page's
 * main content as text (lib/page/read-page.ts).
 */
import { readPage } from '@/lib/page/read-page';

export default defineUnlistedScript(() => readPage(document, location.href, () => document.body?.innerText ?? ''));

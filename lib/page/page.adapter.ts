/**
 * Reading the page in a tab, on the user's gesture: the `readability` script injected with
 * `scripting.executeScript` (activeTab grants it for the tab the user acted on). What comes back
 * from the page is outside data: parsed before use.
 */
import * as z from 'zod/mini';
import { browser } from 'wxt/browser';
import { LATE, PAGE_READ_DEADLINE_MS, READ_LIMIT_GLOBAL, unreadableReason, within, type PageUnreadable } from './page-access';
import type { PageContent } from './read-page';

const PageContentSchema = z.object({
  title: z.string(),
  url: z.string(),
  text: z.string(),
  method: z.enum(['article', 'body']),
  contentType: z.string(),
  totalChars: z.optional(z.number()),
});

/** `seconds`: how long a `busy` page was given. */
export type TabRead = { ok: true; page: PageContent } | { ok: false; reason: PageUnreadable; url: string; detail?: string; seconds?: number };

/** The page in front in the current window (the popup's or the side panel's), when there is one. */
export async function activeTabId(): Promise<number | undefined> {
  return (await frontTab())?.id;
}

async function frontTab(): Promise<{ id?: number; windowId?: number } | undefined> {
  return (await browser.tabs.query({ active: true, currentWindow: true }))[0];
}

/**
 * The page in front in the current window, now and each time another tab comes to the front (a
 * side panel stays open across tabs): a send then knows it without asking the browser and waiting.
 */
export function watchActiveTabId(onChange: (tabId: number | undefined) => void): () => void {
  let live = true;
  let windowId: number | undefined;
  const ask = (): void => {
    void frontTab().then((tab) => {
      if (!live) return;
      windowId = tab?.windowId;
      onChange(tab?.id);
    }, () => undefined);
  };
  const activated = (info: { tabId: number; windowId: number }): void => {
    if (!live) return;
    // Before this window is known, it is asked again (that tab may be this window's).
    if (windowId === undefined) ask();
    else if (info.windowId === windowId) onChange(info.tabId);
  };
  browser.tabs.onActivated.addListener(activated);
  ask();
  return () => {
    live = false;
    browser.tabs.onActivated.removeListener(activated);
  };
}

/**
 * Reads the page in tab `tabId`; no more than about `maxChars` characters of it are analysed. A
 * page that does not let the reader run within `deadlineMs` (its own script holds it) is `busy`.
 */
/** The address of a tab's page, where the browser tells it (with access to the tab: activeTab, or its origin's host access). */
export async function tabAddress(tabId: number): Promise<string | undefined> {
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  const url = tab?.url ?? tab?.pendingUrl ?? '';
  return url === '' ? undefined : url;
}

export async function readTab(tabId: number | undefined, maxChars: number, deadlineMs = PAGE_READ_DEADLINE_MS): Promise<TabRead> {
  if (tabId === undefined) return { ok: false, reason: 'no_tab', url: '' };
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  if (tab === undefined) return { ok: false, reason: 'no_tab', url: '' };
  const url = tab.url ?? tab.pendingUrl ?? '';
  const known = unreadableReason(url);
  if (known !== undefined) return { ok: false, reason: known, url };
  let raw: unknown;
  try {
    const read = await within(deadlineMs, (async () => {
      await browser.scripting.executeScript({ target: { tabId }, func: (name: string, limit: number) => { (globalThis as Record<string, unknown>)[name] = limit; }, args: [READ_LIMIT_GLOBAL, maxChars] });
      const [first] = await browser.scripting.executeScript({ target: { tabId }, files: ['/readability.js'] });
      return first?.result;
    })());
    if (read === LATE) return { ok: false, reason: 'busy', url, seconds: Math.round(deadlineMs / 1000) };
    raw = read;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    // The address said nothing (the browser hides it without access), the refusal does.
    const reason = /chrome:\/\/|cannot be scripted|extensions gallery|webstore/i.test(detail) ? 'browser_page' : 'refused';
    return { ok: false, reason, url, detail };
  }
  const parsed = PageContentSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'refused', url };
  const page = parsed.data;
  if (page.contentType === 'application/pdf') return { ok: false, reason: 'pdf', url: page.url || url };
  if (page.text.trim() === '') return { ok: false, reason: 'no_text', url: page.url || url };
  return { ok: true, page };
}

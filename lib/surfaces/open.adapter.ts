/**
 * Moving a conversation to a bigger surface: the side panel (Chrome) or sidebar (Firefox),
 * or the full-tab chat page. The conversation travels in the page's address.
 */
import { browser } from 'wxt/browser';

export function chatPageUrl(conversationId: string | undefined): string {
  const base = browser.runtime.getURL('/chat.html');
  return conversationId === undefined ? base : `${base}?conversation=${encodeURIComponent(conversationId)}`;
}

export async function openInTab(conversationId: string | undefined): Promise<void> {
  await browser.tabs.create({ url: chatPageUrl(conversationId) });
}

/** The current window's id, fetched ahead of the click (no await may precede the panel's opening). */
export async function currentWindowId(): Promise<number | undefined> {
  return (await browser.windows.getCurrent()).id;
}

interface ChromeSidePanel {
  open(options: { windowId: number }): Promise<void>;
  setOptions(options: { path: string }): Promise<void>;
}
interface FirefoxSidebar {
  open(): Promise<void>;
  setPanel(options: { panel: string }): Promise<void>;
}

/**
 * Opens Chrome's side panel or Firefox's sidebar, on a conversation when one is named. Must
 * run in the click, menu or shortcut handler with no await before it: browsers open panels
 * only during a user gesture. A failure (no gesture, no window) is not an error for the caller.
 */
export async function openInSidePanel(conversationId: string | undefined, windowId: number | undefined): Promise<void> {
  const query = conversationId === undefined ? '' : `?conversation=${encodeURIComponent(conversationId)}`;
  const sidePanel = (globalThis as { chrome?: { sidePanel?: ChromeSidePanel } }).chrome?.sidePanel;
  if (sidePanel !== undefined && windowId !== undefined) {
    await Promise.all([sidePanel.setOptions({ path: `sidepanel.html${query}` }), sidePanel.open({ windowId })]).catch(() => undefined);
    return;
  }
  const sidebar = (browser as unknown as { sidebarAction?: FirefoxSidebar }).sidebarAction;
  if (sidebar !== undefined) {
    await Promise.all([sidebar.open(), sidebar.setPanel({ panel: browser.runtime.getURL(`/sidepanel.html${query}`) })]).catch(() => undefined);
  }
}

/** The conversation named in this page's address (`?conversation=`), if any. */
export function conversationFromLocation(): string | undefined {
  return new URLSearchParams(location.search).get('conversation') ?? undefined;
}

/** This build's version (the manifest's, from package.json). */
export function extensionVersion(): string {
  return browser.runtime.getManifest().version;
}

/** A text file shipped inside the extension (the changelog, the privacy statement). */
export function bundledTextUrl(name: 'CHANGELOG.txt' | 'PRIVACY.txt'): string {
  // Copied in at build time (wxt.config.ts), so WXT's list of public files does not know them.
  const getURL = browser.runtime.getURL as (path: string) => string;
  return getURL(`/${name}`);
}

/** The tab that asks for the microphone (the popup and the side panel cannot show the browser's prompt). */
export async function openMicrophonePage(): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL('/microphone.html') });
}

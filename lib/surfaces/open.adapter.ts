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

/** Must run inside the click handler, with no await before it: side panels open only on a user gesture. */
export async function openInSidePanel(conversationId: string | undefined, windowId: number | undefined): Promise<void> {
  const query = conversationId === undefined ? '' : `?conversation=${encodeURIComponent(conversationId)}`;
  const path = `sidepanel.html${query}`;
  const chrome = (globalThis as { chrome?: { sidePanel?: { open(o: { windowId: number }): Promise<void>; setOptions(o: { path: string }): Promise<void> } } }).chrome;
  if (chrome?.sidePanel !== undefined && windowId !== undefined) {
    const pathSet = chrome.sidePanel.setOptions({ path });
    const opened = chrome.sidePanel.open({ windowId });
    await Promise.all([pathSet, opened]);
    return;
  }
  const sidebar = (browser as unknown as { sidebarAction?: { setPanel(o: { panel: string }): Promise<void>; open(): Promise<void> } }).sidebarAction;
  if (sidebar !== undefined) {
    const opened = sidebar.open();
    await Promise.all([opened, sidebar.setPanel({ panel: browser.runtime.getURL(`/sidepanel.html${query}`) })]);
  }
}

/** For the keyboard shortcut (a command is a user gesture): open the panel in that window. */
export async function openSidePanelInWindow(windowId: number): Promise<void> {
  const chrome = (globalThis as { chrome?: { sidePanel?: { open(o: { windowId: number }): Promise<void> } } }).chrome;
  await chrome?.sidePanel?.open({ windowId });
}

/** The conversation named in this page's address (`?conversation=`), if any. */
export function conversationFromLocation(): string | undefined {
  return new URLSearchParams(location.search).get('conversation') ?? undefined;
}

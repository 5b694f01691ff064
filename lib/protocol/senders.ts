/**
 * Who may command the background: the extension's own pages (popup, side panel or sidebar, chat
 * page, options page), nothing else. `sender.id` alone is not enough: the scripts this extension
 * injects into web pages (the page reader, the selection reader) carry our id too, but run
 * inside a page whose own scripts can reach their world. Their results come back through
 * `scripting.executeScript`, never as messages, so every message and port must come from a page
 * whose address is on the extension's origin.
 */

/** The part of runtime.MessageSender this needs (Chrome and Firefox both give `id`, `url`, `tab`; Chrome also `origin`). */
export interface SenderLike {
  id?: string | undefined;
  url?: string | undefined;
  origin?: string | undefined;
  tab?: { url?: string | undefined } | undefined;
}

/** This extension: its id and the address of its root (`runtime.getURL('/')`). */
export interface OwnExtension {
  id: string;
  root: string;
}

/** The scheme and host of an address (`chrome-extension://id`), without relying on URL.origin, which is "null" for such schemes outside the browser. */
function schemeAndHost(address: string | undefined): string | undefined {
  if (address === undefined || address === '') return undefined;
  try {
    const url = new URL(address);
    return url.host === '' ? undefined : `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

export function fromOwnPage(sender: SenderLike | undefined, own: OwnExtension): boolean {
  if (sender === undefined || sender.id !== own.id) return false;
  const ours = schemeAndHost(own.root);
  if (ours === undefined || schemeAndHost(sender.url) !== ours) return false;
  // Chrome's own word on the sending document's origin, when it gives one ("null" for a sandboxed page).
  if (sender.origin !== undefined && sender.origin !== ours) return false;
  // A page of ours in a tab is the tab's page, not a frame inside someone else's (the browser
  // may keep the tab's address to itself: then the sender's own address decides).
  const tabUrl = sender.tab?.url;
  if (tabUrl !== undefined && tabUrl !== '' && schemeAndHost(tabUrl) !== ours) return false;
  return true;
}

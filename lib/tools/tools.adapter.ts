/**
 * The background's tools: the host (host.ts) with the browser's parts: the tool config in
 * `storage.local`, one set of MCP connections for the worker's life, the worker's fetch, and
 * "Read this page" through the readability script on the tab that asked (activeTab).
 */
import { readTab, tabAddress } from '../page/page.adapter';
import { browser } from 'wxt/browser';
import { loadToolConfig, updateToolConfig } from './config.adapter';
import { createToolHost, type ToolHost } from './host';
import { McpConnections } from './mcp';
import type { ToolOutcome } from './types';
import type { McpListingMessage } from '../protocol/messages';

/** The identity API's address the sign-in page sends the browser back to (`https://<id>.chromiumapp.org/mcp` in Chrome). */
const redirectUrl = (): string => browser.identity.getRedirectURL('mcp');

export const mcpConnections = new McpConnections(undefined, {
  redirectUrl,
  save: async (serverId, state) => {
    await updateToolConfig((config) => ({ ...config, mcpServers: config.mcpServers.map((s) => (s.id === serverId ? { ...s, oauth: state } : s)) }));
  },
});

/** "Sign in" (options page): the server's sign-in page in the browser's identity window, then its tools. */
export async function signInServer(serverId: string): Promise<McpListingMessage> {
  const server = (await loadToolConfig()).mcpServers.find((s) => s.id === serverId);
  if (server === undefined) return { ok: false, code: 'tool_gone', params: { address: '', name: serverId } };
  const signedIn = await mcpConnections.signIn(server, async (url) => {
    const back = await browser.identity.launchWebAuthFlow({ url, interactive: true });
    if (back === undefined) throw new Error('The sign-in window closed.');
    return back;
  });
  if (!signedIn.ok) return signedIn;
  return listServerTools(serverId, true);
}

async function readTabTool(tabId: number, maxChars: number): Promise<ToolOutcome> {
  const read = await readTab(tabId, maxChars);
  if (!read.ok) return { ok: false, code: 'page_unreadable', params: { reason: read.reason, ...(read.url === '' ? {} : { address: read.url }) } };
  const { page } = read;
  return { ok: true, text: `${page.title}\n${page.url}\n\n${page.text}`, sources: [{ title: page.title === '' ? page.url : page.title, url: page.url }] };
}

/** `access`: the background's keeper of host access (a fetched page's origin is held while it is read). */
export function backgroundToolHost(access?: { hold(address: string): () => void }): ToolHost {
  return createToolHost({
    ...(access === undefined ? {} : { holdAccess: (address: string) => access.hold(address) }),
    loadConfig: loadToolConfig,
    updateConfig: updateToolConfig,
    mcp: mcpConnections,
    fetch: (input, init) => fetch(input, init),
    readTab: readTabTool,
    tabAddress,
  });
}

/** An MCP server's tools, as the options page shows them (names and descriptions). */
export async function listServerTools(serverId: string, fresh: boolean): Promise<McpListingMessage> {
  const server = (await loadToolConfig()).mcpServers.find((s) => s.id === serverId);
  if (server === undefined) return { ok: false, code: 'tool_gone', params: { address: '', name: serverId } };
  if (fresh) mcpConnections.forget(serverId);
  const listing = await mcpConnections.list(server, AbortSignal.timeout(15_000));
  return listing.ok ? { ok: true, transport: listing.transport, tools: listing.tools.map(({ name, description }) => ({ name, description })) } : listing;
}

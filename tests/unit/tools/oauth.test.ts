/**
 * OAuth 2.1 with PKCE against a real MCP server and the SDK's own authorization server (its
 * router and in-memory demo provider, which signs the user in at once): discovery, dynamic client
 * registration, the code challenge, the code exchanged for tokens, the tokens kept with the
 * server and sent to it, and a sign-in asked for when there are none. The browser's identity
 * window is the one part played here: the sign-in page's redirect is followed by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpOAuthState, McpServer } from '@/lib/tools/config';
import { McpConnections } from '@/lib/tools/mcp';
import { startTestMcpServer, type TestMcpServer } from '../../mcp/server';

let server: TestMcpServer;
beforeAll(async () => {
  server = await startTestMcpServer({ oauth: true, name: 'secure' });
});
afterAll(async () => {
  await server?.close();
});

const REDIRECT = 'https://abcdefghijklmnop.chromiumapp.org/mcp';

/** The identity window: opens the sign-in page and returns where it sent the browser back to. */
async function identityWindow(url: string): Promise<string> {
  const page = new URL(url);
  expect(page.searchParams.get('code_challenge_method')).toBe('S256');
  expect(page.searchParams.get('redirect_uri')).toBe(REDIRECT);
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return answer.headers.get('location')!;
}

describe('an OAuth MCP server', () => {
  it('asks for a sign-in; signed in, its tools are listed and called with the tokens kept', async () => {
    let saved: McpOAuthState = {};
    const connections = new McpConnections(undefined, { redirectUrl: () => REDIRECT, save: async (_id, state) => { saved = state; } });
    const config = (): McpServer => ({ id: 'sec', url: server.url, name: 'secure', auth: 'oauth', disabledTools: [], oauth: saved });

    expect(await connections.list(config())).toEqual({ ok: false, code: 'sign_in_needed', params: { address: server.url } });
    expect(server.runs).toEqual([]);

    const launched: string[] = [];
    const signedIn = await connections.signIn(config(), async (url) => {
      launched.push(url);
      return identityWindow(url);
    });
    expect(signedIn).toEqual({ ok: true });
    expect(launched).toHaveLength(1);
    expect(saved.tokens).toMatchObject({ token_type: 'bearer' });
    expect(typeof saved.tokens?.access_token).toBe('string');
    expect(saved.client).toMatchObject({ redirect_uris: [REDIRECT] });

    const listing = await connections.list(config());
    expect(listing.ok && listing.tools.map((t) => t.name)).toEqual(['add', 'delete_note', 'slow', 'fail']);
    expect(await connections.call(config(), 'add', { a: 1, b: 2 })).toEqual({ ok: true, text: '1 + 2 = 3' });
    expect(server.authorizations.at(-1)).toBe(`Bearer ${String(saved.tokens?.access_token)}`);
    connections.forget('sec');
  });

  it('a sign-in the user closes says so, and saves no tokens', async () => {
    let saved: McpOAuthState = {};
    const connections = new McpConnections(undefined, { redirectUrl: () => REDIRECT, save: async (_id, state) => { saved = state; } });
    const result = await connections.signIn({ id: 'sec2', url: server.url, name: 'secure', auth: 'oauth', disabledTools: [] }, async () => {
      throw new Error('The user did not approve access.');
    });
    expect(result).toEqual({ ok: false, code: 'sign_in_needed', params: { address: server.url, detail: 'The user did not approve access.' } });
    expect(saved.tokens).toBeUndefined();
  });
});

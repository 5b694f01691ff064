/**
 * OAuth 2.1 with PKCE against a real MCP server and the SDK's own authorization server (its
 * router and in-memory demo provider, which signs the user in at once): discovery, dynamic client
 * registration, the code challenge, the code exchanged for tokens, the tokens kept with the
 * server and sent to it, and a sign-in asked for when there are none. The browser's identity
 * window is the one part played here: the sign-in page's redirect is followed by hand.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { defaultToolConfig, type McpOAuthState, type McpServer } from '@/lib/tools/config';
import { loadToolConfig, saveToolConfig } from '@/lib/tools/config.adapter';
import { McpConnections } from '@/lib/tools/mcp';
import { oneGrantPerRefreshToken } from '@/lib/tools/oauth';
import { listServerTools, mcpConnections, signInServer } from '@/lib/tools/tools.adapter';
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

    // Named by its origin only (a hosted server's path may hold a secret).
    expect(await connections.list(config())).toEqual({ ok: false, code: 'sign_in_needed', params: { address: new URL(server.url).origin } });
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
    expect(result).toEqual({ ok: false, code: 'sign_in_needed', params: { address: new URL(server.url).origin, detail: 'The user did not approve access.' } });
    expect(saved.tokens).toBeUndefined();
  });
});

/**
 * Access tokens that expire, with refresh tokens (rotated on each use), through the background's
 * own MCP connections and tool config in `storage.local` (the browser's storage faked, its
 * identity window played as above and counted: a refresh must never open it).
 */
describe('an OAuth MCP server whose access tokens expire', () => {
  let expiring: TestMcpServer;
  let windows: ReturnType<typeof vi.fn<(details: { url: string }) => Promise<string>>>;
  beforeAll(async () => {
    expiring = await startTestMcpServer({ oauth: { accessTtlMs: 60_000, refreshTokens: true }, name: 'expiring' });
  });
  afterAll(async () => {
    await expiring?.close();
  });
  beforeEach(() => {
    fakeBrowser.reset();
    vi.spyOn(fakeBrowser.identity, 'getRedirectURL').mockReturnValue(REDIRECT);
    windows = vi.fn(async ({ url }: { url: string }) => identityWindow(url));
    vi.spyOn(fakeBrowser.identity, 'launchWebAuthFlow').mockImplementation(windows);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const stored = async (id: string): Promise<McpServer> => (await loadToolConfig()).mcpServers.find((s) => s.id === id)!;
  const tokensOf = async (id: string): Promise<{ access_token?: unknown; refresh_token?: unknown } | undefined> => (await stored(id)).oauth?.tokens;
  const events = (from = 0): string[] => expiring.oauth!.log.slice(from).map((e) => `${e.event} ${e.ok ? 'granted' : 'refused'}`);

  /** The options page's "Add server" and "Sign in". */
  async function addAndSignIn(id: string): Promise<void> {
    await saveToolConfig({ ...defaultToolConfig(), mcpServers: [{ id, url: expiring.url, name: 'expiring', auth: 'oauth', disabledTools: [] }] });
    const signedIn = await signInServer(id);
    expect(signedIn.ok && signedIn.tools.map((t) => t.name)).toEqual(['add', 'delete_note', 'slow', 'fail']);
    expect(windows).toHaveBeenCalledTimes(1);
  }

  it('an expired access token is refreshed on the next call and the next listing, with no sign-in window; the new tokens are kept', async () => {
    const from = expiring.oauth!.log.length;
    await addAndSignIn('exp');
    const first = await tokensOf('exp');
    expect(typeof first?.refresh_token).toBe('string');
    expect(events(from)).toEqual(['authorize granted', 'authorization_code granted']);

    // On the open connection: the server answers 401 "Token has expired", the SDK refreshes, the call goes again.
    expiring.oauth!.expireAccessTokens();
    expect(await mcpConnections.call(await stored('exp'), 'add', { a: 2, b: 3 })).toEqual({ ok: true, text: '2 + 3 = 5' });
    expect(events(from)).toEqual(['authorize granted', 'authorization_code granted', 'refresh_token granted']);
    const second = await tokensOf('exp');
    expect(second?.access_token).not.toBe(first?.access_token);
    expect(second?.refresh_token).not.toBe(first?.refresh_token);
    expect(expiring.authorizations.at(-1)).toBe(`Bearer ${String(second?.access_token)}`);

    // A new connection (the worker started again) with the stored tokens, expired in turn: the listing refreshes them the same way.
    expiring.oauth!.expireAccessTokens();
    const listing = await listServerTools('exp', true);
    expect(listing.ok && listing.tools.map((t) => t.name)).toEqual(['add', 'delete_note', 'slow', 'fail']);
    expect(events(from)).toEqual(['authorize granted', 'authorization_code granted', 'refresh_token granted', 'refresh_token granted']);
    const third = await tokensOf('exp');
    expect(third?.access_token).not.toBe(second?.access_token);
    expect(expiring.authorizations.at(-1)).toBe(`Bearer ${String(third?.access_token)}`);
    expect(windows).toHaveBeenCalledTimes(1);
    mcpConnections.forget('exp');
  });

  it('a token that lives a second: once its time is up, the next call refreshes it', async () => {
    const brief = await startTestMcpServer({ oauth: { accessTtlMs: 1000, refreshTokens: true }, name: 'brief' });
    try {
      await saveToolConfig({ ...defaultToolConfig(), mcpServers: [{ id: 'brief', url: brief.url, name: 'brief', auth: 'oauth', disabledTools: [] }] });
      expect((await signInServer('brief')).ok).toBe(true);
      const first = await tokensOf('brief');
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect(await mcpConnections.call(await stored('brief'), 'add', { a: 4, b: 5 })).toEqual({ ok: true, text: '4 + 5 = 9' });
      expect(brief.oauth!.log.at(-1)).toEqual({ event: 'refresh_token', ok: true });
      expect((await tokensOf('brief'))?.access_token).not.toBe(first?.access_token);
      expect(windows).toHaveBeenCalledTimes(1);
    } finally {
      mcpConnections.forget('brief');
      await brief.close();
    }
  });

  it('two calls at once on an expired token are both answered, and the tokens kept still work', async () => {
    const from = expiring.oauth!.log.length;
    await addAndSignIn('both');
    expiring.oauth!.expireAccessTokens();
    const server = await stored('both');
    const [one, two] = await Promise.all([mcpConnections.call(server, 'add', { a: 1, b: 1 }), mcpConnections.call(server, 'add', { a: 2, b: 2 })]);
    expect([one, two]).toEqual([{ ok: true, text: '1 + 1 = 2' }, { ok: true, text: '2 + 2 = 4' }]);
    // No refresh token was sent twice (the server rotates them: it would refuse the second, and the SDK drop the new tokens).
    expect(events(from).slice(2)).toContain('refresh_token granted');
    expect(events(from)).not.toContain('refresh_token refused');
    expect(typeof (await tokensOf('both'))?.refresh_token).toBe('string');
    // What storage keeps still works after the next expiry.
    expiring.oauth!.expireAccessTokens();
    expect((await listServerTools('both', true)).ok).toBe(true);
    expect(events(from).at(-1)).toBe('refresh_token granted');
    expect(events(from)).not.toContain('refresh_token refused');
    expect(windows).toHaveBeenCalledTimes(1);
    mcpConnections.forget('both');
  });

  it('a refresh token is sent once, however many ask at once; each asker reads the answer', async () => {
    await addAndSignIn('once');
    mcpConnections.forget('once');
    const { client, tokens } = (await stored('once')).oauth!;
    const from = expiring.oauth!.log.length;
    const once = oneGrantPerRefreshToken((input, init) => fetch(input, init));
    const ask = (): Promise<Response> => once(new URL('/token', expiring.url), { method: 'POST', redirect: 'manual', body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: String(tokens?.refresh_token), client_id: String(client?.client_id) }) });
    const answers = await Promise.all([ask(), ask(), ask()]);
    const granted = await Promise.all(answers.map(async (a) => ({ status: a.status, tokens: await a.json() as Record<string, unknown> })));
    expect(new Set(granted.map((g) => `${g.status} ${String(g.tokens.access_token)}`)).size).toBe(1);
    expect(granted[0]?.status).toBe(200);
    // Asked again later (a flow that read the spent token before the new ones were kept): the same answer, nothing sent.
    expect((await (await ask()).json() as Record<string, unknown>).access_token).toBe(granted[0]?.tokens.access_token);
    expect(events(from)).toEqual(['refresh_token granted']);
  });

  it('a refresh token the server refuses: the call asks for a sign-in, naming the server by its origin; the stale tokens are dropped; no window opens', async () => {
    const origin = new URL(expiring.url).origin;
    const from = expiring.oauth!.log.length;
    await addAndSignIn('gone');
    expect((await mcpConnections.list(await stored('gone'))).ok).toBe(true);
    const runs = expiring.runs.length;

    // The user withdrew this app's access at the authorization server (RFC 7009): its refresh token, and the access tokens of that grant, end.
    await revoke(await stored('gone'));
    const call = await mcpConnections.call(await stored('gone'), 'add', { a: 1, b: 2 });
    expect(call).toEqual({ ok: false, code: 'sign_in_needed', params: { address: origin } });
    expect(events(from)).toEqual(['authorize granted', 'authorization_code granted', 'revoke granted', 'refresh_token refused']);
    expect((await stored('gone')).oauth?.tokens).toBeUndefined();
    // Its registration is kept: signing in again needs no new one.
    expect((await stored('gone')).oauth?.client).toMatchObject({ redirect_uris: [REDIRECT] });
    expect(expiring.runs).toHaveLength(runs);

    // So it stays until the user signs in: nothing left to refresh, no grant asked for, no window.
    expect(await listServerTools('gone', true)).toEqual({ ok: false, code: 'sign_in_needed', params: { address: origin } });
    expect(events(from)).toHaveLength(4);
    expect(windows).toHaveBeenCalledTimes(1);

    // "Sign in" again; then the same refusal met by a new connection (the worker started again).
    const signedIn = await signInServer('gone');
    expect(signedIn.ok).toBe(true);
    expect(windows).toHaveBeenCalledTimes(2);
    await revoke(await stored('gone'));
    mcpConnections.forget('gone');
    expect(await mcpConnections.list(await stored('gone'))).toEqual({ ok: false, code: 'sign_in_needed', params: { address: origin } });
    expect(events(from).slice(-2)).toEqual(['revoke granted', 'refresh_token refused']);
    expect((await stored('gone')).oauth?.tokens).toBeUndefined();
    expect(windows).toHaveBeenCalledTimes(2);
    mcpConnections.forget('gone');
  });

  /** RFC 7009 revocation of the server's stored refresh token, as its client. */
  async function revoke(server: McpServer): Promise<void> {
    const body = new URLSearchParams({ token: String(server.oauth?.tokens?.refresh_token), token_type_hint: 'refresh_token', client_id: String(server.oauth?.client?.client_id) });
    const answer = await fetch(new URL('/revoke', expiring.url), { method: 'POST', body });
    expect(answer.status).toBe(200);
  }
});

/**
 * The user's remote MCP servers, through the official TypeScript SDK's client: Streamable HTTP,
 * and the older SSE transport when a server does not take that. One connection per server,
 * opened on first use and kept; a server whose tools change says so (`tools/list_changed`) and
 * its list is read again. Schemas are checked with the SDK's eval-free validator (an extension's
 * pages and worker forbid `new Function`).
 *
 * Only the server's own token goes to it (`Authorization: Bearer`), and only to its origin (the
 * SDK refuses to follow a redirect elsewhere): never the gateway's key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import * as z from 'zod/mini';
import type { McpServer } from './config';
import { StoredOAuth, oneGrantPerRefreshToken, type OAuthHost } from './oauth';
import { originOf, type ToolFailure, type ToolOutcome } from './types';
export { MAX_TOOL_OUTPUT } from './types';

export interface McpTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export type McpProblem = { code: ToolFailure; params: Record<string, string | number> };
export type McpListing = { ok: true; tools: McpTool[]; transport: 'streamable-http' | 'sse' } | ({ ok: false } & McpProblem);

const ToolWire = z.object({
  name: z.string(),
  description: z.optional(z.string()),
  inputSchema: z.optional(z.record(z.string(), z.unknown())),
});

const ContentWire = z.array(z.looseObject({
  type: z.string(),
  text: z.optional(z.string()),
  mimeType: z.optional(z.string()),
  resource: z.optional(z.looseObject({ uri: z.optional(z.string()), text: z.optional(z.string()) })),
  uri: z.optional(z.string()),
  name: z.optional(z.string()),
}));

interface Connection {
  /** What the connection was opened with: another address or token opens a new one. */
  fingerprint: string;
  client: Client;
  transport: 'streamable-http' | 'sse';
  tools?: McpTool[];
}

const CLIENT_INFO = { name: 'gateway-chat', version: '0.1.0' };
/** How long a server has to connect (and, on SSE, to send its endpoint). */
const CONNECT_TIMEOUT_MS = 15_000;
/** How long a tool call may go without an answer or a progress report. */
const CALL_TIMEOUT_MS = 120_000;

/** A connection that took too long. */
class McpTimeout extends Error {
  override readonly name = 'McpTimeout';
}

/** The promise, or a rejection as soon as `signal` aborts (the promise itself may go on; its result is not waited for). */
function stoppable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', stop, { once: true });
    promise.then((value) => {
      signal.removeEventListener('abort', stop);
      resolve(value);
    }, (error: unknown) => {
      signal.removeEventListener('abort', stop);
      reject(error);
    });
  });
}

export class McpConnections {
  private readonly open = new Map<string, Promise<Connection>>();

  /** Every request to the servers and their authorization servers (a refresh token spent once: oauth.ts). */
  private readonly fetcher: typeof fetch;

  constructor(fetcher: typeof fetch = (input, init) => fetch(input, init), private readonly oauth?: OAuthHost) {
    this.fetcher = oneGrantPerRefreshToken(fetcher);
  }

  /**
   * Signs in to an OAuth server: the SDK's flow finds its authorization server, registers, and
   * asks for the sign-in page; `launch` shows it (the browser's identity window) and gives back
   * the address it was sent back to, with the code; the tokens are saved with the server.
   */
  async signIn(server: McpServer, launch: (url: string) => Promise<string>): Promise<{ ok: true } | ({ ok: false } & McpProblem)> {
    if (this.oauth === undefined) return { ok: false, code: 'internal', params: { detail: 'no sign-in here' } };
    this.forget(server.id);
    const provider = new StoredOAuth(server, this.oauth);
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider, fetch: this.fetcher });
    const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      // Signed in already (its tokens still good).
      await client.close();
      return { ok: true };
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || provider.authorizationUrl === undefined) return { ok: false, ...problemOf(error, server.url) };
    }
    let back: string;
    try {
      back = await launch(provider.authorizationUrl.href);
    } catch (error) {
      return { ok: false, code: 'sign_in_needed', params: { address: originOf(server.url), detail: error instanceof Error ? error.message : String(error) } };
    }
    const answer = new URL(back);
    const code = answer.searchParams.get('code');
    if (code === null) return { ok: false, code: 'sign_in_needed', params: { address: originOf(server.url), detail: answer.searchParams.get('error_description') ?? answer.searchParams.get('error') ?? 'no code' } };
    try {
      await transport.finishAuth(code);
    } catch (error) {
      return { ok: false, ...problemOf(error, server.url) };
    } finally {
      await client.close().catch(() => undefined);
    }
    return { ok: true };
  }

  /** The server's tools (read again when it said they changed). */
  async list(server: McpServer, signal?: AbortSignal): Promise<McpListing> {
    try {
      const connection = await stoppable(this.connection(server), signal);
      connection.tools ??= await this.readTools(connection, signal);
      return { ok: true, tools: connection.tools, transport: connection.transport };
    } catch (error) {
      this.forget(server.id);
      return { ok: false, ...failureOf(server, error) };
    }
  }

  /** Calls a tool; a server that no longer offers it says so by name. */
  async call(server: McpServer, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolOutcome> {
    let connection: Connection;
    try {
      connection = await stoppable(this.connection(server), signal);
      connection.tools ??= await this.readTools(connection, signal);
    } catch (error) {
      this.forget(server.id);
      return { ok: false, ...failureOf(server, error) };
    }
    if (!connection.tools.some((t) => t.name === tool)) return { ok: false, code: 'tool_gone', params: { address: server.url, name: tool } };
    try {
      // A slow tool that says it is progressing is given the time (the SDK's 60 s restart with each report).
      const result = await connection.client.callTool({ name: tool, arguments: args }, undefined, { ...(signal === undefined ? {} : { signal }), resetTimeoutOnProgress: true, timeout: CALL_TIMEOUT_MS });
      const text = contentText(result.content, result.structuredContent);
      if (result.isError === true) return { ok: false, code: 'tool_error', params: { detail: text.slice(0, 500) } };
      return { ok: true, text };
    } catch (error) {
      if (signal?.aborted === true) throw error;
      const problem = failureOf(server, error);
      // Its tokens are gone (a refresh refused): this connection cannot go on without a sign-in.
      if (problem.code === 'sign_in_needed') this.forget(server.id);
      return { ok: false, ...problem };
    }
  }

  /** Drops a server's connection (removed, its address or token changed). */
  forget(serverId: string): void {
    const held = this.open.get(serverId);
    this.open.delete(serverId);
    void held?.then((c) => c.client.close()).catch(() => undefined);
  }

  private connection(server: McpServer): Promise<Connection> {
    const fingerprint = `${server.url}\n${server.auth}\n${server.token ?? ''}`;
    const held = this.open.get(server.id);
    if (held !== undefined) {
      return held.then((c) => {
        if (c.fingerprint === fingerprint) return c;
        this.forget(server.id);
        return this.connection(server);
      });
    }
    const opening = this.connect(server, fingerprint);
    this.open.set(server.id, opening);
    opening.catch(() => {
      if (this.open.get(server.id) === opening) this.open.delete(server.id);
    });
    return opening;
  }

  /**
   * Opens a connection, within CONNECT_TIMEOUT_MS (a server that never answers, or never sends
   * the SSE transport's endpoint, is given up and closed, not kept waiting for).
   */
  private async connect(server: McpServer, fingerprint: string): Promise<Connection> {
    const deadline = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
    const clients: Client[] = [];
    try {
      return await stoppable(this.establish(server, fingerprint, clients, deadline), deadline);
    } catch (error) {
      for (const client of clients) void client.close().catch(() => undefined);
      throw deadline.aborted ? new McpTimeout() : error;
    }
  }

  private async establish(server: McpServer, fingerprint: string, clients: Client[], deadline: AbortSignal): Promise<Connection> {
    const url = new URL(server.url);
    const headers: Record<string, string> = server.auth === 'bearer' && server.token !== undefined && server.token !== '' ? { Authorization: `Bearer ${server.token}` } : {};
    const requestInit: RequestInit = { headers };
    // An OAuth server: its saved tokens (refreshed by the SDK when they expire); without them, a sign-in is needed.
    const authProvider = server.auth === 'oauth' && this.oauth !== undefined ? new StoredOAuth(server, this.oauth) : undefined;
    const fresh = (): Client => {
      const client = new Client(CLIENT_INFO, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
      clients.push(client);
      return client;
    };
    const options = { signal: deadline, timeout: CONNECT_TIMEOUT_MS };
    let client = fresh();
    try {
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit, fetch: this.fetcher, ...(authProvider === undefined ? {} : { authProvider }) }), options);
      return this.watch({ fingerprint, client, transport: 'streamable-http' });
    } catch (error) {
      // The older transport: a server that answers Streamable HTTP's POST with 404/405 (or 400) may speak SSE.
      if (!(error instanceof StreamableHTTPError) || ![400, 404, 405].includes(error.code ?? 0)) throw error;
      await client.close().catch(() => undefined);
      client = fresh();
      await client.connect(new SSEClientTransport(url, { requestInit, fetch: this.fetcher, eventSourceInit: { fetch: (input, init) => this.fetcher(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...headers } }) } }), options);
      return this.watch({ fingerprint, client, transport: 'sse' });
    }
  }

  private watch(connection: Connection): Connection {
    connection.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      connection.tools = undefined;
    });
    return connection;
  }

  private async readTools(connection: Connection, signal?: AbortSignal): Promise<McpTool[]> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    // Every page of the list (servers page long lists), at most 20 pages.
    for (let page = 0; page < 20; page++) {
      const result = await connection.client.listTools(cursor === undefined ? {} : { cursor }, signal === undefined ? {} : { signal });
      for (const raw of result.tools) {
        const parsed = ToolWire.safeParse(raw);
        if (!parsed.success) continue;
        tools.push({ name: parsed.data.name, description: parsed.data.description ?? '', inputSchema: parsed.data.inputSchema ?? { type: 'object', properties: {} } });
      }
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    return tools;
  }
}

/** A call's content as text: text parts as they are, a resource's text or address, other kinds named. */
export function contentText(content: unknown, structured?: unknown): string {
  const parsed = ContentWire.safeParse(content);
  const parts = parsed.success ? parsed.data.map((part) => {
    if (part.type === 'text') return part.text ?? '';
    if (part.type === 'resource') return part.resource?.text ?? `[resource ${part.resource?.uri ?? ''}]`;
    if (part.type === 'resource_link') return `[resource ${part.name ?? ''} ${part.uri ?? ''}]`;
    return `[${part.type}${part.mimeType === undefined ? '' : ` ${part.mimeType}`}]`;
  }) : [];
  const text = parts.join('\n');
  if (text === '' && structured !== undefined) return JSON.stringify(structured);
  return text;
}

/**
 * What went wrong with a server. An OAuth server the SDK's flow could get no good token for (none
 * saved, or its refresh refused) wants the user to sign in: named by its origin only.
 */
function failureOf(server: McpServer, error: unknown): McpProblem {
  if (server.auth === 'oauth' && error instanceof UnauthorizedError) return { code: 'sign_in_needed', params: { address: originOf(server.url) } };
  return problemOf(error, server.url);
}


/** What went wrong, with the server's address. */
export function problemOf(error: unknown, address: string): McpProblem {
  if (error instanceof McpTimeout) return { code: 'unreachable', params: { address, detail: `no answer in ${CONNECT_TIMEOUT_MS / 1000} s` } };
  // The server's own refusal of a request (JSON-RPC error: a negative code), not a connection's failure.
  const rpc = (error as { code?: unknown } | null)?.code;
  if (typeof rpc === 'number' && rpc < 0) return { code: 'tool_error', params: { detail: (error instanceof Error ? error.message : String(error)).slice(0, 500) } };
  if (error instanceof UnauthorizedError) return { code: 'unauthorized', params: { address, status: 401 } };
  if (error instanceof StreamableHTTPError) {
    const status = error.code ?? 0;
    if (status === 401 || status === 403) return { code: 'unauthorized', params: { address, status } };
    if (status > 0) return { code: 'http_status', params: { address, status } };
    return { code: 'bad_answer', params: { address } };
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number' && (code === 401 || code === 403)) return { code: 'unauthorized', params: { address, status: code } };
  if (typeof code === 'number' && code >= 400 && code < 600) return { code: 'http_status', params: { address, status: code } };
  if (error instanceof TypeError) return { code: 'unreachable', params: { address, detail: error.message } };
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'unreachable', params: { address, detail: detail.slice(0, 200) } };
}

/**
 * A real MCP server for the tests, built with the SDK's own server classes (McpServer, the
 * Streamable HTTP transport with sessions, and the older SSE transport), on 127.0.0.1. Its tools
 * are small and deterministic; it counts every call it ran, so a test can tell that nothing ran
 * without the user's click. Options: a bearer token it requires, SSE only, OAuth 2.1 (tests/mcp/oauth.ts:
 * short-lived access tokens and refresh tokens if asked), and changing its tools while it runs
 * (`addTool`, `removeTool`: the server tells its clients the list changed).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import express from 'express';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { TestOAuthProvider, type OAuthLogEntry, type TestOAuthOptions } from './oauth';

export interface TestMcpOptions {
  /** Requests without `Authorization: Bearer <token>` get 401. */
  token?: string;
  /** Serves only the older SSE transport (`GET /mcp` opens the stream, posts go to `/messages`). */
  sseOnly?: boolean;
  /**
   * Asks for OAuth 2.1: the SDK's own authorization server (its router, with a provider that signs
   * the user in at once) on the same origin, and its bearer check on `/mcp`. `true`: access tokens
   * for an hour and no refresh tokens (like the SDK's demo provider); or how long they live and
   * whether refresh tokens come with them.
   */
  oauth?: boolean | TestOAuthOptions;
  name?: string;
}

export interface ToolRun {
  tool: string;
  args: Record<string, unknown>;
}

export interface TestMcpServer {
  /** The address a client connects to. */
  url: string;
  /** Every tool call the server ran, in order. */
  runs: ToolRun[];
  /** The calls a client cancelled while they ran (Stop). */
  cancelled: string[];
  /** Headers of every request, in order (tests check which credentials arrived). */
  authorizations: (string | undefined)[];
  /** With `oauth`: its authorization server's log, and the clock of its access tokens. */
  oauth?: {
    log: OAuthLogEntry[];
    /** As if every access token's lifetime had passed. */
    expireAccessTokens(): void;
  };
  addTool(name: string, description: string, answer: string): void;
  removeTool(name: string): void;
  close(): Promise<void>;
}

export async function startTestMcpServer(options: TestMcpOptions = {}): Promise<TestMcpServer> {
  const runs: ToolRun[] = [];
  const cancelled: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const extra = new Map<string, { description: string; answer: string }>();
  const servers = new Set<McpServer>();

  const build = (): McpServer => {
    const server = new McpServer({ name: options.name ?? 'notes', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool('add', { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
      runs.push({ tool: 'add', args: { a, b } });
      return { content: [{ type: 'text', text: `${a} + ${b} = ${a + b}` }] };
    });
    server.registerTool('delete_note', { description: 'Delete a note for good.', inputSchema: { id: z.string() } }, async ({ id }) => {
      runs.push({ tool: 'delete_note', args: { id } });
      return { content: [{ type: 'text', text: `Deleted note ${id}.` }] };
    });
    server.registerTool('slow', { description: 'Takes half a minute, unless cancelled.', inputSchema: {} }, async (_args, extra) => {
      runs.push({ tool: 'slow', args: {} });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 30_000);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          cancelled.push('slow');
          resolve();
        });
      });
      return { content: [{ type: 'text', text: 'finally done' }] };
    });
    server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => {
      runs.push({ tool: 'fail', args: {} });
      return { isError: true, content: [{ type: 'text', text: 'The disk is full.' }] };
    });
    const registered = new Map<string, RegisteredTool>();
    for (const [name, tool] of extra) {
      registered.set(name, server.registerTool(name, { description: tool.description, inputSchema: {} }, async () => {
        runs.push({ tool: name, args: {} });
        return { content: [{ type: 'text', text: tool.answer }] };
      }));
    }
    servers.add(server);
    return server;
  };

  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();

  const readBody = async (req: IncomingMessage): Promise<unknown> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    return text === '' ? undefined : JSON.parse(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    authorizations.push(req.headers.authorization);
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (options.sseOnly === true) {
      if (req.method === 'GET' && url.pathname === '/mcp') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        await build().connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = sse.get(url.searchParams.get('sessionId') ?? '');
        if (transport === undefined) {
          res.writeHead(404).end();
          return;
        }
        await transport.handlePostMessage(req, res, await readBody(req));
        return;
      }
      res.writeHead(url.pathname === '/mcp' ? 405 : 404).end();
      return;
    }
    if (url.pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (transport === undefined) {
      if (req.method !== 'POST') {
        res.writeHead(400).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, transport!);
        },
      });
      transport.onclose = () => {
        if (transport!.sessionId !== undefined) sessions.delete(transport!.sessionId);
      };
      await build().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  };

  const served = (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  };
  let dispatch: (req: IncomingMessage, res: ServerResponse) => void = served;
  const http = createServer((req, res) => dispatch(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  let provider: TestOAuthProvider | undefined;
  if (options.oauth !== undefined && options.oauth !== false) {
    const base = new URL(`http://127.0.0.1:${port}`);
    const resource = new URL('/mcp', base);
    provider = new TestOAuthProvider(options.oauth === true ? {} : options.oauth);
    const app = express();
    app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: resource, scopesSupported: ['mcp:tools'] }));
    app.all('/mcp', requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resource) }), (req, res) => served(req, res));
    dispatch = app;
  }

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    runs,
    cancelled,
    authorizations,
    ...(provider === undefined ? {} : { oauth: { log: provider.log, expireAccessTokens: () => provider.expireAccessTokens() } }),
    addTool(name, description, answer) {
      extra.set(name, { description, answer });
      for (const server of servers) {
        server.registerTool(name, { description, inputSchema: {} }, async () => {
          runs.push({ tool: name, args: {} });
          return { content: [{ type: 'text', text: answer }] };
        });
      }
    },
    removeTool(name) {
      extra.delete(name);
      for (const server of servers) {
        // McpServer keeps its tools by name; removing one tells the clients the list changed.
        const tools = (server as unknown as { _registeredTools: Record<string, RegisteredTool> })._registeredTools;
        tools[name]?.remove();
      }
    },
    async close() {
      for (const transport of sessions.values()) await transport.close().catch(() => undefined);
      for (const transport of sse.values()) await transport.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

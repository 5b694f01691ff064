/**
 * The background's side of the protocol, framework-free: requests in, responses out, a
 * `runs` port that relays a conversation's run events, and the port on which connection forms
 * hold host access. The entrypoint only wires `browser.runtime` to these, for the senders
 * `fromOwnPage` (./senders.ts) accepts.
 */
import { RunError, type RunManager } from '../runs/run-manager';
import type { AccessKeeper } from '../settings/access-keeper';
import { AccessHoldSchema, PortRequestSchema, RequestSchema, type McpListingMessage, type ResponseFor, type Request } from './messages';

/** What the background adds to the runs (reading pages needs the browser: an adapter passes it). */
export interface RequestExtras {
  askPage?(input: Extract<Request, { type: 'page.ask' }>['input']): Promise<{ conversationId: string; messageId: string }>;
  /** An MCP server's tools, for the options page (lib/tools/mcp.ts). */
  listTools?(serverId: string, fresh: boolean): Promise<McpListingMessage>;
  /** Signs in to an OAuth MCP server, then lists its tools. */
  signInTools?(serverId: string): Promise<McpListingMessage>;
  /** "Sync now" (lib/sync/service.ts). */
  syncNow?(): void;
  syncLeave?(): Promise<void>;
}

export async function handleRequest(runs: RunManager, raw: unknown, extras: RequestExtras = {}): Promise<ResponseFor<Request['type']>> {
  const parsed = RequestSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: 'protocol' };
  const request = parsed.data;
  try {
    switch (request.type) {
      case 'run.start':
        return { ok: true, ...(await runs.start(request.input)) };
      case 'page.ask':
        if (extras.askPage === undefined) return { ok: false, problem: 'internal' };
        return { ok: true, ...(await extras.askPage(request.input)) };
      case 'run.compare':
        return { ok: true, ...(await runs.compare(request.input)) };
      case 'run.retry':
        return { ok: true, ...(await runs.retry(request.messageId, { model: request.model, switchProfileId: request.switchProfileId, replyMessageId: request.replyMessageId })) };
      case 'run.edit':
        return { ok: true, ...(await runs.edit(request)) };
      case 'run.stop':
        return { ok: true, stopped: runs.stop(request.messageId) };
      case 'run.tool':
        return { ok: true, decided: runs.decide(request.messageId, request.callId, request.decision) };
      case 'conversation.stop':
        return { ok: true, stopped: await runs.stopConversation(request.conversationId) };
      case 'tools.list':
        if (extras.listTools === undefined) return { ok: false, problem: 'internal' };
        return { ok: true, listing: await extras.listTools(request.serverId, request.fresh === true) };
      case 'tools.signIn':
        if (extras.signInTools === undefined) return { ok: false, problem: 'internal' };
        return { ok: true, listing: await extras.signInTools(request.serverId) };
      case 'sync.now':
        if (extras.syncNow === undefined) return { ok: false, problem: 'internal' };
        extras.syncNow();
        return { ok: true };
      case 'sync.leave':
        if (extras.syncLeave === undefined) return { ok: false, problem: 'internal' };
        await extras.syncLeave();
        return { ok: true };
    }
  } catch (error) {
    if (error instanceof RunError) return { ok: false, problem: error.problem, params: error.params };
    return { ok: false, problem: 'internal', detail: error instanceof Error ? error.message : String(error) };
  }
}

/** The part of a runtime port this needs (browser.runtime.Port has it). */
export interface PortLike {
  postMessage(message: unknown): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export function serveRunsPort(runs: RunManager, port: PortLike): void {
  const watches = new Map<string, () => void>();
  port.onMessage.addListener((raw) => {
    const parsed = PortRequestSchema.safeParse(raw);
    if (!parsed.success) return;
    const { type, conversationId } = parsed.data;
    watches.get(conversationId)?.();
    watches.delete(conversationId);
    if (type === 'watch') {
      watches.set(conversationId, runs.watch(conversationId, (event) => {
        try {
          port.postMessage(event);
        } catch {
          // The page went away between two events; onDisconnect cleans up.
        }
      }));
    }
  });
  port.onDisconnect.addListener(() => {
    for (const unwatch of watches.values()) unwatch();
    watches.clear();
  });
}

/** A connection form's hold on the address it is working on: one per port, given up when the port closes. */
export function serveAccessPort(keeper: Pick<AccessKeeper, 'hold'>, port: PortLike): void {
  let letGo: (() => void) | undefined;
  port.onMessage.addListener((raw) => {
    const parsed = AccessHoldSchema.safeParse(raw);
    if (!parsed.success) return;
    const previous = letGo;
    letGo = keeper.hold(parsed.data.baseUrl);
    previous?.();
  });
  port.onDisconnect.addListener(() => {
    letGo?.();
    letGo = undefined;
  });
}

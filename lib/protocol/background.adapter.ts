/**
 * The pages' side of the protocol: a typed request to the background, and a watch on a
 * conversation's runs over a port. Thin: all it adds to `browser.runtime` is parsing.
 */
import { browser } from 'wxt/browser';
import type { RunEvent } from '../runs/run-manager';
import { ACCESS_PORT, RESPONSES, RUNS_PORT, RunEventSchema, type AccessHold, type PortRequest, type Request, type ResponseFor } from './messages';

export async function askBackground<R extends Request>(request: R): Promise<ResponseFor<R['type']>> {
  let raw: unknown;
  try {
    raw = await browser.runtime.sendMessage(request);
  } catch (error) {
    return { ok: false, problem: 'background', detail: error instanceof Error ? error.message : String(error) } as ResponseFor<R['type']>;
  }
  const parsed = RESPONSES[request.type].safeParse(raw);
  if (!parsed.success) {
    return { ok: false, problem: 'protocol' } as ResponseFor<R['type']>;
  }
  return parsed.data as ResponseFor<R['type']>;
}

/**
 * Watches a conversation's runs; the port reconnects if the background restarts. A lost
 * connection means the runs it was relaying are gone with the old worker: `onLost` says so.
 */
export function watchRuns(conversationId: string, onEvent: (event: RunEvent) => void, onLost: () => void = () => undefined): () => void {
  // The parser sets itself up on its first use of each kind of event: do that now, not when a
  // reply's first words arrive.
  RunEventSchema.safeParse({ type: 'delta', conversationId, messageId: '', text: '', reasoning: '' });
  let closed = false;
  let port: ReturnType<typeof browser.runtime.connect> | undefined;
  const connect = (): void => {
    port = browser.runtime.connect({ name: RUNS_PORT });
    port.onMessage.addListener((message: unknown) => {
      const parsed = RunEventSchema.safeParse(message);
      if (parsed.success) onEvent(parsed.data as RunEvent);
    });
    port.onDisconnect.addListener(() => {
      port = undefined;
      if (closed) return;
      onLost();
      setTimeout(connect, 250);
    });
    const watch: PortRequest = { type: 'watch', conversationId };
    port.postMessage(watch);
  };
  connect();
  return () => {
    closed = true;
    port?.disconnect();
  };
}

/** A connection form's hold on host access to the address it works on (see ACCESS_PORT). */
export interface AccessHolder {
  /** Keeps access to `baseUrl`'s origin from being given back while the form works on it (call before asking for it). */
  hold(baseUrl: string): void;
  /** Lets go: the background gives the access back unless a saved profile uses that origin. */
  release(): void;
}

export function gatewayAccessHolder(): AccessHolder {
  let held: string | undefined;
  let port: ReturnType<typeof browser.runtime.connect> | undefined;
  const tell = (to: NonNullable<typeof port>, baseUrl: string): void => {
    const message: AccessHold = { type: 'hold', baseUrl };
    to.postMessage(message);
  };
  const connect = (): void => {
    try {
      port = browser.runtime.connect({ name: ACCESS_PORT });
    } catch {
      // No background to tell (the extension is being reloaded): nothing it could give back either.
      return;
    }
    const mine = port;
    mine.onDisconnect.addListener(() => {
      if (port !== mine) return;
      port = undefined;
      // The worker stopped (Chrome stops an idle one): a new one must learn of the hold again.
      setTimeout(() => {
        if (held !== undefined && port === undefined) connect();
      }, 250);
    });
    if (held !== undefined) tell(mine, held);
  };
  return {
    hold(baseUrl) {
      held = baseUrl;
      if (port === undefined) return connect();
      try {
        tell(port, baseUrl);
      } catch {
        port = undefined;
        connect();
      }
    },
    release() {
      held = undefined;
      const open = port;
      port = undefined;
      open?.disconnect();
    },
  };
}

/**
 * The pages' side of the protocol: a typed request to the background, and a watch on a
 * conversation's runs over a port. Thin: all it adds to `browser.runtime` is parsing.
 */
import { browser } from 'wxt/browser';
import type { RunEvent } from '../runs/run-manager';
import { RESPONSES, RUNS_PORT, RunEventSchema, type PortRequest, type Request, type ResponseFor } from './messages';

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

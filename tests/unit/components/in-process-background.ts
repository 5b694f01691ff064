/**
 * The pages' side of the protocol (lib/protocol/background.adapter.ts) answered in the test's
 * own process by a real run manager and the real request handler: for `vi.mock`, as
 * `vi.mock('@/lib/protocol/background.adapter', () => inProcessBackground(background))`.
 * Run events arrive as a port delivers them: later, and copied.
 */
import { handleRequest } from '@/lib/protocol/handlers';
import type { Request } from '@/lib/protocol/messages';
import type { RunEvent, RunManager } from '@/lib/runs/run-manager';

export function inProcessBackground(background: { runs: RunManager | undefined }) {
  return {
    askBackground: (request: Request) => handleRequest(background.runs!, request),
    watchRuns: (conversationId: string, onEvent: (event: RunEvent) => void) => background.runs!.watch(conversationId, (event) => {
      const copy = structuredClone(event);
      setTimeout(() => onEvent(copy), 0);
    }),
  };
}

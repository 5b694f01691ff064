/**
 * The page's side of tools: the user's answer on a card, to the background that runs the reply;
 * "Allow once" on "Fetch a web page" first asks the browser for access to that page's origin (it
 * must be asked in the click itself).
 */
import { askBackground } from '@/lib/protocol/background.adapter';
import { requestGatewayAccess } from '@/lib/settings/permissions.adapter';
import type { ToolCallRecord, ToolDecision } from '@/lib/tools/types';
import { BUILTIN_SOURCE, pageAddress } from '@/lib/tools/types';

/** The address a call will fetch (Fetch a web page), when it names a valid one. */
export function fetchedAddress(call: ToolCallRecord): string | undefined {
  if (call.source !== BUILTIN_SOURCE || call.tool !== 'fetch_page') return undefined;
  try {
    return pageAddress((JSON.parse(call.arguments) as { url?: unknown }).url);
  } catch {
    return undefined;
  }
}

export type DecideResult = 'decided' | 'gone' | { accessDenied: string };

/** Must be called first thing in the click handler (the browser's access prompt needs the gesture). */
export async function decideTool(messageId: string, call: ToolCallRecord, decision: ToolDecision): Promise<DecideResult> {
  const address = decision === 'deny' ? undefined : fetchedAddress(call);
  if (address !== undefined && !(await requestGatewayAccess(address))) return { accessDenied: new URL(address).origin };
  const answer = await askBackground({ type: 'run.tool', messageId, callId: call.id, decision });
  return answer.ok && answer.decided ? 'decided' : 'gone';
}

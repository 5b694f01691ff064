/** The words of tools: a call's name and server, its failure, as the UI says them. */
import type { Words } from '@/lib/i18n/messages';
import { BUILTIN_SOURCE, BUILTIN_TOOLS, TOOL_CALL_STATUSES, TOOL_FAILURES, type BuiltinTool, type ToolCallRecord, type ToolCallStatus, type ToolFailure } from '@/lib/tools/types';

const isBuiltin = (tool: string): tool is BuiltinTool => (BUILTIN_TOOLS as readonly string[]).includes(tool);
const isFailure = (code: unknown): code is ToolFailure => typeof code === 'string' && (TOOL_FAILURES as readonly string[]).includes(code);

/** A tool as the user knows it: ours by our words for it, an MCP server's by its own name. */
export function toolName(w: Words, call: Pick<ToolCallRecord, 'source' | 'tool'>): string {
  return call.source === BUILTIN_SOURCE && isBuiltin(call.tool) ? w.t(`tools.names.${call.tool}`) : call.tool;
}

/** Where a tool runs: "Built in", or its server (by the name the user gave it, else its host). */
export function toolServer(w: Words, call: Pick<ToolCallRecord, 'source' | 'address' | 'server'>): string {
  // A built-in tool's address is the page it acts on ("Read this page"): its host.
  if (call.source === BUILTIN_SOURCE && call.address !== undefined) return hostOf(call.address);
  if (call.source === BUILTIN_SOURCE || call.address === undefined) return w.t('tools.card.builtin');
  if (call.server !== undefined && call.server !== '') return call.server;
  return hostOf(call.address);
}

function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return address;
  }
}

export function toolFailureText(w: Words, error: { code: unknown; params?: Record<string, string | number> }): string {
  const code = isFailure(error.code) ? error.code : 'internal';
  const params = { address: '', detail: '', status: '', name: '', field: '', reason: '', to: '', ...error.params };
  return w.t(`tools.failure.${code}`, params);
}

/** Each state of a call in words. */
export function toolStatusWords(w: Words): Record<ToolCallStatus, string> {
  return Object.fromEntries(TOOL_CALL_STATUSES.map((s) => [s, w.t(`tools.card.status.${s}`)])) as Record<ToolCallStatus, string>;
}

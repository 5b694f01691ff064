/**
 * Tools (issue 33): what a model may call, what a call is once made, and how the user's choice
 * about it is kept. A call is saved on its reply (`ToolCallRecord`) with codes, never sentences;
 * its result is the text the model was sent.
 */
import * as z from 'zod/mini';

/** Where a tool comes from: one of ours, or an MCP server (by its id in the tool config). */
export const BUILTIN_SOURCE = 'builtin';

/** Our own tools, by the name the model sees. */
export const BUILTIN_TOOLS = ['read_page', 'fetch_page', 'web_search'] as const;
export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

export const TOOL_CALL_STATUSES = [
  /** Waiting for the user's "Allow once", "Always allow this tool" or "Deny". */
  'waiting',
  'running',
  'done',
  'failed',
  /** The user said "Deny": the model was told so. */
  'denied',
  /** Stop, or the run ended, before it ran or while it ran. */
  'stopped',
] as const;
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];

/** Why a call failed, as a code the UI words (`params` say which address, which status). */
export const TOOL_FAILURES = [
  /** The model named a tool that was not offered: `params.name`. */
  'unknown_tool',
  /** The arguments are not a JSON object, or lack what the tool needs: `params.field`. */
  'bad_arguments',
  /** The server could not be reached: `params.address`, `params.detail`. */
  'unreachable',
  /** The server refused the token (401/403): `params.address`, `params.status`. */
  'unauthorized',
  /** The server wants the user to sign in (OAuth), or the sign-in expired: `params.address`. */
  'sign_in_needed',
  /** The server answered with an error status: `params.address`, `params.status`. */
  'http_status',
  /** The tool itself said it failed (MCP `isError`, a search provider's error). */
  'tool_error',
  /** The server no longer offers this tool (its list changed): `params.address`, `params.name`. */
  'tool_gone',
  /** No host access to the address: `params.address`. */
  'no_access',
  /** A page that cannot be read (a browser page, a PDF viewer, …): `params.reason`. */
  'page_unreadable',
  /** Web search has no provider set up in the options page's "Tools" section. */
  'no_search_provider',
  /** The page sent the fetch to another origin (`params.to`): not followed there. */
  'redirected',
  /** The answer was not what the tool should give: `params.address`. */
  'bad_answer',
  /** Anything else: `params.detail` holds the platform's words. */
  'internal',
] as const;
export type ToolFailure = (typeof TOOL_FAILURES)[number];

const ParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

export const ToolSourceSchema = z.object({ title: z.string(), url: z.string() });
export type ToolSource = z.infer<typeof ToolSourceSchema>;

/** One tool call, as its reply keeps it. */
export const ToolCallRecordSchema = z.object({
  /** The call's id as the model gave it (sent back with the result). */
  id: z.string(),
  /** The name the model called. */
  name: z.string(),
  /** The tool's own name, and where it is: BUILTIN_SOURCE or an MCP server's id. */
  tool: z.string(),
  source: z.string(),
  /** The server's address and the name the user gave it (an MCP tool), shown on the card. */
  address: z.optional(z.string()),
  server: z.optional(z.string()),
  /** The arguments' JSON text, as the model wrote it. */
  arguments: z.string(),
  // A status a later build added reads as stopped (never as waiting forever).
  status: z.catch(z.enum(TOOL_CALL_STATUSES), 'stopped'),
  /** What the tool gave (the text the model was sent, quoted as data there). */
  result: z.optional(z.string()),
  /** Whether `result` was cut to fit: its length before. */
  cutFrom: z.optional(z.number()),
  error: z.optional(z.object({ code: z.catch(z.enum(TOOL_FAILURES), 'internal'), params: z._default(ParamsSchema, {}) })),
  /** Where the result came from (web search): shown as numbered citations. */
  sources: z.optional(z.array(ToolSourceSchema)),
  /** The model's turn it belongs to (1: the first reply's calls), and where that turn's text ended in the reply's text. */
  step: z.number(),
  at: z.number(),
  /** The user allowed it by "Always allow this tool" (or the options page), not on its card. */
  preAllowed: z.optional(z.boolean()),
  /** Asked for past the reply's step cap: it waited for the user whatever was always allowed. */
  pastCap: z.optional(z.boolean()),
  /** The interface's signature of the call (Gemini's `thoughtSignature`), sent back with it. */
  signature: z.optional(z.string()),
  /**
   * On a step's first call: that step's thinking, sent back with the step on every later request:
   * signed by the interface (Anthropic's thinking blocks must keep their signature), or as
   * `reasoning_content` on Chat Completions (DeepSeek and Kimi answer 400 without it).
   */
  thinking: z.optional(z.object({ text: z.string(), signature: z.optional(z.string()) })),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** A tool offered to a model on a run. */
export interface ToolDefinition {
  /** The name the model sees: unique on the run, `^[A-Za-z0-9_-]{1,64}$`. */
  name: string;
  tool: string;
  source: string;
  /** An MCP server's address, and the name the user gave it. */
  address?: string;
  server?: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What running a tool gave. */
export type ToolOutcome =
  | { ok: true; text: string; sources?: ToolSource[] }
  | { ok: false; code: ToolFailure; params?: Record<string, string | number> };

/** The user's answer on a tool card. */
export const TOOL_DECISIONS = ['once', 'always', 'deny'] as const;
export type ToolDecision = (typeof TOOL_DECISIONS)[number];

/** The longest tool output kept and sent (characters); longer is cut, and the model told. */
export const MAX_TOOL_OUTPUT = 60_000;

/** How a tool is switched on and off in the "Tools" menu: a built-in by its name, an MCP server as a whole. */
export function toolSwitch(source: string, tool: string): string {
  return source === BUILTIN_SOURCE ? tool : `mcp:${source}`;
}

/** A web page's address (http or https), normalised; undefined for anything else (a script, a local file, not an address). */
export function pageAddress(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** An address's origin only, as tool records and problems keep it (a hosted server's path may hold a secret); '' for what is not an address. */
export function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return '';
  }
}

/** How a tool is named in "Always allow" lists: its source and its own name. */
export function toolKey(source: string, tool: string): string {
  return `${source}:${tool}`;
}

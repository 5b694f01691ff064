/**
 * The one protocol between extension parts. Pages send requests to the background with
 * `runtime.sendMessage` and watch conversations over a `runs` port. Both sides parse what
 * they receive with these schemas; the background answers only the extension's own pages
 * (`./senders.ts`).
 */
import * as z from 'zod/mini';
import { STORE_PROBLEMS } from '../conversations/problems';
import { ImageOptionsSchema } from '../images/types';
import { AttachedFileSchema } from '../files/types';
import { MESSAGE_STATUSES, MessageSchema, NoticeSchema, SURFACES, StoredErrorSchema, StoredUsageSchema } from '../conversations/records';
import { TOOL_DECISIONS, TOOL_FAILURES, ToolCallRecordSchema } from '../tools/types';

export const RUNS_PORT = 'runs';

/**
 * A connection form keeps host access to the address it is working on over this port: the
 * background gives nothing back that a form holds, and reconciles when the port closes (the
 * form saved, moved to another origin, or went away with its page).
 */
export const ACCESS_PORT = 'gateway-access';
export const AccessHoldSchema = z.object({ type: z.literal('hold'), baseUrl: z.string() });
export type AccessHold = z.infer<typeof AccessHoldSchema>;

const StartRunInputSchema = z.object({
  surface: z.enum(SURFACES),
  conversationId: z.optional(z.string()),
  profileId: z.optional(z.string()),
  switchProfileId: z.optional(z.string()),
  model: z.optional(z.string()),
  text: z.string(),
  images: z.optional(z.array(z.string())),
  /** Attached files, read in the page (their text; lib/files/). */
  files: z.optional(z.array(AttachedFileSchema)),
  newConversationId: z.optional(z.string()),
  /** The tab beside the popup or side panel: "Read this page" reads it. */
  tabId: z.optional(z.number()),
  /** For a new conversation: the tools switched off in its "Tools" menu before it started. */
  toolsOff: z.optional(z.array(z.string())),
  presetId: z.optional(z.string()),
  userMessageId: z.optional(z.string()),
  replyMessageId: z.optional(z.string()),
  title: z.optional(z.string()),
  source: z.optional(z.object({ title: z.string(), url: z.string() })),
  notice: z.optional(NoticeSchema),
  /**
   * Ask an image model for images (`/images/generations`), or to edit the attached `images` or
   * the stored image `editOf` (`/images/edits`): `text` is the prompt.
   */
  image: z.optional(z.object({ options: ImageOptionsSchema, editOf: z.optional(z.string()) })),
});

// A comparison is of chat replies: no image request.
const { model: _model, replyMessageId: _reply, image: _image, ...compareShape } = StartRunInputSchema.shape;
const CompareInputSchema = z.object({ ...compareShape, models: z.array(z.string()), replyMessageIds: z.optional(z.array(z.string())) });

export const RequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run.start'), input: StartRunInputSchema }),
  /** Read the page in a tab (on the user's gesture) and start a conversation about it. */
  z.object({
    type: z.literal('page.ask'),
    input: z.object({ surface: z.enum(SURFACES), tabId: z.optional(z.number()), question: z.string(), conversationId: z.string(), profileId: z.optional(z.string()), model: z.optional(z.string()), actionId: z.optional(z.string()) }),
  }),
  /** One question to several models at once (2–4), their replies side by side. */
  z.object({ type: z.literal('run.compare'), input: CompareInputSchema }),
  /** `model`: ask again with another model (after "model does not exist", say). */
  z.object({ type: z.literal('run.retry'), messageId: z.string(), model: z.optional(z.string()), switchProfileId: z.optional(z.string()), replyMessageId: z.optional(z.string()) }),
  /** Edit and resend a user message: a new version of it, with its own reply. */
  z.object({
    type: z.literal('run.edit'), messageId: z.string(), text: z.string(), model: z.optional(z.string()), switchProfileId: z.optional(z.string()),
    userMessageId: z.optional(z.string()), replyMessageId: z.optional(z.string()),
  }),
  z.object({ type: z.literal('run.stop'), messageId: z.string() }),
  /** "Allow once", "Always allow this tool" or "Deny" on a tool card of a running reply. */
  z.object({ type: z.literal('run.tool'), messageId: z.string(), callId: z.string(), decision: z.enum(TOOL_DECISIONS) }),
  /** Stop a conversation's run and answer once its end is saved (before deleting it). */
  z.object({ type: z.literal('conversation.stop'), conversationId: z.string() }),
  /** An MCP server's tools (the options page): `fresh` drops the connection first ("Connect again"). */
  z.object({ type: z.literal('tools.list'), serverId: z.string(), fresh: z.optional(z.boolean()) }),
  /** "Sign in" to an OAuth MCP server (its sign-in window), then its tools. */
  z.object({ type: z.literal('tools.signIn'), serverId: z.string() }),
  /** "Sync now" (issue 31); the status follows in storage (lib/sync/sync.adapter.ts). */
  z.object({ type: z.literal('sync.now') }),
  /** "Stop syncing on this device": the background says so on the server first; answers once it has tried. */
  z.object({ type: z.literal('sync.leave') }),
]);
export type Request = z.infer<typeof RequestSchema>;

const Refusal = z.object({
  ok: z.literal(false),
  /** A code (RunProblem, or `background` / `protocol` / `internal`): the page words it. */
  problem: z.string(),
  /** The platform's own error text, when there is one (shown verbatim, never our words). */
  detail: z.optional(z.string()),
  /** The problem's numbers (a limit, a time to wait), for the UI's words. */
  params: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
});

export const RunStartedSchema = z.union([
  z.object({ ok: z.literal(true), conversationId: z.string(), messageId: z.string() }),
  Refusal,
]);
export type RunStarted = z.infer<typeof RunStartedSchema>;

export const CompareStartedSchema = z.union([
  z.object({ ok: z.literal(true), conversationId: z.string(), messageIds: z.array(z.string()) }),
  Refusal,
]);

export const StoppedSchema = z.union([z.object({ ok: z.literal(true), stopped: z.boolean() }), Refusal]);

export const AcceptedSchema = z.union([z.object({ ok: z.literal(true) }), Refusal]);

/** `decided`: false when the call no longer waits (answered already, or its reply ended). */
export const DecidedSchema = z.union([z.object({ ok: z.literal(true), decided: z.boolean() }), Refusal]);

export const McpListingSchema = z.union([
  z.object({ ok: z.literal(true), transport: z.enum(['streamable-http', 'sse']), tools: z.array(z.object({ name: z.string(), description: z.string() })) }),
  z.object({ ok: z.literal(false), code: z.enum(TOOL_FAILURES), params: z.record(z.string(), z.union([z.string(), z.number()])) }),
]);
export type McpListingMessage = z.infer<typeof McpListingSchema>;

export const ToolsListedSchema = z.union([z.object({ ok: z.literal(true), listing: McpListingSchema }), Refusal]);

/** The response schema of each request type. */
export const RESPONSES = {
  'run.start': RunStartedSchema,
  'run.compare': CompareStartedSchema,
  'page.ask': RunStartedSchema,
  'run.retry': RunStartedSchema,
  'run.edit': RunStartedSchema,
  'run.stop': StoppedSchema,
  'run.tool': DecidedSchema,
  'conversation.stop': StoppedSchema,
  'tools.list': ToolsListedSchema,
  'tools.signIn': ToolsListedSchema,
  'sync.now': AcceptedSchema,
  'sync.leave': AcceptedSchema,
} as const;
export type ResponseFor<T extends Request['type']> = z.infer<(typeof RESPONSES)[T]>;

export const PortRequestSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('watch'), conversationId: z.string() }),
  z.object({ type: z.literal('unwatch'), conversationId: z.string() }),
]);
export type PortRequest = z.infer<typeof PortRequestSchema>;

export const RunEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'), conversationId: z.string(), messageId: z.string(), text: z.string(), reasoning: z.string(),
    records: z.optional(z.array(MessageSchema)), toolCalls: z.optional(z.array(ToolCallRecordSchema)),
  }),
  /** The reply's tool calls, all of them as they stand (one came, waits for the user, ran, failed). */
  z.object({ type: z.literal('tools'), conversationId: z.string(), messageId: z.string(), toolCalls: z.array(ToolCallRecordSchema) }),
  z.object({ type: z.literal('delta'), conversationId: z.string(), messageId: z.string(), text: z.string(), reasoning: z.string() }),
  /** The reply's images changed (a partial image came, a final one replaced it, one was taken out of the text): their ids in the image store, in order. */
  z.object({ type: z.literal('images'), conversationId: z.string(), messageId: z.string(), imageIds: z.array(z.string()) }),
  z.object({
    type: z.literal('end'),
    conversationId: z.string(),
    messageId: z.string(),
    status: z.enum(MESSAGE_STATUSES),
    error: z.optional(StoredErrorSchema),
    usage: z.optional(StoredUsageSchema),
    finishReason: z.optional(z.string()),
    timing: z.optional(z.object({ firstTokenMs: z.optional(z.number()), durationMs: z.optional(z.number()) })),
    saveError: z.optional(z.object({ problem: z.enum(STORE_PROBLEMS), detail: z.optional(z.string()) })),
  }),
]);

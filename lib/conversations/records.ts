/**
 * The shapes of saved conversations and messages. IndexedDB is outside data too (another
 * version of the extension may have written it), so every record read is parsed with these.
 */
import * as z from 'zod/mini';
import { GATEWAY_ERROR_KINDS, redactSecrets, type GatewayError } from '../gateway/errors';
import type { Usage } from '../gateway';

export const SURFACES = ['popup', 'sidepanel', 'chat', 'action'] as const;
export type Surface = (typeof SURFACES)[number];

export const MESSAGE_STATUSES = ['complete', 'streaming', 'interrupted', 'stopped', 'error'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const StoredErrorSchema = z.object({
  kind: z.enum(GATEWAY_ERROR_KINDS),
  message: z.string(),
  url: z.string(),
  status: z.optional(z.number()),
  code: z.optional(z.string()),
  gatewayMessage: z.optional(z.string()),
  retryAfter: z.optional(z.number()),
  /** When a retry may be sent (epoch ms), from `retryAfter`: Retry waits until then. */
  retryAt: z.optional(z.number()),
  remedy: z.object({
    text: z.string(),
    links: z.array(z.object({ label: z.string(), url: z.string() })),
  }),
});
export type StoredError = z.infer<typeof StoredErrorSchema>;

export const StoredUsageSchema = z.object({
  promptTokens: z.optional(z.number()),
  completionTokens: z.optional(z.number()),
  totalTokens: z.optional(z.number()),
  reasoningTokens: z.optional(z.number()),
  cachedTokens: z.optional(z.number()),
  cost: z.optional(z.number()),
});
export type StoredUsage = z.infer<typeof StoredUsageSchema>;

export const ConversationSchema = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  profileId: z.string(),
  model: z.string(),
  surface: z.enum(SURFACES),
  source: z.optional(z.object({ title: z.string(), url: z.string() })),
  /** The status of its newest reply (streaming, interrupted, …), for the conversation list. */
  replyStatus: z.optional(z.enum(MESSAGE_STATUSES)),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** What a reply is, in each of its versions. */
const ReplyFields = {
  text: z.string(),
  reasoning: z._default(z.string(), ''),
  status: z.enum(MESSAGE_STATUSES),
  model: z.optional(z.string()),
  error: z.optional(StoredErrorSchema),
  usage: z.optional(StoredUsageSchema),
  finishReason: z.optional(z.string()),
  createdAt: z.number(),
};

/** An earlier answer to the same question, kept when the reply was asked for again. */
export const MessageVersionSchema = z.object(ReplyFields);
export type MessageVersion = z.infer<typeof MessageVersionSchema>;

export const MessageSchema = z.object({
  ...ReplyFields,
  id: z.string(),
  conversationId: z.string(),
  seq: z.number(),
  role: z.enum(['user', 'assistant']),
  /** Attached images as data: URLs. */
  images: z.optional(z.array(z.string())),
  /** Shown with the message: what happened to it on the way (a selection cut to fit, say). */
  notice: z.optional(z.string()),
  /** Earlier versions of an assistant reply, oldest first (a retry never destroys one). */
  versions: z.optional(z.array(MessageVersionSchema)),
  /**
   * `[start, end)` of `reasoning` that arrived as answer text before a lone `</think>` and was
   * moved there: the UI can put it back (see lib/gateway/think-tags.ts).
   */
  movedToReasoning: z.optional(z.tuple([z.number(), z.number()])),
});
export type Message = z.infer<typeof MessageSchema>;

/**
 * A GatewayError as saved and shown: no cause chain, and no piece of the key in any text
 * (the library already redacts what the gateway sent; `apiKey` makes sure of every field).
 */
export function storedError(error: GatewayError, apiKey?: string): StoredError {
  const clean = (text: string): string => redactSecrets(text, apiKey);
  const stored: StoredError = {
    kind: error.kind,
    message: clean(error.message),
    url: clean(error.url),
    remedy: { text: clean(error.remedy.text), links: error.remedy.links.map((l) => ({ label: l.label, url: clean(l.url) })) },
  };
  if (error.status !== undefined) stored.status = error.status;
  if (error.code !== undefined) stored.code = clean(error.code);
  if (error.gatewayMessage !== undefined) stored.gatewayMessage = clean(error.gatewayMessage);
  if (error.retryAfter !== undefined) stored.retryAfter = error.retryAfter;
  return stored;
}

/** The reply as it stands, as an earlier version (when it is asked for again). */
export function versionOf(message: Message): MessageVersion {
  const version: MessageVersion = { text: message.text, reasoning: message.reasoning, status: message.status, createdAt: message.createdAt };
  if (message.model !== undefined) version.model = message.model;
  if (message.error !== undefined) version.error = message.error;
  if (message.usage !== undefined) version.usage = message.usage;
  if (message.finishReason !== undefined) version.finishReason = message.finishReason;
  return version;
}

/** Usage without the gateway's raw object. */
export function storedUsage(usage: Usage): StoredUsage {
  const { raw: _raw, ...counts } = usage;
  return counts;
}

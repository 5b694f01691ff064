/**
 * The shapes of saved conversations and messages. IndexedDB is outside data too (another
 * version of the extension may have written it), so every record read is parsed with these.
 */
import * as z from 'zod/mini';
import { GATEWAY_ERROR_KINDS, type GatewayError, type Usage } from '../gateway';

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
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const MessageSchema = z.object({
  id: z.string(),
  conversationId: z.string(),
  seq: z.number(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  reasoning: z._default(z.string(), ''),
  /** Attached images as data: URLs. */
  images: z.optional(z.array(z.string())),
  /** Shown with the message: what happened to it on the way (a selection cut to fit, say). */
  notice: z.optional(z.string()),
  status: z.enum(MESSAGE_STATUSES),
  model: z.optional(z.string()),
  error: z.optional(StoredErrorSchema),
  usage: z.optional(StoredUsageSchema),
  finishReason: z.optional(z.string()),
  createdAt: z.number(),
});
export type Message = z.infer<typeof MessageSchema>;

/** A GatewayError as saved and shown: no cause chain, no key (GatewayError never holds it). */
export function storedError(error: GatewayError): StoredError {
  const stored: StoredError = { kind: error.kind, message: error.message, url: error.url, remedy: error.remedy };
  if (error.status !== undefined) stored.status = error.status;
  if (error.code !== undefined) stored.code = error.code;
  if (error.gatewayMessage !== undefined) stored.gatewayMessage = error.gatewayMessage;
  if (error.retryAfter !== undefined) stored.retryAfter = error.retryAfter;
  return stored;
}

/** Usage without the gateway's raw object. */
export function storedUsage(usage: Usage): StoredUsage {
  const { raw: _raw, ...counts } = usage;
  return counts;
}

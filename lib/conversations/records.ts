/**
 * The shapes of saved conversations and messages. IndexedDB is outside data too (another
 * version of the extension may have written it), so every record read is parsed with these.
 */
import * as z from 'zod/mini';
import { ToolCallRecordSchema, ToolSourceSchema } from '../tools/types';
import { ERROR_DETAILS, GATEWAY_ERROR_KINDS, REMEDY_LINKS, redactSecrets, siteFromUrl } from '../gateway/error-facts';
import type { GatewayError } from '../gateway/errors';
import type { Usage } from '../gateway';
import { API_STYLES } from '../gateway/interfaces/names';
import { ownValue } from '../shared/own-keys';
import { ImageRequestRecordSchema } from '../images/types';
import { SavedFileSchema } from '../files/types';

export const SURFACES = ['popup', 'sidepanel', 'chat', 'action'] as const;
export type Surface = (typeof SURFACES)[number];

export const MESSAGE_STATUSES = ['complete', 'streaming', 'interrupted', 'stopped', 'error'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

const ParamsSchema = z.record(z.string(), z.union([z.string(), z.number()]));

/**
 * An error as saved: codes and facts, never our sentences (the UI words them in the language
 * of the day). The gateway's own words are kept verbatim in `gatewayMessage`.
 */
const StoredErrorShape = z.object({
  /**
   * A kind or detail this build does not know (a later build wrote it) reads as a failure of
   * the gateway without our account: the reply and its text stay readable. Builds before this
   * rule (0.1.0 among them) count such a reply as an unreadable row, and skip its conversation
   * on import as damaged.
   */
  kind: z.catch(z.enum(GATEWAY_ERROR_KINDS), 'server'),
  url: z.string(),
  /** {site_url}, which some remedies name. */
  siteUrl: z.string(),
  status: z.optional(z.number()),
  code: z.optional(z.string()),
  gatewayMessage: z.optional(z.string()),
  detail: z.catch(z.optional(z.object({ code: z.enum(ERROR_DETAILS), params: z.optional(ParamsSchema), text: z.optional(z.string()) })), undefined),
  retryAfter: z.optional(z.number()),
  /** When a retry may be sent (epoch ms), from `retryAfter`: Retry waits until then. */
  retryAt: z.optional(z.number()),
  links: z.array(z.object({ id: z.enum(REMEDY_LINKS), url: z.string() })),
});

/**
 * Builds before the i18n work saved English sentences: `message` and `remedy: { text, links:
 * [{ label, url }] }`. Those are dropped (the kind says it all, in any language) and the links'
 * English labels become their ids.
 */
const LEGACY_LINK_LABELS: Readonly<Record<string, (typeof REMEDY_LINKS)[number]>> = {
  'Keys page': 'keys',
  'Address called': 'address',
  'Model catalogue': 'catalogue',
  Dashboard: 'dashboard',
  Purchase: 'purchase',
  Redeem: 'redeem',
  'Gateway site': 'site',
};

export function upgradeStoredError(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || !('remedy' in raw)) return raw;
  const { message: _message, remedy, ...rest } = raw as { message?: unknown; remedy?: { links?: unknown } } & Record<string, unknown>;
  const links = Array.isArray(remedy?.links) ? remedy.links : [];
  const upgraded: Record<string, unknown> = {
    ...rest,
    links: links.flatMap((l: { label?: unknown; url?: unknown }) => {
      const id = typeof l.label === 'string' ? ownValue(LEGACY_LINK_LABELS, l.label) : undefined;
      return id === undefined || typeof l.url !== 'string' ? [] : [{ id, url: l.url }];
    }),
  };
  if (typeof upgraded.siteUrl !== 'string') upgraded.siteUrl = siteFromUrl(typeof rest.url === 'string' ? rest.url : '');
  return upgraded;
}

export const StoredErrorSchema = z.pipe(z.transform(upgradeStoredError), StoredErrorShape);
export type StoredError = z.infer<typeof StoredErrorShape>;

/**
 * What happened to a message on the way, as a code and its numbers: the selection (or the page
 * asked about) was cut to fit (`selection_cut`, `page_cut`), an action could not start (`action_refused`, with the run's
 * problem code), or a reply was asked through Chat Completions because the gateway does not serve
 * the interface the catalogue named (`sent_through_chat`, `params.api`), or its images were scaled
 * down to be sent for an edit (`image_scaled`, `params.count`, and the first one's `from`, `to` as
 * `WxH`), or an image of the reply was cut off (stopped, or the stream broke) and dropped
 * (`image_cut`), or the gateway refused the reply's tools and it was asked again without them
 * (`tools_refused`), or an MCP server could not give its tools (`tool_server_failed`, `params.address`,
 * `params.code`: a ToolFailure). Older builds saved an
 * English sentence: it is kept as `legacy` text.
 */
const NoticeShape = z.object({
  // A code a later build added reads as a note without words (not as a damaged message).
  code: z.catch(z.enum(['selection_cut', 'page_cut', 'action_refused', 'sent_through_chat', 'image_scaled', 'image_cut', 'tools_refused', 'tool_server_failed', 'legacy']), 'legacy'),
  params: z._default(ParamsSchema, {}),
  text: z.optional(z.string()),
});
export const NoticeSchema = z.pipe(z.transform(upgradeNotice), NoticeShape);
export type Notice = z.infer<typeof NoticeShape>;

const LEGACY_CUT = /about ([\d,]+) tokens; the limit is ([\d,]+)\)\. Only its first ([\d,]+) of ([\d,]+) characters \((\d+)%\)/;

/** An English notice of an older build → its code and numbers (or kept as it was written). */
export function upgradeNotice(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const cut = LEGACY_CUT.exec(raw);
  if (cut === null) return { code: 'legacy', params: {}, text: raw };
  const n = (i: number): number => Number((cut[i] ?? '0').replace(/,/g, ''));
  return { code: 'selection_cut', params: { tokens: n(1), limit: n(2), sentChars: n(3), totalChars: n(4), percent: n(5) } };
}

export const StoredUsageSchema = z.object({
  promptTokens: z.optional(z.number()),
  completionTokens: z.optional(z.number()),
  totalTokens: z.optional(z.number()),
  reasoningTokens: z.optional(z.number()),
  cachedTokens: z.optional(z.number()),
  cost: z.optional(z.number()),
});
export type StoredUsage = z.infer<typeof StoredUsageSchema>;

export const SYSTEM_PROMPT_REVIEWS = ['imported'] as const;

/** A conversation's own system prompt and parameters (a preset's, or the user's). */
export const ConversationSettingsSchema = z.object({
  /** '' is "no system prompt" here; absent follows the global one. */
  systemPrompt: z.optional(z.string()),
  temperature: z.optional(z.number().check(z.gte(0), z.lte(2))),
  maxTokens: z.optional(z.int().check(z.positive())),
  /** The API interface for this conversation (where the gateway offers several). */
  apiStyle: z.optional(z.enum(API_STYLES)),
  /** The preset it was started from. */
  presetId: z.optional(z.string()),
  /** Tools switched off in this conversation's "Tools" menu (`toolSwitch`: a built-in tool's name, `mcp:<server id>`). */
  toolsOff: z.optional(z.array(z.string())),
  /**
   * Why `systemPrompt` waits for the user: `imported` (it came in a history file, written by
   * someone else perhaps). Until they keep or remove it, the chat shows it and sends nothing.
   */
  // A reason a later build added still waits for the user (never read as "nothing to review").
  systemPromptReview: z.catch(z.optional(z.enum(SYSTEM_PROMPT_REVIEWS)), 'imported'),
});
export type ConversationSettings = z.infer<typeof ConversationSettingsSchema>;

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
  /** The message the shown branch goes through (see branches.ts); the newest when absent. */
  leafId: z.optional(z.string()),
  /** Its own settings, over the global ones (each absent one follows them). */
  settings: z.optional(ConversationSettingsSchema),
  /** Pinned conversations come first in the list. */
  pinned: z.optional(z.boolean()),
  /**
   * A comparison waiting for the user's choice: one question (`userId`) sent to several models at
   * once, their replies (`replyIds`, siblings under it) shown side by side. "Continue with this
   * one" makes one of them the answer (the others stay as its versions) and closes it.
   */
  compare: z.optional(z.object({ userId: z.string(), replyIds: z.array(z.string()) })),
});
export type Comparison = NonNullable<Conversation['compare']>;
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
  /** The reply's thinking as the interface signed it (Anthropic): sent back with the thinking as the conversation goes on. */
  reasoningSignature: z.optional(z.string()),
  createdAt: z.number(),
  /** Milliseconds from asking to the first words, and to the end. */
  timing: z.optional(z.object({ firstTokenMs: z.optional(z.number()), durationMs: z.optional(z.number()) })),
  /** The tools it called, in order, with what each gave (lib/tools/). */
  toolCalls: z.optional(z.array(ToolCallRecordSchema)),
  /** Pages the gateway's own web search cited for it. */
  sources: z.optional(z.array(ToolSourceSchema)),
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
  /**
   * The message this one follows in its branch: null at the root; absent in messages saved
   * before branching (they follow the message before them). See branches.ts.
   */
  parentId: z.optional(z.nullable(z.string())),
  /** Attached images as data: URLs. */
  images: z.optional(z.array(z.string())),
  /** Attached files with their extracted text (lib/files/): the request quotes them after `text`. */
  files: z.optional(z.array(SavedFileSchema)),
  /**
   * Images this message holds, by id in the image store (lib/images/store.ts), in order: a
   * reply's generated images or those taken out of its text, a question's image to edit.
   */
  imageIds: z.optional(z.array(z.string())),
  /** Set on the reply of an image model: what was asked (see lib/images/types.ts). */
  imageRequest: z.optional(ImageRequestRecordSchema),
  /** Shown with the message: what happened to it on the way (a selection cut to fit, say). */
  notice: z.optional(NoticeSchema),
  /**
   * Earlier versions of an assistant reply, oldest first, as builds before branching kept
   * them (a retry now adds a sibling reply): shown as versions, never written any more.
   */
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
    url: clean(error.url),
    siteUrl: clean(error.siteUrl),
    links: error.remedy.links.map((l) => ({ id: l.id, url: clean(l.url) })),
  };
  if (error.detail !== undefined) {
    const detail: NonNullable<StoredError['detail']> = { code: error.detail.code };
    if (error.detail.params !== undefined) detail.params = Object.fromEntries(Object.entries(error.detail.params).map(([k, v]) => [k, typeof v === 'string' ? clean(v) : v]));
    if (error.detail.text !== undefined) detail.text = clean(error.detail.text);
    stored.detail = detail;
  }
  if (error.status !== undefined) stored.status = error.status;
  if (error.code !== undefined) stored.code = clean(error.code);
  if (error.gatewayMessage !== undefined) stored.gatewayMessage = clean(error.gatewayMessage);
  if (error.retryAfter !== undefined) stored.retryAfter = error.retryAfter;
  return stored;
}

/** Usage without the gateway's raw object. */
export function storedUsage(usage: Usage): StoredUsage {
  const { raw: _raw, ...counts } = usage;
  return counts;
}

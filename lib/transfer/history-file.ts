/**
 * Taking history out and bringing it back: our versioned JSON file (documented in README,
 * "History files"), one conversation as Markdown, and ChatGPT's data export.
 *
 * Nothing exported carries an API key, ever. A profile's address (where errors were met, their
 * remedy links) goes out only with `includeProfiles`, which also writes the profiles themselves,
 * without their keys.
 */
import * as z from 'zod/mini';
import { ConversationSchema, MessageSchema, type Conversation, type Message } from '../conversations/records';
import { buildTree, currentBranch } from '../conversations/branches';
import type { Profile } from '../settings/schema';
import { fromChatGpt, looksLikeChatGpt } from './chatgpt';
import { replaceImageRefs } from '../images/inline';
import { withFiles } from '../files/quote';
import { quoteAs } from '../actions/template';
import type { ToolCallRecord, ToolCallStatus } from '../tools/types';
import { API_STYLES } from '../gateway/interfaces/names';
import { importedAsData, type ProfileAddress } from './as-data';
import { ImageRecordSchema, type ImageMeta, type ImageRecord } from '../images/types';
import { base64ToBlob, blobToBase64 } from '../images/bytes';
import { metaOf } from '../images/store';
import { sniffImageType } from '../gateway/images';

export const HISTORY_FORMAT = 'gateway-chat-history';
/** The version written now. Older ones are upgraded on import (HISTORY_MIGRATIONS). */
export const HISTORY_VERSION = 1;

/** A profile as exported: where and how, never the key. */
const ExportedProfileSchema = z.object({
  id: z.string(), name: z.string(), siteUrl: z.string(), baseUrl: z.string(),
  apiStyle: z.optional(z.enum(API_STYLES)), defaultModel: z.optional(z.string()),
});
export type ExportedProfile = z.infer<typeof ExportedProfileSchema>;

const HistoryFileV1Schema = z.object({
  format: z.literal(HISTORY_FORMAT),
  version: z.literal(1),
  exportedAt: z.number(),
  /**
   * Each conversation with its messages, raw records (parsed one by one on import), and its
   * images (`ExportedImageSchema`; absent when it has none, and in files of builds before images:
   * those builds read a file with images as one without).
   */
  conversations: z.array(z.object({ conversation: z.unknown(), messages: z.array(z.unknown()), images: z.optional(z.array(z.unknown())) })),
  profiles: z.optional(z.array(ExportedProfileSchema)),
});
export type HistoryFile = z.infer<typeof HistoryFileV1Schema>;

/**
 * Upgrades from each older file version to the next, by number. Version 1 is the first; the
 * records inside a file are upgraded by the record schemas themselves (messages saved with
 * inline versions or English error sentences read as today's).
 */
export const HISTORY_MIGRATIONS: Record<number, (file: Record<string, unknown>) => Record<string, unknown>> = {};

/** An image in a history file: its record without the Blob, and its bytes as base64. */
const { blob: _blob, ...imageMetaShape } = ImageRecordSchema.shape;
export const ExportedImageSchema = z.object({ ...imageMetaShape, mime: z.string().check(z.regex(/^image\/[\w.+-]+$/i)), base64: z.string() });
export type ExportedImage = ImageMeta & { base64: string };

export interface RawConversation {
  conversation: unknown;
  messages: unknown[];
  images?: ExportedImage[];
}

/** Conversations as the store exports them (`exportRaw`), their images' bytes as base64 for the file. */
export async function withImageData(raw: readonly { conversation: unknown; messages: unknown[]; imageRecords?: readonly ImageRecord[] }[]): Promise<RawConversation[]> {
  return Promise.all(raw.map(async ({ conversation, messages, imageRecords }) => (imageRecords === undefined || imageRecords.length === 0
    ? { conversation, messages }
    : { conversation, messages, images: await Promise.all(imageRecords.map(async (image) => ({ ...metaOf(image), base64: await blobToBase64(image.blob) }))) })));
}

/** Error fields that hold the gateway's address. */
function withoutAddresses(message: unknown): unknown {
  if (typeof message !== 'object' || message === null) return message;
  const m = message as { error?: Record<string, unknown>; versions?: { error?: Record<string, unknown> }[] };
  const strip = (error: Record<string, unknown> | undefined): Record<string, unknown> | undefined => {
    if (error === undefined) return undefined;
    const { url: _url, siteUrl: _siteUrl, links: _links, detail, ...rest } = error;
    const out: Record<string, unknown> = { ...rest, url: '', siteUrl: '', links: [] };
    // A detail's parameters can name the address (a redirect's location, the origin not reached).
    if (typeof detail === 'object' && detail !== null) {
      const { params: _params, ...kept } = detail as Record<string, unknown>;
      out.detail = kept;
    }
    return out;
  };
  const copy: Record<string, unknown> = { ...m };
  if (m.error !== undefined) copy.error = strip(m.error);
  if (Array.isArray(m.versions)) copy.versions = m.versions.map((v) => (v.error === undefined ? v : { ...v, error: strip(v.error) }));
  return copy;
}

/** Removes a key that somehow reached a record's text (it never should). */
function withoutKeys(json: string, keys: readonly string[]): string {
  let out = json;
  for (const key of keys) if (key.length >= 8) out = out.split(key).join('[removed]');
  return out;
}

export interface ExportOptions {
  includeProfiles: boolean;
  profiles: readonly Profile[];
  now?: number;
}

/** The history file's text. */
export function exportHistory(conversations: readonly RawConversation[], options: ExportOptions): string {
  const file: HistoryFile = {
    format: HISTORY_FORMAT,
    version: HISTORY_VERSION,
    exportedAt: options.now ?? Date.now(),
    conversations: conversations.map((c) => ({
      conversation: c.conversation,
      messages: options.includeProfiles ? c.messages : c.messages.map(withoutAddresses),
      ...(c.images === undefined || c.images.length === 0 ? {} : { images: c.images }),
    })),
  };
  if (options.includeProfiles) {
    file.profiles = options.profiles.map((p) => {
      const exported: ExportedProfile = { id: p.id, name: p.name, siteUrl: p.siteUrl, baseUrl: p.baseUrl, apiStyle: p.apiStyle };
      if (p.defaultModel !== undefined) exported.defaultModel = p.defaultModel;
      return exported;
    });
  }
  return withoutKeys(JSON.stringify(file), options.profiles.map((p) => p.apiKey));
}

/** Why an import refused a file as a whole (nothing was changed). */
export type ImportFileProblem = 'not_json' | 'unknown_format' | 'newer_version' | 'damaged';
/** Why one record was left out. */
export type SkipReason = 'conversation_damaged' | 'message_damaged' | 'image_damaged' | 'image_too_large' | 'no_messages';

export interface Skipped {
  /** The conversation's id or title, as the file gives it. */
  conversation: string;
  reason: SkipReason;
  /** Where in the record (a zod path), when known. */
  path?: string;
}

export interface ImportedConversation {
  conversation: Conversation;
  messages: Message[];
  /** Its images, their bytes as Blobs again (absent: none). */
  images?: ImageRecord[];
}

export type ParsedHistory =
  | { ok: true; source: 'gateway_chat' | 'chatgpt'; conversations: ImportedConversation[]; skipped: Skipped[]; profiles: ExportedProfile[] }
  | { ok: false; problem: ImportFileProblem; params: Record<string, string | number> };

export interface ImportContext {
  /** The profile ChatGPT's conversations are put under (ours keep their own). */
  profileId: string;
  /** The profiles here, by address: imported errors' links are rebuilt from them (none: dropped). */
  profiles?: readonly ProfileAddress[];
  /** Now (epoch ms): no imported time is later. */
  now?: number;
}

/** Reads a history file: ours (any version) or ChatGPT's `conversations.json`, as data (as-data.ts). */
export function parseHistory(text: string, context: ImportContext): ParsedHistory {
  const data = { profileId: context.profileId, profiles: context.profiles ?? [], now: context.now ?? Date.now() };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: 'not_json', params: { detail: error instanceof Error ? error.message : String(error) } };
  }
  if (looksLikeChatGpt(raw)) {
    const { conversations, skipped } = fromChatGpt(raw, context.profileId);
    return { ok: true, source: 'chatgpt', conversations: conversations.map((c) => importedAsData(c, data)), skipped, profiles: [] };
  }
  if (typeof raw !== 'object' || raw === null || (raw as { format?: unknown }).format !== HISTORY_FORMAT) return { ok: false, problem: 'unknown_format', params: {} };
  let file = raw as Record<string, unknown>;
  const version = typeof file.version === 'number' ? file.version : 0;
  if (version > HISTORY_VERSION) return { ok: false, problem: 'newer_version', params: { version, supported: HISTORY_VERSION } };
  for (let v = version; v < HISTORY_VERSION; v++) {
    const step = HISTORY_MIGRATIONS[v];
    if (step === undefined) return { ok: false, problem: 'unknown_format', params: {} };
    file = step(file);
  }
  const parsed = HistoryFileV1Schema.safeParse(file);
  if (!parsed.success) return { ok: false, problem: 'damaged', params: { path: parsed.error.issues[0]?.path.join('.') ?? '' } };
  const conversations: ImportedConversation[] = [];
  const skipped: Skipped[] = [];
  for (const [i, item] of parsed.data.conversations.entries()) {
    const conversation = ConversationSchema.safeParse(item.conversation);
    const name = typeof (item.conversation as { id?: unknown } | null)?.id === 'string' ? (item.conversation as { id: string }).id : `#${i + 1}`;
    if (!conversation.success) {
      skipped.push({ conversation: name, reason: 'conversation_damaged', path: conversation.error.issues[0]?.path.join('.') ?? '' });
      continue;
    }
    const messages: Message[] = [];
    let damaged: string | undefined;
    for (const m of item.messages) {
      const message = MessageSchema.safeParse(m);
      if (!message.success || message.data.conversationId !== conversation.data.id) {
        damaged = message.success ? 'conversationId' : message.error.issues[0]?.path.join('.') ?? '';
        break;
      }
      messages.push(sameData(m, message.data) ? (m as Message) : message.data);
    }
    // A conversation is taken whole or not at all: half of one would be a different conversation.
    if (damaged !== undefined) {
      skipped.push({ conversation: name, reason: 'message_damaged', path: damaged });
      continue;
    }
    const images = importedImages(item.images ?? [], conversation.data.id, new Set(messages.map((m) => m.id)), data.now);
    if (!Array.isArray(images)) {
      skipped.push({ conversation: name, reason: images.tooLarge === true ? 'image_too_large' : 'image_damaged', path: images.path });
      continue;
    }
    // A record that needed no upgrade is kept as the file has it: an export imported gives back the same bytes.
    const imported: ImportedConversation = { conversation: sameData(item.conversation, conversation.data) ? (item.conversation as Conversation) : conversation.data, messages };
    if (images.length > 0) imported.images = images;
    conversations.push(importedAsData(imported, data));
  }
  return { ok: true, source: 'gateway_chat', conversations, skipped, profiles: parsed.data.profiles ?? [] };
}

/**
 * A conversation's images from a file, their bytes Blobs again; each must belong to the
 * conversation and one of its messages, be an image (`image/…`), and its base64 decode. Times
 * are kept within [0, now] (see as-data.ts). The path of the first that does not, otherwise.
 */
/** The largest image a history file may bring (its bytes): no gateway makes one near it. */
export const MAX_IMPORTED_IMAGE_BYTES = 50 * 1024 * 1024;

function importedImages(raw: readonly unknown[], conversationId: string, messageIds: ReadonlySet<string>, now: number): ImageRecord[] | { path: string; tooLarge?: true } {
  const images: ImageRecord[] = [];
  for (const [i, item] of raw.entries()) {
    const parsed = ExportedImageSchema.safeParse(item);
    if (!parsed.success) return { path: `images.${i}.${parsed.error.issues[0]?.path.join('.') ?? ''}` };
    const { base64, ...meta } = parsed.data;
    if (meta.conversationId !== conversationId) return { path: `images.${i}.conversationId` };
    if (!messageIds.has(meta.messageId)) return { path: `images.${i}.messageId` };
    // Checked before decoding: base64 is four characters for three bytes.
    if (Math.floor(base64.length / 4) * 3 > MAX_IMPORTED_IMAGE_BYTES) return { path: `images.${i}.base64`, tooLarge: true };
    const blob = base64ToBlob(base64, meta.mime);
    if (blob === undefined) return { path: `images.${i}.base64` };
    // Only a PNG, JPEG, WebP or GIF by its bytes is kept, as the type they are.
    const mime = typeOfBase64(base64);
    if (mime === undefined) return { path: `images.${i}.base64` };
    images.push({ ...meta, mime, createdAt: Math.min(Math.max(meta.createdAt, 0), now), blob: blob.type === mime ? blob : new Blob([blob], { type: mime }) });
  }
  return images;
}

/** The image type (PNG, JPEG, WebP, GIF) of base64 already checked to be base64, by its first bytes. */
function typeOfBase64(base64: string): string | undefined {
  const head = base64.slice(0, 64).replace(/\s+/g, '').slice(0, 16);
  return sniffImageType(Uint8Array.from(atob(head.slice(0, head.length - (head.length % 4))), (c) => c.charCodeAt(0)));
}

/** Whether two JSON values hold the same data (key order aside). */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameData(v, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Words the Markdown needs from the page (lib/ writes no sentences of its own). */
export interface MarkdownLabels {
  user: string;
  assistant: string;
  /** How an image is named in the text (the file holds no image): `{alt}` is its prompt or alt text. */
  image: string;
  /** A tool call's heading (`{tool}`: its name, `{status}`: its state), and its result's. */
  tool?: string;
  toolResult?: string;
  /** A call's state in words. */
  toolStatus?: Readonly<Record<ToolCallStatus, string>>;
}

/** A reply's tool calls as Markdown: each named with its state, its arguments and its result fenced (nothing inside can close the fence). */
function toolCallsMarkdown(calls: readonly ToolCallRecord[], labels: MarkdownLabels): string {
  return calls.map((call) => {
    const heading = (labels.tool ?? '{tool} ({status})').replace('{tool}', call.server === undefined ? call.tool : `${call.server}: ${call.tool}`).replace('{status}', labels.toolStatus?.[call.status] ?? call.status);
    const parts = [`**${heading}**`, quoteAs(call.arguments, 'json')];
    if (call.result !== undefined) parts.push(`${labels.toolResult ?? 'Result'}:`, quoteAs(call.result, 'text'));
    else if (call.error !== undefined) parts.push(`\`${call.error.code}\``);
    return parts.join('\n\n');
  }).join('\n\n');
}

/** One conversation's shown branch as Markdown. */
export function conversationMarkdown(conversation: Conversation, messages: readonly Message[], labels: MarkdownLabels): string {
  const branch = currentBranch(buildTree(messages), conversation.leafId);
  const parts = [`# ${conversation.title}`];
  if (conversation.source !== undefined) parts.push(`<${conversation.source.url}>`);
  for (const m of branch) {
    const who = m.role === 'user' ? labels.user : `${labels.assistant}${m.model === undefined ? '' : ` (${m.model})`}`;
    // Images are not in the file: each is named where it stood (a chat reply's), or after the reply (generated ones).
    const image = (alt: string): string => `*[${labels.image.replace('{alt}', alt)}]*`;
    let text = replaceImageRefs(m.text, () => undefined, image);
    const generated = m.imageRequest === undefined ? [] : (m.imageIds ?? []).map(() => image(m.imageRequest!.prompt));
    if (generated.length > 0) text = [text, generated.join(' ')].filter((t) => t !== '').join('\n\n');
    // Attached files as the model received them: each named, its text quoted.
    text = withFiles(text, m.files);
    // The tools a reply called, before its answer.
    if (m.toolCalls !== undefined && m.toolCalls.length > 0) text = [toolCallsMarkdown(m.toolCalls, labels), text].filter((t) => t !== '').join('\n\n');
    parts.push(`## ${who}\n\n${text}`);
  }
  return `${parts.join('\n\n')}\n`;
}

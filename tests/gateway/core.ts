/**
 * What every interface of the reference gateway shares: the fault knobs, the checks a request
 * passes before a model answers it (each interface words the failures its own way, see
 * `errors.ts`), billing, and the writer that honours the drop and stall faults.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { AnswerContext, Endpoint, IncomingImage, IncomingTurn, ReferenceModel } from './models';
import type { Problem } from './errors';
import { imageTag } from './png';

export const Fault = z.discriminatedUnion('kind', [
  /** Close the socket after this many bytes of the response body. */
  z.object({ kind: z.literal('drop'), afterBytes: z.number().int().nonnegative() }),
  /** Stop sending after this many body bytes, keeping the connection open. */
  z.object({ kind: z.literal('stall'), afterBytes: z.number().int().nonnegative() }),
  /** After this many content chunks, the interface's mid-stream error (then `[DONE]` if asked, on Chat Completions). */
  z.object({ kind: z.literal('midstream-error'), afterChunks: z.number().int().nonnegative(), thenDone: z.boolean().default(true) }),
  /** 429 with Retry-After. */
  z.object({ kind: z.literal('rate-limit'), retryAfter: z.number().int().nonnegative() }),
  /** 500 with an error body. */
  z.object({ kind: z.literal('server-error') }),
  /** Anthropic's 529 `overloaded_error` (Gemini's 503 `UNAVAILABLE`, 503 elsewhere). */
  z.object({ kind: z.literal('overloaded') }),
  /** After this many content chunks, one chunk of cut-off JSON, then the rest as normal. */
  z.object({ kind: z.literal('malformed-chunk'), afterChunks: z.number().int().nonnegative() }),
  /** Wait this long before sending the status line and headers. */
  z.object({ kind: z.literal('slow-first-byte'), delayMs: z.number().int().nonnegative() }),
  /**
   * The model's filter blocks the reply after this many chunks of its text (0: before any), as
   * each interface says it: Chat Completions' `finish_reason: "content_filter"` (with Azure's
   * `content_filter_results`), the Responses API's `incomplete_details.reason: "content_filter"`,
   * Anthropic's `stop_reason: "refusal"`, Gemini's last candidate with `finishReason: "SAFETY"`
   * and its `safetyRatings`. Not streamed, the reply holds the text those chunks carry.
   */
  z.object({ kind: z.literal('blocked'), afterChunks: z.number().int().nonnegative().default(0) }),
]);
export type Fault = z.infer<typeof Fault>;

export interface Pace {
  /** Milliseconds between streamed chunks. */
  delayMs: number;
  /** Characters of content per chunk. */
  chunkChars: number;
}

export interface StreamLog {
  /** The content of every chunk written whole, in order. */
  sentText: string;
  /** The client closed the connection before the reply was finished (Stop, a deleted conversation, a dead worker). */
  cancelled: boolean;
  /** The reply was written to its end. */
  finished: boolean;
}

/** Where a request carried its key. */
export type KeyPlace = 'authorization' | 'x-api-key' | 'x-goog-api-key' | 'query';

export interface LoggedRequest {
  method: string;
  path: string;
  /** The address's query, as sent (tests check that no key travels in it). */
  query: string;
  /** The bearer token sent, as sent (tests check where the key went). */
  bearer: string | undefined;
  /** The key the request carried, wherever it was, and where that was. */
  key: string | undefined;
  keyIn: KeyPlace | undefined;
  /** The request's own headers that matter to an interface (`anthropic-version`). */
  anthropicVersion: string | undefined;
  origin: string | undefined;
  time: number;
  /** When its response ended (tests of requests that overlap). */
  endedAt?: number;
  /** The JSON body as received (tests check what a conversation sent: its system prompt, say). */
  body?: unknown;
  /** For a streamed reply: what it delivered, and how it ended (tests of faults). */
  stream?: StreamLog;
}

export interface KeyRecord {
  account: string;
  status: 'valid' | 'deleted' | 'expired';
}

/** The words of the errors users meet (English, or new-api's Chinese). */
export interface ErrorWords {
  invalidKey(why: 'wrong or incompletely copied' | KeyRecord['status']): string;
  rateLimited: string;
  upstreamFailed: string;
  overloaded: string;
  modelMissing(model: string): string;
  insufficientBalance: string;
  upstreamClosed: string;
}

export interface ReplyWriter {
  readonly stopped: boolean;
  /** The drop fault cut this reply (so a close is the fault's, not the client's). */
  readonly faulted: boolean;
  write(text: string): boolean;
}

/** One request on its way: who asked, with which fault, logged where. */
export interface Served {
  req: IncomingMessage;
  res: ServerResponse;
  key: KeyRecord;
  fault: Fault | undefined;
  logged: LoggedRequest;
}

/** What the server lends an interface's handler. */
export interface GatewayCore {
  words(): ErrorWords;
  pace(): Pace;
  /** The request's JSON body checked against a schema, or what was wrong with it. */
  readJson<T>(served: Served, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; problem: Problem }>;
  /** The model, or why this request may not have its answer. */
  /** `audio`: an audio route (`audio.ts`), whose models new-api lists as `openai`. */
  admit(key: KeyRecord, modelId: string, endpoint: Endpoint | 'audio', turns: IncomingTurn[]): { ok: true; model: ReferenceModel } | { ok: false; problem: Problem };
  bill(key: KeyRecord, model: ReferenceModel, promptTokens: number, completionTokens: number): void;
  writer(served: Served): ReplyWriter;
  /** Starts a streamed reply and logs what it delivers. */
  startStream(served: Served, out: ReplyWriter): StreamLog;
  /** Counts text as delivered (the first words' time is kept for latency benches). */
  delivered(log: StreamLog, text: string): void;
  /** Ends a streamed reply that reached its end. */
  finish(served: Served, log: StreamLog): void;
  /** A serial number for ids. */
  serial(): number;
  /** The knobs a model's answer may read. */
  answerContext(): AnswerContext;
}

export function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

export function imageFromDataUrl(url: string): IncomingImage {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (match === null) return { url, mediaType: 'remote', bytes: 0 };
  const decoded = match[2] === undefined ? Buffer.from(decodeURIComponent(match[3] ?? ''), 'latin1') : Buffer.from(match[3] ?? '', 'base64');
  return { url: url.slice(0, 32), mediaType: match[1] ?? 'unknown', bytes: decoded.length, tag: imageTag(decoded) };
}

export function imageFromBase64(mediaType: string, data: string): IncomingImage {
  const decoded = Buffer.from(data, 'base64');
  return { url: `data:${mediaType};base64,${data.slice(0, 16)}`, mediaType, bytes: decoded.length, tag: imageTag(decoded) };
}

/** `![alt](data:image/…;base64,…)` in a message's text (base64 may hold whitespace). */
const DATA_URI_IMAGE = /!\[[^\]]*\]\((data:image\/[\w.+-]+;base64,[A-Za-z0-9+/=\s]+)\)/g;

/**
 * An assistant turn's data-URI images taken out of its text, as new-api turns them back into
 * image input (how multi-turn image editing works); the text keeps `[image]` in their place.
 */
export function takeDataUriImages(turn: IncomingTurn): IncomingTurn {
  if (turn.role !== 'assistant' || !turn.text.includes('](data:image/')) return turn;
  const images: IncomingImage[] = [];
  const text = turn.text.replace(DATA_URI_IMAGE, (_, uri: string) => {
    images.push(imageFromDataUrl(uri.replace(/\s+/g, '')));
    return '[image]';
  });
  return { ...turn, text, images: [...turn.images, ...images] };
}

export function chunkText(text: string, size: number): string[] {
  const out: string[] = [];
  // Split on code points so a chunk never ends inside a surrogate pair.
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** The reply's text as far as the blocked fault lets it go (its first chunks), and whether the filter blocked it. */
export function cutByFilter(text: string, fault: Fault | undefined, chunkChars: number): { text: string; blocked: boolean } {
  if (fault?.kind !== 'blocked') return { text, blocked: false };
  return { text: chunkText(text, chunkChars).slice(0, fault.afterChunks).join(''), blocked: true };
}

/** Prompt tokens as the gateway counts them before the upstream reports usage. */
export function promptTokensOf(turns: IncomingTurn[], estimate: (text: string) => number): number {
  return turns.reduce((n, t) => n + estimate(t.text) + t.images.length * 85, 0);
}

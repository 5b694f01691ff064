/**
 * Gemini: `POST {site}/v1beta/models/{model}:streamGenerateContent?alt=sse` with `x-goog-api-key`
 * (the key is never put in the address). Streamed as `data: <GenerateContentResponse>` lines with
 * no `[DONE]`: the reply ends where the body ends.
 */
import * as z from 'zod/mini';
import { endpointUrl } from '../address';
import { GEMINI_BLOCKING_FINISH, blockDetail } from '../blocks';
import { buildGatewayError, type ClassifyContext, type ErrorFacts } from '../classify';
import { ReplyState, bodyFacts, normalizeUsage } from '../decoders';
import type { SseItem } from '../sse';
import type { ChatMessage, ChatRequest, StreamEvent, TextMessage, ToolSpec } from '../types';
import { argumentsObject } from '../tool-calls';
import { dataUrl, mediaTypeOf, splitSystem, type WireInterface } from './interface';

/** A data-URI image written in markdown, as image models answer (and as `inlineData` comes back to us). */
const MARKDOWN_IMAGE = /!\[[^\]\n]*\]\(data:(image\/[\w.+-]+)(?:;[\w.+-]+(?:=[^;,)\s]*)?)*?;base64,([A-Za-z0-9+/=_\s-]+)\)/gi;

/**
 * A model turn's text with its data-URI images as `inlineData` parts, in place (so "now make it
 * blue" edits the image the model drew); a turn without one is its text as it is.
 */
export function modelTextParts(text: string): unknown[] {
  if (!/\]\(data:image\//i.test(text)) return [{ text }];
  const parts: unknown[] = [];
  let at = 0;
  for (const match of text.matchAll(MARKDOWN_IMAGE)) {
    const before = text.slice(at, match.index);
    if (before.trim() !== '') parts.push({ text: before });
    parts.push({ inlineData: { mimeType: (match[1] ?? '').toLowerCase(), data: (match[2] ?? '').replace(/\s+/g, '') } });
    at = match.index + match[0].length;
  }
  const after = text.slice(at);
  if (after.trim() !== '' || parts.length === 0) parts.push({ text: after });
  return parts;
}

function geminiParts(message: TextMessage): unknown[] {
  const calls = (message.toolCalls ?? []).map((c) => ({ functionCall: { name: c.name, args: argumentsObject(c.arguments) }, ...(c.signature === undefined ? {} : { thoughtSignature: c.signature }) }));
  if (calls.length === 0) return contentParts(message);
  // Blank text beside calls is left out (a text part must say something).
  const text = contentParts(message).filter((p) => !(typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string' && (p as { text: string }).text.trim() === ''));
  return [...text, ...calls];
}

function contentParts(message: TextMessage): unknown[] {
  const model = message.role === 'assistant';
  if (typeof message.content === 'string') return model ? modelTextParts(message.content) : [{ text: message.content }];
  return message.content.flatMap((part) => {
    if (part.type === 'text') return model ? modelTextParts(part.text) : [{ text: part.text }];
    if (part.type === 'file') {
      const file = dataUrl(part.data);
      return file === undefined ? [] : [{ inlineData: { mimeType: file.mediaType, data: file.data } }];
    }
    const inline = dataUrl(part.url);
    return [inline === undefined
      ? { fileData: { mimeType: mediaTypeOf(part.url), fileUri: part.url } }
      : { inlineData: { mimeType: inline.mediaType, data: inline.data } }];
  });
}

/** The turns as Gemini's contents: tool results are a user turn's `functionResponse` parts, one turn for a row of them. */
function geminiContents(turns: readonly ChatMessage[]): { role: string; parts: unknown[] }[] {
  const out: { role: string; parts: unknown[]; results?: true }[] = [];
  for (const m of turns) {
    if (m.role !== 'tool') {
      out.push({ role: m.role === 'assistant' ? 'model' : 'user', parts: geminiParts(m) });
      continue;
    }
    const part = { functionResponse: { name: m.name, response: m.isError === true ? { error: m.content } : { content: m.content } } };
    const last = out.at(-1);
    if (last?.results === true) last.parts.push(part);
    else out.push({ role: 'user', parts: [part], results: true });
  }
  // Turns of one role in a row made one (a question after a reply that ended on tool results, or
  // after a reply that failed with no words): Gemini asks for user and model turns in turn.
  const merged: { role: string; parts: unknown[] }[] = [];
  for (const { role, parts } of out) {
    const last = merged.at(-1);
    if (last !== undefined && last.role === role) merged[merged.length - 1] = { role, parts: [...last.parts, ...parts] };
    else merged.push({ role, parts });
  }
  return merged;
}

/** The JSON Schema words Gemini's `parameters` (an OpenAPI subset) takes: others (`$schema`, `additionalProperties`, …) are refused there. */
const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'minItems', 'maxItems', 'properties', 'required',
  'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'anyOf', 'propertyOrdering', 'default', 'example',
]);

/** The string formats Gemini's `parameters` takes (others, `uri` say, are refused there). */
const GEMINI_STRING_FORMATS: ReadonlySet<string> = new Set(['enum', 'date-time']);

export function geminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(geminiSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  const source = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    if (!GEMINI_SCHEMA_KEYS.has(key)) continue;
    // `type: ["string", "null"]`: one type, and nullable (Gemini takes no list of types).
    if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t): t is string => typeof t === 'string');
      const one = types.find((t) => t !== 'null');
      if (one !== undefined) out.type = one;
      if (types.includes('null')) out.nullable = true;
      continue;
    }
    // Numbers' formats (int32, double, …) are taken; strings' only as listed.
    const isString = source.type === 'string' || (Array.isArray(source.type) && source.type.includes('string'));
    if (key === 'format' && (typeof value !== 'string' || (isString && !GEMINI_STRING_FORMATS.has(value)))) continue;
    // `properties` names fields: its keys are kept whatever they are; its values are schemas.
    out[key] = key === 'properties' && typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, geminiSchema(sub)]))
      : key === 'enum' || key === 'required' || key === 'propertyOrdering' || key === 'default' || key === 'example' ? value : geminiSchema(value);
  }
  return out;
}

function geminiTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: geminiSchema(t.parameters) })) }];
}

export function geminiBody(request: ChatRequest): Record<string, unknown> {
  const { system, turns } = splitSystem(request.messages);
  const body: Record<string, unknown> = {
    ...request.extra,
    contents: geminiContents(turns),
  };
  const tools = request.tools !== undefined && request.tools.length > 0 ? geminiTools(request.tools) : [];
  // The gateway's own search: Gemini's grounding with Google Search.
  if (request.webSearch === true) tools.push({ googleSearch: {} });
  if (tools.length > 0) body.tools = tools;
  if (system !== undefined) body.systemInstruction = { parts: [{ text: system }] };
  const config: Record<string, unknown> = { ...(request.extra?.generationConfig as Record<string, unknown> | undefined) };
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  // Thought summaries come as parts marked `thought` (models that do not think ignore this).
  config.thinkingConfig = { includeThoughts: true, ...(config.thinkingConfig as Record<string, unknown> | undefined) };
  body.generationConfig = config;
  return body;
}

const UsageMetadata = z.looseObject({
  promptTokenCount: z.optional(z.nullable(z.number())),
  candidatesTokenCount: z.optional(z.nullable(z.number())),
  thoughtsTokenCount: z.optional(z.nullable(z.number())),
  totalTokenCount: z.optional(z.nullable(z.number())),
  cachedContentTokenCount: z.optional(z.nullable(z.number())),
});

const InlineData = z.looseObject({
  mimeType: z.optional(z.nullable(z.string())),
  mime_type: z.optional(z.nullable(z.string())),
  data: z.optional(z.nullable(z.string())),
});
type InlineData = z.infer<typeof InlineData>;

const FunctionCall = z.looseObject({ id: z.optional(z.nullable(z.string())), name: z.optional(z.nullable(z.string())), args: z.optional(z.unknown()) });

const IMAGE_TYPE = /^image\/[\w.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/=_-]*$/;

/**
 * An image part as the markdown a Chat Completions image model writes, so that one extractor
 * (lib/images/inline.ts) takes images out of every interface's text; undefined for what is not
 * an image or not base64 (never written into the text, where it could break the markdown).
 */
export function inlineImageMarkdown(inline: InlineData): string | undefined {
  const mime = inline.mimeType ?? inline.mime_type ?? '';
  const data = (inline.data ?? '').replace(/\s+/g, '');
  if (!IMAGE_TYPE.test(mime) || data === '' || !BASE64.test(data)) return undefined;
  return `![image](data:${mime.toLowerCase()};base64,${data})`;
}

export const GeminiResponse = z.looseObject({
  candidates: z.optional(z.nullable(z.array(z.looseObject({
    content: z.optional(z.nullable(z.looseObject({
      parts: z.optional(z.nullable(z.array(z.looseObject({
        text: z.optional(z.nullable(z.string())),
        thought: z.optional(z.nullable(z.boolean())),
        /** A tool call, whole (`function_call` where a proxy writes the REST names in snake case). */
        functionCall: z.optional(z.nullable(FunctionCall)),
        function_call: z.optional(z.nullable(FunctionCall)),
        /** Gemini 3's signature of the part (a call's must come back with it). */
        thoughtSignature: z.optional(z.nullable(z.string())),
        /** An image the model drew (`inline_data` where a proxy writes the REST names in snake case). */
        inlineData: z.optional(z.nullable(InlineData)),
        inline_data: z.optional(z.nullable(InlineData)),
      })))),
    }))),
    finishReason: z.optional(z.nullable(z.string())),
    /** Grounding with Google Search: the pages the answer drew on. */
    groundingMetadata: z.optional(z.nullable(z.looseObject({
      groundingChunks: z.optional(z.nullable(z.array(z.looseObject({ web: z.optional(z.nullable(z.looseObject({ uri: z.optional(z.unknown()), title: z.optional(z.unknown()) }))) })))),
    }))),
  })))),
  promptFeedback: z.optional(z.nullable(z.looseObject({ blockReason: z.optional(z.nullable(z.string())) }))),
  usageMetadata: z.optional(z.nullable(UsageMetadata)),
  error: z.optional(z.unknown()),
});
export type GeminiResponse = z.infer<typeof GeminiResponse>;

const USAGE_FIELDS = ['promptTokenCount', 'candidatesTokenCount', 'thoughtsTokenCount', 'totalTokenCount', 'cachedContentTokenCount'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isOptional = (value: unknown, type: 'string' | 'boolean' | 'number'): boolean => value === undefined || value === null || typeof value === type;

/**
 * The hot path, checked by hand: candidates whose parts are text (or thoughts), with a finish
 * reason and usage counts (nothing else that `GeminiResponse` checks). A subset of what the schema accepts.
 */
export function quickGeminiResponse(value: unknown): GeminiResponse | undefined {
  if (!isObject(value) || value.error !== undefined || value.promptFeedback !== undefined) return undefined;
  const usage = value.usageMetadata;
  if (usage !== undefined && usage !== null && (!isObject(usage) || !USAGE_FIELDS.every((f) => isOptional(usage[f], 'number')))) return undefined;
  const candidates = value.candidates;
  if (!Array.isArray(candidates)) return undefined;
  for (const candidate of candidates as unknown[]) {
    if (!isObject(candidate) || !isOptional(candidate.finishReason, 'string') || candidate.groundingMetadata !== undefined) return undefined;
    const content = candidate.content;
    if (content === undefined || content === null) continue;
    if (!isObject(content)) return undefined;
    const parts = content.parts;
    if (parts === undefined || parts === null) continue;
    if (!Array.isArray(parts)) return undefined;
    for (const part of parts as unknown[]) {
      if (!isObject(part) || !isOptional(part.text, 'string') || !isOptional(part.thought, 'boolean')) return undefined;
      // Images and tool calls are checked by the schema.
      if (part.inlineData !== undefined || part.inline_data !== undefined || part.functionCall !== undefined || part.function_call !== undefined) return undefined;
    }
  }
  return value as GeminiResponse;
}

const SafetyRatings = z.array(z.looseObject({
  category: z.optional(z.nullable(z.string())),
  probability: z.optional(z.nullable(z.string())),
  blocked: z.optional(z.nullable(z.boolean())),
}));

/** How likely a rating says the harm is; NEGLIGIBLE (and anything unknown) never names a block. */
const PROBABILITY_RANK: ReadonlyMap<string, number> = new Map([['LOW', 1], ['MEDIUM', 2], ['HIGH', 3]]);

/**
 * The category behind a block, from a candidate's (or the prompt's) `safetyRatings`: the rating
 * marked `blocked`, else the most probable harm above negligible, else none (a recitation
 * block rates every harm negligible). Read only when a block is met, so the hot path never parses them.
 */
function blockedCategory(ratings: unknown): string | undefined {
  const parsed = SafetyRatings.safeParse(ratings);
  if (!parsed.success) return undefined;
  const marked = parsed.data.find((r) => r.blocked === true && r.category != null && r.category !== '');
  if (marked?.category != null) return marked.category;
  let best: string | undefined;
  let rank = 0;
  for (const rating of parsed.data) {
    const n = PROBABILITY_RANK.get(rating.probability ?? '') ?? 0;
    if (n > rank && rating.category != null && rating.category !== '') {
      best = rating.category;
      rank = n;
    }
  }
  return best;
}

/**
 * Gemini's finish reasons: the usual two in the other interfaces' words, the rest (language,
 * other, …) as they are, lower-cased. A blocking one (GEMINI_BLOCKING_FINISH) ends the reply as an error instead.
 */
function finishReasonOf(reason: string): string {
  return reason === 'STOP' ? 'stop' : reason === 'MAX_TOKENS' ? 'length' : reason.toLowerCase();
}

/** Streamed `:streamGenerateContent?alt=sse`. */
export class GeminiStreamDecoder extends ReplyState {
  private sawAnswer = false;

  /** The body's end is the reply's end: complete once any response (or a finish reason) came. */
  protected get completed(): boolean {
    return this.sawAnswer;
  }

  item(item: SseItem, out: StreamEvent[]): boolean {
    return this.jsonItem(item, out, GeminiResponse, (response) => this.accept(response, out), quickGeminiResponse);
  }

  accept(response: GeminiResponse, out: StreamEvent[]): boolean {
    if (response.error != null) return this.failWith(geminiErrorFacts(response.error, this.ctx), out);
    const usage = response.usageMetadata;
    if (usage != null) {
      // Cumulative: the last one counts. Thoughts are reported apart from the answer's tokens.
      const completion = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
      this.usage = normalizeUsage({
        prompt_tokens: usage.promptTokenCount ?? undefined,
        completion_tokens: usage.candidatesTokenCount == null && usage.thoughtsTokenCount == null ? undefined : completion,
        total_tokens: usage.totalTokenCount ?? undefined,
      });
      this.usage.raw = usage as Record<string, unknown>;
      if (usage.thoughtsTokenCount != null) this.usage.reasoningTokens = usage.thoughtsTokenCount;
      if (usage.cachedContentTokenCount != null) this.usage.cachedTokens = usage.cachedContentTokenCount;
    }
    const promptBlock = response.promptFeedback?.blockReason;
    const candidate = response.candidates?.[0];
    if (candidate == null) {
      if (promptBlock != null && promptBlock !== '') {
        this.blocked = blockDetail('prompt_blocked', promptBlock, blockedCategory(response.promptFeedback?.safetyRatings));
        this.finish(out);
        return true;
      }
      if (usage != null) this.sawAnswer = true;
      return false;
    }
    this.sawAnswer = true;
    for (const part of candidate.content?.parts ?? []) {
      const call = part.functionCall ?? part.function_call;
      if (call != null && call.name != null && call.name !== '') {
        // Each part is a whole call: a key of its own.
        const key = `part${this.toolCalls.size}`;
        this.toolCalls.piece(key, { id: call.id, name: call.name, signature: part.thoughtSignature });
        this.toolCalls.whole(key, call.args ?? {});
        continue;
      }
      const inline = part.inlineData ?? part.inline_data;
      if (inline != null && part.thought !== true) {
        const image = inlineImageMarkdown(inline);
        if (image !== undefined) this.content(image, out);
      }
      if (part.text == null || part.text === '') continue;
      if (part.thought === true) this.reasoning(part.text, out);
      else this.content(part.text, out);
    }
    for (const chunk of candidate.groundingMetadata?.groundingChunks ?? []) this.cite(chunk.web?.uri, chunk.web?.title);
    const reason = candidate.finishReason;
    if (reason != null && reason !== '' && reason !== 'FINISH_REASON_UNSPECIFIED') this.finishReason = finishReasonOf(reason);
    if (reason != null && GEMINI_BLOCKING_FINISH.has(reason)) this.blocked = blockDetail('reply_blocked', reason, blockedCategory(candidate.safetyRatings));
    return false;
  }
}

/** `{"error":{code,message,status}}`: the status word (`RESOURCE_EXHAUSTED`, …) is read as the type. */
export function geminiErrorFacts(error: unknown, ctx: ClassifyContext): ErrorFacts {
  return bodyFacts({ error }, ctx);
}

/** A non-streamed `:generateContent` answer: the same events as a stream. */
export function decodeGeminiBody(value: unknown, ctx: ClassifyContext): StreamEvent[] {
  const parsed = GeminiResponse.safeParse(value);
  if (!parsed.success) throw buildGatewayError('bad_response', {}, ctx, { code: 'no_message' });
  const decoder = new GeminiStreamDecoder(ctx);
  const out: StreamEvent[] = [];
  if (!decoder.accept(parsed.data, out)) decoder.end(out);
  return out;
}

export const geminiInterface: WireInterface = {
  name: 'gemini',
  url: ({ siteUrl }, model, stream) => endpointUrl(siteUrl, `/v1beta/models/${encodeURIComponent(model).replace(/%2F/gi, '/')}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`),
  headers: (apiKey) => ({ 'x-goog-api-key': apiKey }),
  body: (request) => geminiBody(request),
  streamDecoder: (ctx) => new GeminiStreamDecoder(ctx),
  decodeBody: decodeGeminiBody,
};

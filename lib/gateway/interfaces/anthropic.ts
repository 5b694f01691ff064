/**
 * Anthropic Messages: `POST {base}/messages` with `x-api-key` and `anthropic-version`; streamed as
 * `event: <type>` + `data: <json>` pairs (`message_start`, `content_block_delta`, `message_delta`,
 * `message_stop`, `ping`, `error`), no `[DONE]`.
 */
import * as z from 'zod/mini';
import { endpointUrl } from '../address';
import { blockDetail } from '../blocks';
import type { ClassifyContext } from '../classify';
import { ReplyState, bodyFacts, normalizeUsage } from '../decoders';
import type { SseItem } from '../sse';
import type { ChatMessage, ChatRequest, StreamEvent, TextMessage } from '../types';
import { argumentsObject } from '../tool-calls';
import { buildGatewayError } from '../classify';
import { dataUrl, splitSystem, textOf, type WireInterface } from './interface';
import { ownValue } from '../../shared/own-keys';

export const ANTHROPIC_VERSION = '2023-06-01';

/** `max_tokens` is required by the interface: this when the conversation sets none. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

function anthropicContent(message: TextMessage): unknown {
  if (message.role === 'assistant') {
    const calls = (message.toolCalls ?? []).map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: argumentsObject(c.arguments) }));
    const signed = message.reasoning?.signature !== undefined && message.reasoning.signature !== '';
    if (!signed && calls.length === 0) return typeof message.content === 'string' ? message.content : textOf(message.content);
    // Thinking goes back as it came, signed, ahead of the text (Anthropic checks the signature); calls after the text.
    const text = textOf(message.content);
    return [
      ...(signed ? [{ type: 'thinking', thinking: message.reasoning!.text, signature: message.reasoning!.signature }] : []),
      // Anthropic refuses a blank text block: beside calls it is left out.
      ...(text.trim() === '' && calls.length > 0 ? [] : [{ type: 'text', text }]),
      ...calls,
    ];
  }
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'file') {
      const file = dataUrl(part.data);
      return { type: 'document', title: part.filename, source: { type: 'base64', media_type: file?.mediaType ?? 'application/pdf', data: file?.data ?? '' } };
    }
    const inline = dataUrl(part.url);
    return inline === undefined
      ? { type: 'image', source: { type: 'url', url: part.url } }
      : { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
  });
}

/** The turns as Anthropic's messages: tool results are a user turn's `tool_result` blocks, one turn for a row of them. */
function anthropicMessages(turns: readonly ChatMessage[]): unknown[] {
  const out: { role: string; content: unknown }[] = [];
  for (const m of turns) {
    if (m.role !== 'tool') {
      out.push({ role: m.role, content: anthropicContent(m) });
      continue;
    }
    const result = { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, ...(m.isError === true ? { is_error: true } : {}) };
    const last = out.at(-1);
    if (last?.role === 'user' && Array.isArray(last.content) && (last.content as { type?: string }[]).every((b) => b.type === 'tool_result')) (last.content as unknown[]).push(result);
    else out.push({ role: 'user', content: [result] });
  }
  return alternating(out);
}

type AnthropicTurn = { role: string; content: unknown };

const blocksOf = (content: unknown): { type?: string; text?: string }[] =>
  (typeof content === 'string' ? (content.trim() === '' ? [] : [{ type: 'text', text: content }]) : content as { type?: string; text?: string }[]);

/**
 * Turns of one role in a row made one (a question after a reply that ended on tool results, or
 * after a reply that failed with no words): Bedrock, and gateways in front of it, refuse turns
 * that do not alternate. Tool results stay first in their turn, as Anthropic requires; a turn
 * that opens with signed thinking stays its own.
 */
function alternating(turns: readonly AnthropicTurn[]): AnthropicTurn[] {
  const out: AnthropicTurn[] = [];
  for (const turn of turns) {
    const last = out.at(-1);
    const blocks = blocksOf(turn.content);
    if (last === undefined || last.role !== turn.role || blocks[0]?.type === 'thinking') {
      out.push(turn);
      continue;
    }
    out[out.length - 1] = { role: turn.role, content: [...blocksOf(last.content), ...blocks] };
  }
  return out;
}

export function anthropicBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const { system, turns } = splitSystem(request.messages);
  const body: Record<string, unknown> = {
    ...request.extra,
    model: request.model,
    max_tokens: request.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: anthropicMessages(turns),
    stream,
  };
  const tools: unknown[] = (request.tools ?? []).map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  // The gateway's own search: Anthropic's web search server tool.
  if (request.webSearch === true) tools.push({ type: 'web_search_20250305', name: 'web_search', max_uses: 5 });
  if (tools.length > 0) body.tools = tools;
  if (system !== undefined) body.system = system;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  return body;
}

const AnthropicUsage = z.looseObject({
  input_tokens: z.optional(z.nullable(z.number())),
  output_tokens: z.optional(z.nullable(z.number())),
  cache_read_input_tokens: z.optional(z.nullable(z.number())),
  cache_creation_input_tokens: z.optional(z.nullable(z.number())),
});
type AnthropicUsage = z.infer<typeof AnthropicUsage>;

const ContentBlock = z.looseObject({
  type: z.optional(z.string()), text: z.optional(z.string()), thinking: z.optional(z.string()), signature: z.optional(z.string()),
  /** A `tool_use` block's call. */
  id: z.optional(z.string()), name: z.optional(z.string()), input: z.optional(z.unknown()),
  /** A `web_search_tool_result` block's results (`web_search_result`: `url`, `title`). */
  content: z.optional(z.unknown()),
});

const SearchResults = z.array(z.looseObject({ type: z.optional(z.string()), url: z.optional(z.unknown()), title: z.optional(z.unknown()) }));

export const AnthropicEvent = z.looseObject({
  type: z.optional(z.string()),
  index: z.optional(z.nullable(z.number())),
  message: z.optional(z.nullable(z.looseObject({ usage: z.optional(z.nullable(AnthropicUsage)), stop_reason: z.optional(z.nullable(z.string())) }))),
  content_block: z.optional(z.nullable(ContentBlock)),
  delta: z.optional(z.nullable(z.looseObject({
    type: z.optional(z.string()),
    text: z.optional(z.string()),
    thinking: z.optional(z.string()),
    signature: z.optional(z.string()),
    partial_json: z.optional(z.string()),
    /** `citations_delta`: a citation of the text (`web_search_result_location`: `url`, `title`). */
    citation: z.optional(z.unknown()),
    stop_reason: z.optional(z.nullable(z.string())),
  }))),
  usage: z.optional(z.nullable(AnthropicUsage)),
  error: z.optional(z.unknown()),
});
export type AnthropicEvent = z.infer<typeof AnthropicEvent>;

/**
 * The hot path, checked by hand: a text, thinking or signature delta, or a ping (nothing else
 * that `AnthropicEvent` checks). A subset of what the schema accepts.
 */
export function quickAnthropicEvent(value: unknown): AnthropicEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const event = value as Record<string, unknown>;
  if (event.message !== undefined || event.content_block !== undefined || event.usage !== undefined || event.error !== undefined) return undefined;
  if (event.type === 'ping') return event as AnthropicEvent;
  if (event.index !== undefined && event.index !== null && typeof event.index !== 'number') return undefined;
  if (event.type !== 'content_block_delta') return undefined;
  const delta = event.delta;
  if (typeof delta !== 'object' || delta === null || Array.isArray(delta)) return undefined;
  const d = delta as Record<string, unknown>;
  if (typeof d.type !== 'string' || d.stop_reason !== undefined) return undefined;
  if (!isDefinedString(d.text) || !isDefinedString(d.thinking) || !isDefinedString(d.signature) || !isDefinedString(d.partial_json) || d.citation !== undefined) return undefined;
  return event as AnthropicEvent;
}

/** Absent, or a string (the schema's `optional(string)`: null is not allowed). */
function isDefinedString(value: unknown): boolean {
  return value === undefined || typeof value === 'string';
}

/** Anthropic's stop reasons in the words the other interfaces use (others kept as sent). */
const STOP_REASONS: Readonly<Record<string, string>> = { end_turn: 'stop', stop_sequence: 'stop', max_tokens: 'length', tool_use: 'tool_calls', refusal: 'content_filter' };

/** Streamed `POST /messages`. */
export class AnthropicStreamDecoder extends ReplyState {
  private sawStop = false;
  /** The usage as `message_start` and `message_delta` report it, merged. */
  private wireUsage: AnthropicUsage | undefined;

  protected get completed(): boolean {
    return this.sawStop;
  }

  item(item: SseItem, out: StreamEvent[]): boolean {
    return this.jsonItem(item, out, AnthropicEvent, (event, name) => this.acceptEvent(event.type ?? name ?? '', event, out), quickAnthropicEvent);
  }

  private addUsage(usage: AnthropicUsage | null | undefined): void {
    if (usage == null) return;
    const merged: AnthropicUsage = { ...this.wireUsage };
    for (const [key, value] of Object.entries(usage)) if (value != null) (merged as Record<string, unknown>)[key] = value;
    this.wireUsage = merged;
    const cached = merged.cache_read_input_tokens;
    this.usage = normalizeUsage(merged);
    if (cached != null) this.usage.cachedTokens = cached;
  }

  acceptEvent(type: string, event: AnthropicEvent, out: StreamEvent[]): boolean {
    switch (type) {
      case 'message_start':
        this.addUsage(event.message?.usage);
        return false;
      case 'content_block_start': {
        const block = event.content_block;
        if (block?.type === 'text' && block.text !== undefined) this.content(block.text, out);
        else if (block?.type === 'thinking' && block.thinking !== undefined) {
          this.reasoning(block.thinking, out);
          if (block.signature !== undefined) this.thinkingSignature += block.signature;
        } else if (block?.type === 'web_search_tool_result') {
          const results = SearchResults.safeParse(block.content);
          if (results.success) for (const r of results.data) if (r.type === 'web_search_result') this.cite(r.url, r.title);
        } else if (block?.type === 'tool_use') {
          const key = String(event.index ?? this.toolCalls.size);
          this.toolCalls.piece(key, { id: block.id, name: block.name });
          this.toolCalls.whole(key, block.input);
        }
        return false;
      }
      case 'content_block_delta': {
        const delta = event.delta;
        if (delta?.type === 'text_delta' && delta.text !== undefined) this.content(delta.text, out);
        else if (delta?.type === 'thinking_delta' && delta.thinking !== undefined) this.reasoning(delta.thinking, out);
        else if (delta?.type === 'signature_delta' && delta.signature !== undefined) this.thinkingSignature += delta.signature;
        else if (delta?.type === 'citations_delta' && typeof delta.citation === 'object' && delta.citation !== null) {
          const citation = delta.citation as { url?: unknown; title?: unknown };
          this.cite(citation.url, citation.title);
        }
        // A tool call's arguments, in pieces of JSON text.
        else if (delta?.type === 'input_json_delta' && delta.partial_json !== undefined) this.toolCalls.piece(String(event.index ?? 0), { arguments: delta.partial_json });
        return false;
      }
      case 'message_delta': {
        this.addUsage(event.usage);
        // Claude's safety classifiers stopped the reply (or it declined from the start).
        if (event.delta?.stop_reason === 'refusal') this.blocked = blockDetail('reply_blocked', 'refusal');
        const reason = event.delta?.stop_reason;
        if (reason != null) this.finishReason = ownValue(STOP_REASONS, reason) ?? reason;
        return false;
      }
      case 'message_stop':
        this.sawStop = true;
        this.finish(out);
        return true;
      case 'error':
        return this.failWith(bodyFacts(event, this.ctx), out);
      default:
        // ping, content_block_stop, and kinds added later.
        return false;
    }
  }
}

const AnthropicReply = z.looseObject({
  type: z.optional(z.string()),
  content: z.array(ContentBlock),
  stop_reason: z.optional(z.nullable(z.string())),
  usage: z.optional(z.nullable(AnthropicUsage)),
});

/** A non-streamed message: the same events as a stream. */
export function decodeAnthropicBody(value: unknown, ctx: ClassifyContext): StreamEvent[] {
  const parsed = AnthropicReply.safeParse(value);
  if (!parsed.success) throw buildGatewayError('bad_response', {}, ctx, { code: 'no_message' });
  const reply = parsed.data;
  const decoder = new AnthropicStreamDecoder(ctx);
  const out: StreamEvent[] = [];
  decoder.acceptEvent('message_start', { message: { usage: reply.usage } }, out);
  reply.content.forEach((block, index) => decoder.acceptEvent('content_block_start', { index, content_block: block }, out));
  decoder.acceptEvent('message_delta', { delta: { stop_reason: reply.stop_reason ?? 'end_turn' } }, out);
  decoder.acceptEvent('message_stop', {}, out);
  return out;
}

export const anthropicInterface: WireInterface = {
  name: 'anthropic',
  url: ({ baseUrl }) => endpointUrl(baseUrl, '/messages'),
  headers: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }),
  body: anthropicBody,
  streamDecoder: (ctx) => new AnthropicStreamDecoder(ctx),
  decodeBody: decodeAnthropicBody,
};

/**
 * Chat Completions: `POST {base}/chat/completions`, streamed as `data: <chunk>` lines ending with
 * `data: [DONE]` (which may come after an error, or never).
 */
import * as z from 'zod/mini';
import { endpointUrl } from '../address';
import { blockDetail } from '../blocks';
import { buildGatewayError, type ClassifyContext } from '../classify';
import { ReplyState, bodyFacts, errorFacts, normalizeUsage, snippet } from '../decoders';
import type { SseItem } from '../sse';
import type { ChatMessage, ChatRequest, ContentPart, StreamEvent } from '../types';
import { ChatChunk, quickChatChunk, type ToolCallWire } from '../wire';
import { bearer, type WireInterface } from './interface';

function chatContent(content: ChatMessage['content']): unknown {
  if (typeof content === 'string') return content;
  return content.map((part: ContentPart) =>
    part.type === 'text'
      ? { type: 'text', text: part.text }
      // new-api and OpenRouter forward OpenAI's file part as it is.
      : part.type === 'file'
        ? { type: 'file', file: { filename: part.filename, file_data: part.data } }
        : { type: 'image_url', image_url: part.detail === undefined ? { url: part.url } : { url: part.url, detail: part.detail } },
  );
}

function chatMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.toolCalls === undefined || m.toolCalls.length === 0) return { role: m.role, content: chatContent(m.content) };
  const text = typeof m.content === 'string' ? m.content : chatContent(m.content);
  return {
    role: m.role,
    content: text === '' ? null : text,
    // DeepSeek's and Kimi's thinking modes answer 400 to a turn that called tools without its thinking.
    ...(m.reasoning === undefined || m.reasoning.text === '' ? {} : { reasoning_content: m.reasoning.text }),
    tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
  };
}

export function chatCompletionsBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    ...request.extra,
    model: request.model,
    messages: request.messages.map(chatMessage),
    stream,
  };
  if (request.tools !== undefined && request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }
  if (stream && request.includeUsage !== false) body.stream_options = { include_usage: true };
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
  return body;
}

const FilterResults = z.record(z.string(), z.looseObject({ filtered: z.optional(z.nullable(z.boolean())) }));

/**
 * Why a `content_filter` finish was met: OpenRouter's `native_finish_reason` (Gemini's `SAFETY`,
 * …) where it sends one, and the category Azure's `content_filter_results` marks `filtered`.
 */
function filterDetail(choice: Record<string, unknown>) {
  const native = choice.native_finish_reason;
  const results = FilterResults.safeParse(choice.content_filter_results);
  const category = results.success ? Object.entries(results.data).find(([, r]) => r.filtered === true)?.[0] : undefined;
  return blockDetail('reply_blocked', typeof native === 'string' && native !== '' ? native : 'content_filter', category);
}

/** Streamed `POST /chat/completions`. */
export class ChatStreamDecoder extends ReplyState {
  private sawDone = false;
  protected override readonly holdsErrors = true;

  protected get completed(): boolean {
    return this.sawDone || this.finishReason !== undefined;
  }

  item(item: SseItem, out: StreamEvent[]): boolean {
    if (this.over) return true;
    // A plain `data:` message (every token) skips the checks for the rare kinds.
    if (item.kind !== 'message' || item.event !== undefined) {
      const handled = this.common(item, out);
      if (handled !== undefined) return handled;
      if (item.kind !== 'message') return false;
    }
    const data = item.data;
    if (data === '[DONE]' || (data.length < 16 && data.trim() === '[DONE]')) {
      this.sawDone = true;
      if (this.held !== undefined) this.fail(this.held, out);
      else this.finish(out);
      return true;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      // Keep-alive words (`data: ping`) are not chunks; a cut or garbled JSON chunk is a broken stream.
      return /^\s*[[{]/.test(data) ? this.malformed({ code: 'chunk_not_json', text: snippet(data, this.ctx) }, out) : false;
    }
    const quick = quickChatChunk(value);
    if (quick !== undefined) return this.acceptChunk(quick, out);
    const chunk = ChatChunk.safeParse(value);
    if (!chunk.success) return this.malformed({ code: 'chunk_wrong_shape', text: snippet(data, this.ctx) }, out);
    return this.acceptChunk(chunk.data, out);
  }

  /** Pieces of tool calls, by their index (or their place in the list where a gateway leaves the index out). */
  private takeToolCalls(calls: readonly ToolCallWire[]): void {
    calls.forEach((call, i) => {
      const args = call.function?.arguments;
      const key = String(call.index ?? i);
      this.toolCalls.piece(key, { id: call.id, name: call.function?.name, arguments: typeof args === 'string' ? args : undefined });
      if (args != null && typeof args === 'object') this.toolCalls.whole(key, args);
    });
  }

  /** One parsed chunk (or a whole non-streamed completion). */
  acceptChunk(chunk: ChatChunk, out: StreamEvent[]): boolean {
    if (chunk.usage != null) this.usage = normalizeUsage(chunk.usage);
    // After the gateway's error only its usage counts; no more text is taken as the reply.
    if (this.held !== undefined) return false;
    if (chunk.error != null) return this.failWith(errorFacts(chunk.error), out);
    const choice = chunk.choices?.[0];
    if (choice == null) return false;
    const delta = choice.delta ?? choice.message;
    if (delta != null) {
      const thinking = delta.reasoning_content ?? delta.reasoning;
      if (thinking != null) this.reasoning(thinking, out);
      const content = delta.content;
      if (typeof content === 'string') this.content(content, out);
      if (delta.tool_calls != null) this.takeToolCalls(delta.tool_calls);
    }
    const finish = choice.finish_reason;
    if (finish != null && finish !== '') {
      if (finish === 'error') {
        if (choice.error !== undefined) return this.failWith(bodyFacts({ error: choice.error }, this.ctx), out);
        return this.failWith({}, out, { code: 'upstream_failed' });
      }
      if (finish === 'content_filter') this.blocked = filterDetail(choice);
      this.finishReason = finish;
    }
    return false;
  }
}

/** A non-streamed chat completion: the same events as a stream. */
export function decodeChatBody(value: unknown, ctx: ClassifyContext): StreamEvent[] {
  const parsed = ChatChunk.safeParse(value);
  const choice = parsed.success ? parsed.data.choices?.[0] : undefined;
  if (!parsed.success || choice?.message == null) {
    throw buildGatewayError('bad_response', {}, ctx, { code: 'no_message' });
  }
  const decoder = new ChatStreamDecoder(ctx);
  const out: StreamEvent[] = [];
  const { content, reasoning_content, reasoning } = choice.message;
  const text = Array.isArray(content) ? content.map((part) => part.text ?? '').join('') : content;
  const asChunk: ChatChunk = {
    usage: parsed.data.usage,
    // A filtered completion's reasons travel with its finish, as in a stream.
    choices: [{
      delta: { content: text, reasoning_content, reasoning, tool_calls: choice.message.tool_calls }, finish_reason: choice.finish_reason ?? 'stop',
      content_filter_results: choice.content_filter_results, native_finish_reason: choice.native_finish_reason,
    }],
  };
  if (!decoder.acceptChunk(asChunk, out)) decoder.end(out);
  return out;
}

export const chatInterface: WireInterface = {
  name: 'chat',
  url: ({ baseUrl }) => endpointUrl(baseUrl, '/chat/completions'),
  headers: bearer,
  body: chatCompletionsBody,
  streamDecoder: (ctx) => new ChatStreamDecoder(ctx),
  decodeBody: decodeChatBody,
};

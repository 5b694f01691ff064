/** The Responses API: `POST {base}/responses`, streamed as `event: <type>` + `data: <json>`, no `[DONE]`. */
import { endpointUrl } from '../address';
import { blockDetail } from '../blocks';
import { buildGatewayError, type ClassifyContext } from '../classify';
import { ReplyState, bodyFacts, errorFacts, normalizeUsage, parseJson, snippet } from '../decoders';
import type { SseItem } from '../sse';
import type { ChatMessage, ChatRequest, StreamEvent, TextMessage } from '../types';
import { ResponsesEvent, ResponsesReply, quickResponsesEvent } from '../wire';
import { bearer, textOf, type WireInterface } from './interface';

function responsesContent(message: TextMessage): unknown {
  if (typeof message.content === 'string' || message.role === 'assistant') return textOf(message.content);
  return message.content.map((part) =>
    part.type === 'text'
      ? { type: 'input_text', text: part.text }
      : part.type === 'file'
        ? { type: 'input_file', filename: part.filename, file_data: part.data }
        : { type: 'input_image', image_url: part.url, detail: part.detail ?? 'auto' },
  );
}

/** A turn as input items: a tool call and its output are items of their own, after the turn's text. */
function responsesItems(m: ChatMessage): unknown[] {
  if (m.role === 'tool') return [{ type: 'function_call_output', call_id: m.toolCallId, output: m.content }];
  const calls = (m.toolCalls ?? []).map((c) => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments }));
  const text = m.toolCalls !== undefined && textOf(m.content) === '' ? [] : [{ role: m.role, content: responsesContent(m) }];
  return [...text, ...calls];
}

export function responsesBody(request: ChatRequest, stream: boolean): Record<string, unknown> {
  const system = request.messages.filter((m) => m.role === 'system').map((m) => textOf(m.content));
  const turns = request.messages.filter((m) => m.role !== 'system');
  const only = turns.length === 1 ? turns[0] : undefined;
  const body: Record<string, unknown> = {
    ...request.extra,
    model: request.model,
    // The seed's form is a string; a conversation or an image needs the list form.
    input: only !== undefined && only.role === 'user' && typeof only.content === 'string'
      ? only.content
      : turns.flatMap(responsesItems),
    stream,
  };
  const tools: unknown[] = (request.tools ?? []).map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters }));
  // The gateway's own search (OpenAI's hosted tool, passed on by new-api and OpenRouter).
  if (request.webSearch === true) tools.push({ type: 'web_search' });
  if (tools.length > 0) body.tools = tools;
  if (system.length > 0) body.instructions = system.join('\n\n');
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
  return body;
}

/** Streamed `POST /responses`: `event: <type>` + `data: <json>`, no `[DONE]`. */
export class ResponsesStreamDecoder extends ReplyState {
  private sawCompleted = false;

  protected get completed(): boolean {
    return this.sawCompleted;
  }

  item(item: SseItem, out: StreamEvent[]): boolean {
    if (this.over) return true;
    const handled = this.common(item, out);
    if (handled !== undefined) return handled;
    if (item.kind !== 'message') return false;
    const data = item.data.trim();
    if (data === '' || data === '[DONE]') {
      if (data === '[DONE]' && this.sawCompleted) {
        this.finish(out);
        return true;
      }
      return false;
    }
    const parsed = parseJson(data);
    if (!parsed.ok) return /^[[{]/.test(data) ? this.malformed({ code: 'chunk_not_json', text: snippet(data, this.ctx) }, out) : false;
    const quick = quickResponsesEvent(parsed.value);
    if (quick !== undefined) return this.acceptEvent(quick.type ?? item.event ?? '', quick, out);
    const event = ResponsesEvent.safeParse(parsed.value);
    if (!event.success) return this.malformed({ code: 'chunk_wrong_shape', text: snippet(data, this.ctx) }, out);
    return this.acceptEvent(event.data.type ?? item.event ?? '', event.data, out);
  }

  /** One parsed event, by its type. */
  acceptEvent(type: string, event: ResponsesEvent, out: StreamEvent[]): boolean {
    switch (type) {
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        if (typeof event.delta === 'string') this.content(event.delta, out);
        return false;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (typeof event.delta === 'string') this.reasoning(event.delta, out);
        return false;
      // A function call: its item starts it, argument deltas follow, its `.done` gives the whole.
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const call = event.item;
        if (call?.type !== 'function_call') return false;
        // Keyed by the item (its call id may come only with `.done`): one item, one call.
        const key = call.id ?? call.call_id ?? String(event.output_index ?? 0);
        this.toolCalls.piece(key, { id: call.call_id ?? call.id, name: call.name }, true);
        if (type === 'response.output_item.done') this.toolCalls.whole(key, call.arguments);
        return false;
      }
      case 'response.output_text.annotation.added':
        if (event.annotation?.type === 'url_citation') this.cite(event.annotation.url, event.annotation.title);
        return false;
      case 'response.function_call_arguments.delta':
        if (typeof event.delta === 'string' && typeof event.item_id === 'string') this.toolCalls.piece(event.item_id, { arguments: event.delta }, true);
        return false;
      case 'response.function_call_arguments.done':
        if (typeof event.item_id === 'string') this.toolCalls.whole(event.item_id, event.arguments);
        return false;
      case 'response.completed':
      case 'response.incomplete': {
        const response = event.response;
        if (response?.usage != null) this.usage = normalizeUsage(response.usage);
        // A reply cut at the token limit ends as 'length', as it does through every interface.
        const reason = response?.incomplete_details?.reason ?? 'incomplete';
        this.finishReason = type === 'response.completed' ? 'stop' : reason === 'max_output_tokens' ? 'length' : reason;
        if (type === 'response.incomplete' && reason === 'content_filter') this.blocked = blockDetail('reply_blocked', reason);
        this.sawCompleted = true;
        this.finish(out);
        return true;
      }
      case 'response.failed': {
        const response = event.response;
        if (response?.usage != null) this.usage = normalizeUsage(response.usage);
        const error = response?.error;
        return error != null ? this.failWith(errorFacts(error), out) : this.failWith({}, out, { code: 'response_failed' });
      }
      case 'error':
        return this.failWith(bodyFacts(event, this.ctx), out);
      default:
        return false;
    }
  }
}

/** A non-streamed Responses reply: the same events as a stream. */
export function decodeResponsesBody(value: unknown, ctx: ClassifyContext): StreamEvent[] {
  const parsed = ResponsesReply.safeParse(value);
  if (!parsed.success || (parsed.data.output == null && parsed.data.output_text == null)) {
    throw buildGatewayError('bad_response', {}, ctx, { code: 'no_message' });
  }
  const reply = parsed.data;
  const out: StreamEvent[] = [];
  const decoder = new ResponsesStreamDecoder(ctx);
  let sawText = false;
  for (const item of reply.output ?? []) {
    if (item.type === 'function_call') {
      decoder.acceptEvent('response.output_item.done', { item }, out);
      continue;
    }
    for (const part of item.summary ?? []) {
      if (typeof part.text === 'string') decoder.acceptEvent('response.reasoning_summary_text.delta', { delta: part.text }, out);
    }
    for (const part of item.content ?? []) {
      if (typeof part.text !== 'string') continue;
      if (item.type === 'reasoning') {
        decoder.acceptEvent('response.reasoning_text.delta', { delta: part.text }, out);
      } else if (part.type === 'output_text' || part.type === 'refusal' || part.type === undefined) {
        sawText = true;
        decoder.acceptEvent('response.output_text.delta', { delta: part.text }, out);
        for (const annotation of part.annotations ?? []) decoder.acceptEvent('response.output_text.annotation.added', { annotation }, out);
      }
    }
  }
  if (!sawText && typeof reply.output_text === 'string') {
    decoder.acceptEvent('response.output_text.delta', { delta: reply.output_text }, out);
  }
  const response = { usage: reply.usage, error: reply.error, incomplete_details: reply.incomplete_details };
  const last = reply.status === 'failed' ? 'response.failed' : reply.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  decoder.acceptEvent(last, { response }, out);
  return out;
}

export const responsesInterface: WireInterface = {
  name: 'responses',
  url: ({ baseUrl }) => endpointUrl(baseUrl, '/responses'),
  headers: bearer,
  body: responsesBody,
  streamDecoder: (ctx) => new ResponsesStreamDecoder(ctx),
  decodeBody: decodeResponsesBody,
};

/**
 * Turning what a gateway sends into `StreamEvent`s: streamed Chat Completions chunks,
 * Responses API events, and the non-streamed bodies of both (which yield the same events).
 * Every decoder ends with exactly one `done` or one `error`, after the text received so far.
 */
import { buildGatewayError, factsFromObject, streamErrorFrom, type ClassifyContext, type ErrorFacts } from './classify';
import { redactSecrets, type ErrorDetail, type GatewayError } from './errors';
import type { SseItem } from './sse';
import { ThinkTagSplitter } from './think-tags';
import type { StreamEvent, Usage } from './types';
import { ChatChunk, ResponsesEvent, ResponsesReply, quickChatChunk, type ErrorObject, type UsageWire } from './wire';

export function normalizeUsage(wire: UsageWire): Usage {
  const usage: Usage = { raw: wire as Record<string, unknown> };
  const prompt = wire.prompt_tokens ?? wire.input_tokens;
  const completion = wire.completion_tokens ?? wire.output_tokens;
  if (prompt != null) usage.promptTokens = prompt;
  if (completion != null) usage.completionTokens = completion;
  const total = wire.total_tokens ?? (prompt != null && completion != null ? prompt + completion : undefined);
  if (total != null) usage.totalTokens = total;
  const reasoning = wire.completion_tokens_details?.reasoning_tokens ?? wire.output_tokens_details?.reasoning_tokens;
  if (reasoning != null) usage.reasoningTokens = reasoning;
  const cached = wire.prompt_tokens_details?.cached_tokens ?? wire.input_tokens_details?.cached_tokens;
  if (cached != null) usage.cachedTokens = cached;
  const cost = typeof wire.cost === 'string' ? Number(wire.cost) : wire.cost;
  if (cost != null && Number.isFinite(cost)) usage.cost = cost;
  return usage;
}

function errorFacts(error: ErrorObject | string): ErrorFacts {
  return typeof error === 'string' ? { message: error } : factsFromObject(error);
}

function parseJson(data: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(data) };
  } catch {
    return { ok: false };
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A short quote of what the gateway sent, for an error's detail: the key removed first, then cut. */
function snippet(text: string, ctx: ClassifyContext): string {
  const safe = redactSecrets(text, ctx.apiKey);
  return safe.length > 120 ? `${safe.slice(0, 120)}…` : safe;
}

export interface ReplyDecoder {
  /** Handles one item of the stream. Returns true once the reply is over. */
  item(item: SseItem, out: StreamEvent[]): boolean;
  /** The body ended (cleanly) without the decoder having said the reply is over. */
  end(out: StreamEvent[]): void;
  /** The stream failed from outside (network, timeout, abort): keep what came, then the error. */
  fail(error: GatewayError, out: StreamEvent[]): void;
  /** Before a batch of items: whether their text can hold a code fence's marks at all. */
  fenceMarksPossible(possible: boolean): void;
  /**
   * True once the gateway has reported an error in the stream and the decoder only waits for
   * what may follow it (new-api's usage chunk, `[DONE]`): the caller gives that a short time.
   */
  readonly settling: boolean;
}

/** What both stream formats share: think-tag splitting, usage, and how a reply ends. */
abstract class ReplyState implements ReplyDecoder {
  protected usage: Usage | undefined;
  protected finishReason: string | undefined;
  protected over = false;
  /** An error the gateway sent, held until the stream ends so that usage after it still counts. */
  protected held: GatewayError | undefined;
  /** Whether an in-stream error waits for the rest of the stream (chat) or ends the reply at once. */
  protected readonly holdsErrors: boolean = false;
  private readonly splitter = new ThinkTagSplitter();

  constructor(protected readonly ctx: ClassifyContext) {}

  abstract item(item: SseItem, out: StreamEvent[]): boolean;
  protected abstract get completed(): boolean;

  get settling(): boolean {
    return this.held !== undefined && !this.over;
  }

  fenceMarksPossible(possible: boolean): void {
    this.splitter.fenceMarks = possible;
  }

  end(out: StreamEvent[]): void {
    if (this.over) return;
    if (this.held !== undefined) {
      this.fail(this.held, out);
    } else if (this.completed) {
      this.finish(out);
    } else {
      this.fail(buildGatewayError('network', {}, this.ctx, { code: 'connection_dropped', params: { origin: originOf(this.ctx.url) } }), out);
    }
  }

  fail(error: GatewayError, out: StreamEvent[]): void {
    if (this.over) return;
    this.flushText(out);
    if (this.usage !== undefined) out.push({ type: 'usage', usage: this.usage });
    // The gateway's own error stands, whatever ended the stream after it.
    out.push({ type: 'error', error: this.held ?? error });
    this.over = true;
  }

  protected finish(out: StreamEvent[]): void {
    this.flushText(out);
    if (this.usage !== undefined) out.push({ type: 'usage', usage: this.usage });
    out.push(this.finishReason === undefined ? { type: 'done' } : { type: 'done', finishReason: this.finishReason });
    this.over = true;
  }

  protected content(text: string, out: StreamEvent[]): void {
    if (text === '') return;
    this.splitter.push(text, out);
  }

  protected reasoning(text: string, out: StreamEvent[]): void {
    if (text === '') return;
    if (!this.reasoningSeparate) {
      this.reasoningSeparate = true;
      this.splitter.separateReasoning();
    }
    out.push({ type: 'reasoning', text });
  }

  private reasoningSeparate = false;

  /** An error the gateway sent in the stream. */
  protected failWith(facts: ErrorFacts, out: StreamEvent[], detail?: ErrorDetail): boolean {
    const error = streamErrorFrom(facts, this.ctx, detail);
    if (!this.holdsErrors) {
      this.fail(error, out);
      return true;
    }
    // Text so far goes out now; the error waits for a usage chunk or the end of the stream.
    this.held ??= error;
    this.flushText(out);
    return false;
  }

  protected malformed(detail: ErrorDetail, out: StreamEvent[]): boolean {
    this.fail(buildGatewayError('bad_response', {}, this.ctx, detail), out);
    return true;
  }

  /** Items every format treats alike; returns undefined when the item is a message to decode. */
  protected common(item: SseItem, out: StreamEvent[]): boolean | undefined {
    if (item.kind === 'overflow') return this.malformed({ code: 'event_too_large', params: { megabytes: 16 } }, out);
    if (item.kind === 'field') {
      if (item.field !== 'error') return false;
      // llama.cpp's non-standard `error: {…}` line.
      const parsed = parseJson(item.value);
      return this.failWith(parsed.ok ? bodyFacts(parsed.value, this.ctx) : { message: item.value }, out);
    }
    if (item.event === 'error') {
      const parsed = parseJson(item.data);
      return this.failWith(parsed.ok ? bodyFacts(parsed.value, this.ctx) : { message: item.data }, out);
    }
    return undefined;
  }

  private flushText(out: StreamEvent[]): void {
    this.splitter.flush(out);
  }
}

/** `{"error":…}`, `{"type":"error","code","message"}`, or a bare `{message,code}` object. */
function bodyFacts(value: unknown, ctx: ClassifyContext): ErrorFacts {
  const parsed = ResponsesEvent.safeParse(value);
  if (!parsed.success) return { message: snippet(JSON.stringify(value), ctx) };
  const event = parsed.data;
  if (event.error !== undefined && event.error !== null) return errorFacts(event.error);
  return factsFromObject({ message: event.message, code: event.code, param: event.param, type: event.type === 'error' ? undefined : event.type });
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
    }
    const finish = choice.finish_reason;
    if (finish != null && finish !== '') {
      if (finish === 'error') {
        if (choice.error !== undefined) return this.failWith(bodyFacts({ error: choice.error }, this.ctx), out);
        return this.failWith({}, out, { code: 'upstream_failed' });
      }
      this.finishReason = finish;
    }
    return false;
  }
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
      case 'response.completed':
      case 'response.incomplete': {
        const response = event.response;
        if (response?.usage != null) this.usage = normalizeUsage(response.usage);
        this.finishReason = type === 'response.completed'
          ? 'stop'
          : response?.incomplete_details?.reason ?? 'incomplete';
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
    choices: [{ delta: { content: text, reasoning_content, reasoning }, finish_reason: choice.finish_reason ?? 'stop' }],
  };
  if (!decoder.acceptChunk(asChunk, out)) decoder.end(out);
  return out;
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

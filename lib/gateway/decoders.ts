/**
 * What every interface's decoder shares (interfaces/*.ts hold one decoder each): think-tag
 * splitting, usage, errors held or raised, and how a reply ends. Every decoder ends with exactly
 * one `done` or one `error`, after the text received so far.
 */
import { buildGatewayError, factsFromObject, streamErrorFrom, type ClassifyContext, type ErrorFacts } from './classify';
import { redactSecrets, type ErrorDetail, type GatewayError } from './errors';
import type { SseItem } from './sse';
import { ThinkTagSplitter } from './think-tags';
import { ToolCallAssembler } from './tool-calls';
import type { ReplySource, StreamEvent, Usage } from './types';
import { ResponsesEvent, type ErrorObject, type UsageWire } from './wire';

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

export function errorFacts(error: ErrorObject | string): ErrorFacts {
  return typeof error === 'string' ? { message: error } : factsFromObject(error);
}

export function parseJson(data: string): { ok: true; value: unknown } | { ok: false } {
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
export function snippet(text: string, ctx: ClassifyContext): string {
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

/** What every stream format shares: think-tag splitting, usage, and how a reply ends. */
export abstract class ReplyState implements ReplyDecoder {
  protected usage: Usage | undefined;
  protected finishReason: string | undefined;
  /** The signature of the reply's thinking, where the interface signs it. */
  protected thinkingSignature = '';
  protected over = false;
  /** An error the gateway sent, held until the stream ends so that usage after it still counts. */
  protected held: GatewayError | undefined;
  /**
   * The model's filter stopped the reply (a blocking finish reason): however the stream ends, it
   * ends as `content_blocked`, never as done. The text before the block is kept, as for any error.
   */
  protected blocked: ErrorDetail | undefined;
  /** Whether an in-stream error waits for the rest of the stream (chat) or ends the reply at once. */
  protected readonly holdsErrors: boolean = false;
  /** The reply's tool calls, assembled from their pieces; they go out just before `done`. */
  protected readonly toolCalls = new ToolCallAssembler();
  /** Pages the gateway's own search cited, each once, in the order cited; they go out before `done`. */
  private readonly sources = new Map<string, ReplySource>();
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
    if (this.blocked !== undefined) {
      this.fail(buildGatewayError('content_blocked', {}, this.ctx, this.blocked), out);
      return;
    }
    this.flushText(out);
    for (const call of this.toolCalls.drain()) out.push({ type: 'tool_call', call });
    if (this.sources.size > 0) out.push({ type: 'sources', sources: [...this.sources.values()] });
    if (this.usage !== undefined) out.push({ type: 'usage', usage: this.usage });
    const done: StreamEvent & { type: 'done' } = { type: 'done' };
    if (this.finishReason !== undefined) done.finishReason = this.finishReason;
    if (this.thinkingSignature !== '') done.signature = this.thinkingSignature;
    out.push(done);
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

  /** A page the answer cites (only http(s) addresses; the first title given for it stands). */
  protected cite(url: unknown, title: unknown): void {
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || this.sources.has(url)) return;
    this.sources.set(url, { url, title: typeof title === 'string' && title.trim() !== '' ? title.trim() : url });
  }

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

  /**
   * An item of a stream whose messages are JSON objects of one shape (Responses, Anthropic,
   * Gemini): the common kinds first, then the object checked and handed to `accept` with the
   * message's `event:` name. Blank data and a stray `[DONE]` are skipped.
   */
  protected jsonItem<T>(
    item: SseItem, out: StreamEvent[], schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
    accept: (value: T, event: string | undefined) => boolean,
    /** The common case checked by hand (a subset of what the schema accepts), else undefined. */
    quick?: (value: unknown) => T | undefined,
  ): boolean {
    if (this.over) return true;
    const handled = this.common(item, out);
    if (handled !== undefined) return handled;
    if (item.kind !== 'message') return false;
    const data = item.data.trim();
    if (data === '' || data === '[DONE]') return false;
    const parsed = parseJson(data);
    if (!parsed.ok) return /^[[{]/.test(data) ? this.malformed({ code: 'chunk_not_json', text: snippet(data, this.ctx) }, out) : false;
    const fast = quick?.(parsed.value);
    if (fast !== undefined) return accept(fast, item.event);
    const value = schema.safeParse(parsed.value);
    if (!value.success) return this.malformed({ code: 'chunk_wrong_shape', text: snippet(data, this.ctx) }, out);
    return accept(value.data, item.event);
  }

  private flushText(out: StreamEvent[]): void {
    this.splitter.flush(out);
  }
}

/** `{"error":…}`, `{"type":"error","code","message"}`, or a bare `{message,code}` object. */
export function bodyFacts(value: unknown, ctx: ClassifyContext): ErrorFacts {
  const parsed = ResponsesEvent.safeParse(value);
  if (!parsed.success) return { message: snippet(JSON.stringify(value), ctx) };
  const event = parsed.data;
  if (event.error !== undefined && event.error !== null) return errorFacts(event.error);
  return factsFromObject({ message: event.message, code: event.code, param: event.param, type: event.type === 'error' ? undefined : event.type });
}

/**
 * The gateway client: `GET /models`, a reply through any interface (interfaces/: Chat
 * Completions, Responses, Anthropic Messages, Gemini) as one stream of `StreamEvent`s, and the
 * key's balance and the models' prices where the gateway tells them (billing.ts).
 * Framework-free: runs in the service worker, pages and Node.
 *
 * The key is sent only to `baseUrl`'s origin: redirects are not followed (a redirect would
 * carry the request elsewhere), and no error, message or log line holds the key.
 */
import { endpointUrl } from './address';
import { buildGatewayError, errorFactsFromBody, errorFromHttpResponse, classifyFacts, type ClassifyContext } from './classify';
import type { ReplyDecoder } from './decoders';
import { GatewayError, type ErrorDetail, type GatewayErrorKind } from './errors';
import { BALANCE_SOURCES, type Balance, type BalanceSource, type PriceList } from './billing';
import {
  DEFAULT_DISPLAY, parseBillingPair, parseDisplayMode, parseNewApiPricing, parseOpenRouterKey, parseOpenRouterPricing, parseTokenUsage, type DisplayMode,
} from './billing-answers';
import { decodeImagesBody, imageEditForm, imageGenerationBody, sniffImageType, streamsImages, ImageStreamDecoder, type ImageEditRequest, type ImageEvent, type ImageRequest } from './images';
import { parseModelList } from './models';
import { base64ToBytes } from '../images/inline';
import { decodeTranscription, speechBody, speechType, transcriptionForm, type SpeechRequest, type TranscriptionRequest } from './audio';
import { bearer } from './interfaces/interface';
import { WIRE_INTERFACES, type WireInterface } from './interfaces';
import { ReplyMeter } from './reply-cap';
import { readSse, StreamTimeout, StreamTooLarge } from './sse';
import type { ChatRequest, ModelInfo, StreamEvent } from './types';

export interface GatewayClientOptions {
  /** {base_url}, as `resolveGatewayAddress` gives it. */
  baseUrl: string;
  apiKey: string;
  /** {site_url}, for the links in error remedies; derived from `baseUrl` when absent. */
  siteUrl?: string;
  fetch?: typeof fetch;
  /** Deadlines and size caps; each has a default (`DEFAULT_LIMITS`). */
  limits?: Partial<GatewayLimits>;
}

/** Every wait has an end and every body a size (milliseconds and bytes). */
export interface GatewayLimits {
  /** From sending the request to the response headers. */
  headersTimeoutMs: number;
  /** From sending a chat request to its first words (text or reasoning); comments do not count. */
  firstTokenTimeoutMs: number;
  /** Between two pieces of a streamed reply once it has begun; comments (`: ping`) do not count. */
  idleTimeoutMs: number;
  /** From sending a chat request to the reply's end: a reply still streaming then ends, what arrived kept. */
  totalTimeoutMs: number;
  /** From the headers to the end of a body that is not streamed (`/models`, JSON replies, errors). */
  bodyTimeoutMs: number;
  /** The largest body that is not streamed. */
  maxBodyBytes: number;
  /** The largest streamed body, all events together, as sent (a transport guard: see `maxReplyBytes`). */
  maxStreamBytes: number;
  /**
   * The largest reply: its text and reasoning, in UTF-8 bytes. This, not the stream's bytes, is
   * what a page draws and storage keeps; a stream carries some 200 bytes of JSON per token of
   * text, so a cap on the stream's bytes would cut a legitimate 40,000-token reply at 8 MiB.
   */
  maxReplyBytes: number;
  /**
   * Image calls (`/images/generations`, `/images/edits`): from sending the request to the answer
   * or its first image event, headers included, and between two images of a stream. Image models
   * may take minutes, so this replaces the chat deadlines for them.
   */
  imageTimeoutMs: number;
}

export const DEFAULT_LIMITS: GatewayLimits = {
  headersTimeoutMs: 120_000,
  firstTokenTimeoutMs: 120_000,
  idleTimeoutMs: 90_000,
  totalTimeoutMs: 30 * 60_000,
  bodyTimeoutMs: 60_000,
  maxBodyBytes: 32 * 1024 * 1024,
  maxStreamBytes: 64 * 1024 * 1024,
  maxReplyBytes: 8 * 1024 * 1024,
  imageTimeoutMs: 180_000,
};

/** After an in-stream error, how long to wait for the usage chunk new-api sends after it. */
const SETTLE_MS = 2_000;

export interface CallOptions {
  signal?: AbortSignal;
}

export interface BalanceOptions extends CallOptions {
  /**
   * What worked for this profile before (tried first), or `none`: the gateway exposes no
   * balance to this key, and nothing is asked.
   */
  known?: BalanceSource | 'none';
}

export interface GatewayClient {
  readonly baseUrl: string;
  readonly siteUrl: string;
  listModels(options?: CallOptions): Promise<ModelInfo[]>;
  streamChat(request: ChatRequest, options?: CallOptions): AsyncIterable<StreamEvent>;
  /**
   * The key's balance, from the first source the gateway answers (new-api's token usage, the
   * `dashboard/billing` pair, OpenRouter's key): null when it exposes none. Throws only what is
   * not "not supported": a bad key, a gateway that cannot be reached, a deadline, a stop.
   */
  getBalance(options?: BalanceOptions): Promise<Balance | null>;
  /** Each model's price per 1M tokens (new-api's `/api/pricing`, else OpenRouter's `/models`), or null. */
  getPricing(options?: CallOptions): Promise<PriceList | null>;
  /**
   * `POST {base}/images/generations`: the images as they come (partials first when streamed),
   * then `usage` when told, then `done`. As with `streamChat`, a refusal before any answer is
   * thrown as a GatewayError; once a stream has begun, a failure is its last event (`error`).
   */
  generateImages(request: ImageRequest, options?: CallOptions): AsyncIterable<ImageEvent>;
  /** `POST {base}/images/edits` (multipart), answered as `generateImages` is. */
  editImages(request: ImageEditRequest, options?: CallOptions): AsyncIterable<ImageEvent>;
  /**
   * GET an image the gateway answered with by address (`data[].url`): no key, no cookies, within
   * the deadlines and the largest body; a Blob of the image's type. A `data:` address is decoded
   * here. Throws a GatewayError (`image_download_failed` when the address gave no image).
   */
  fetchImage(url: string, options?: CallOptions): Promise<Blob>;
  /**
   * `POST {base}/audio/speech`: `input` spoken, as a Blob of its audio type, within the deadlines
   * and the largest body. Throws a GatewayError (`not_audio` when the answer was something else).
   */
  speak(request: SpeechRequest, options?: CallOptions): Promise<Blob>;
  /** `POST {base}/audio/transcriptions` (multipart): the recording's transcript. Throws a GatewayError. */
  transcribe(request: TranscriptionRequest, options?: CallOptions): Promise<string>;
}

/** Balance and prices are extras: each question gets this long in all. */
export const BILLING_TIMEOUT_MS = 10_000;

/** Failures that mean more than "this gateway does not answer that here". */
const REAL_FAILURES: ReadonlySet<GatewayErrorKind> = new Set(['invalid_key', 'aborted', 'network', 'timeout']);

const ERROR_BODY_LIMIT = 64 * 1024;

/** A read without a backtick or tilde cannot open a code fence in any delta it carries. */
function mayHoldFence(raw: string): boolean {
  return raw.includes('`') || raw.includes('~');
}

function isPiece(event: StreamEvent): boolean {
  return event.type === 'text' || event.type === 'reasoning';
}

/**
 * The status with which a gateway said it has no route for an interface (404 or 405 naming no
 * model: a missing model is the model's problem, not the route's), or undefined for any other
 * failure. Said before any reply, so asking again elsewhere repeats nothing.
 */
export function routeNotServed(error: unknown): number | undefined {
  if (!(error instanceof GatewayError) || error.kind !== 'bad_address') return undefined;
  return error.status === 404 || error.status === 405 ? error.status : undefined;
}

/** One request in flight: its abort controller, why it was aborted, and its clean-up. */
class Call {
  readonly controller = new AbortController();
  private reason: 'user' | 'timeout' | undefined;
  private timeoutDetail: ErrorDetail | undefined;
  private readonly onUserAbort = (): void => this.abort('user');

  constructor(private readonly userSignal: AbortSignal | undefined) {
    if (userSignal?.aborted === true) this.abort('user');
    else userSignal?.addEventListener('abort', this.onUserAbort, { once: true });
  }

  abort(reason: 'user' | 'timeout', detail?: ErrorDetail): void {
    if (this.reason === undefined) {
      this.reason = reason;
      this.timeoutDetail = detail;
    }
    this.controller.abort();
  }

  /** The GatewayError for a failure seen while fetching or reading. */
  errorFor(error: unknown, ctx: ClassifyContext, phase: 'connect' | 'stream'): GatewayError {
    if (error instanceof GatewayError) return error;
    if (this.reason === 'user' || this.userSignal?.aborted === true) {
      return buildGatewayError('aborted', {}, ctx, { code: phase === 'connect' ? 'stopped_before_answer' : 'stopped_while_streaming' });
    }
    if (this.reason === 'timeout' || error instanceof StreamTimeout) {
      const detail = error instanceof StreamTimeout ? error.detail : this.timeoutDetail ?? { code: 'headers_timeout' };
      return buildGatewayError('timeout', {}, ctx, detail);
    }
    const origin = safeOrigin(ctx.url);
    const cause = describeCause(error);
    const params: Record<string, string> = cause === undefined ? { origin } : { origin, cause };
    return buildGatewayError('network', {}, ctx, { code: phase === 'connect' ? 'connect_failed' : 'connection_dropped', params });
  }

  dispose(): void {
    this.userSignal?.removeEventListener('abort', this.onUserAbort);
  }
}

function addressWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'data:' ? 'data:' : parsed.origin + parsed.pathname;
  } catch {
    return url.slice(0, 100);
  }
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** The platform's code for a failed fetch (Node's ECONNREFUSED, …), when it gives one. */
function describeCause(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** Seconds, for a deadline's detail (a sub-second deadline, used by tests, shows as a fraction). */
function seconds(ms: number): number {
  return ms < 1000 ? ms / 1000 : Math.round(ms / 1000);
}

function megabytes(bytes: number): number {
  return Number((bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 0));
}

/** Minutes, for the total deadline's detail (a deadline shorter than a minute, used by tests, shows as a fraction). */
function minutes(ms: number): number {
  return ms % 60_000 === 0 ? ms / 60_000 : Number((ms / 60_000).toFixed(4));
}

/**
 * Adjacent pieces of one kind that came in one read become one event (what arrived together is
 * handed on together): a read of many small deltas costs the consumer one step, not one each.
 */
export function coalesce(events: StreamEvent[]): void {
  let kept = 0;
  for (const event of events) {
    const previous = kept > 0 ? events[kept - 1] : undefined;
    if (previous?.type === 'text' && event.type === 'text') {
      events[kept - 1] = { type: 'text', text: previous.text + event.text };
    } else if (previous?.type === 'reasoning' && event.type === 'reasoning' && event.movedFromText !== true) {
      events[kept - 1] = { ...previous, text: previous.text + event.text };
    } else {
      events[kept++] = event;
    }
  }
  events.length = kept;
}

/**
 * Reads a body that is not streamed, within a deadline and a size. Past the deadline the call
 * is aborted (a `timeout`); past the size the body is cancelled and `tooLarge` set: an error
 * body keeps its first bytes (`cut`), a reply is refused by the caller.
 */
async function readBody(call: Call, response: Response, limits: { timeoutMs: number; maxBytes: number; cut?: boolean }): Promise<{ text: string; tooLarge: boolean }> {
  if (response.body === null) return { text: '', tooLarge: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const timer = setTimeout(() => call.abort('timeout', { code: 'body_timeout', params: { seconds: seconds(limits.timeoutMs) } }), limits.timeoutMs);
  let text = '';
  let bytes = 0;
  let tooLarge = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > limits.maxBytes) {
        tooLarge = true;
        if (limits.cut === true) text += decoder.decode(value.subarray(0, Math.max(0, value.byteLength - (bytes - limits.maxBytes))), { stream: true });
        await reader.cancel().catch(() => undefined);
        break;
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  return { text: text + decoder.decode(), tooLarge };
}

export function createGatewayClient(options: GatewayClientOptions): GatewayClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const apiKey = options.apiKey;
  const siteUrl = options.siteUrl ?? baseUrl.replace(/\/v1$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const limits: GatewayLimits = { ...DEFAULT_LIMITS, ...options.limits };

  const contextFor = (url: string): ClassifyContext => ({ url, siteUrl, apiKey });

  /** Sends a request; returns the 2xx response or throws the classified GatewayError. */
  async function open(
    call: Call, url: string,
    init: {
      method: string;
      /** JSON text, or a multipart form (whose Content-Type, with its boundary, fetch sets). */
      body?: string | FormData;
      accept: string;
      auth: Record<string, string>;
      /** The wait for the headers, when not `headersTimeoutMs` (image models). */
      wait?: { ms: number; detail: ErrorDetail };
    },
  ): Promise<{ response: Response; ctx: ClassifyContext }> {
    const ctx = contextFor(url);
    if (call.controller.signal.aborted) throw call.errorFor(undefined, ctx, 'connect');
    const headers: Record<string, string> = { ...init.auth, Accept: init.accept };
    if (typeof init.body === 'string') headers['Content-Type'] = 'application/json';
    const wait = init.wait ?? { ms: limits.headersTimeoutMs, detail: { code: 'headers_timeout', params: { seconds: seconds(limits.headersTimeoutMs) } } };
    const timer = setTimeout(() => call.abort('timeout', wait.detail), wait.ms);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: init.method,
        headers,
        body: init.body,
        redirect: 'manual',
        signal: call.controller.signal,
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      throw call.errorFor(error, ctx, 'connect');
    } finally {
      clearTimeout(timer);
    }
    if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
      const location = response.headers.get('location');
      await response.body?.cancel().catch(() => undefined);
      throw buildGatewayError('bad_address', { status: response.status || undefined }, ctx,
        location === null ? { code: 'redirected' } : { code: 'redirected', params: { location } });
    }
    if (!response.ok) {
      let text = '';
      try {
        ({ text } = await readBody(call, response, { timeoutMs: limits.bodyTimeoutMs, maxBytes: ERROR_BODY_LIMIT, cut: true }));
      } catch {
        // The status alone still classifies the error.
      }
      throw errorFromHttpResponse(response, text, ctx);
    }
    return { response, ctx };
  }

  /** A 2xx answer that is a web page: the address is the site's, not its API (thrown as such). */
  async function refuseWebPage(response: Response, ctx: ClassifyContext): Promise<void> {
    if (!/html/i.test(response.headers.get('content-type') ?? '')) return;
    await response.body?.cancel().catch(() => undefined);
    throw errorFromHttpResponse(response, '<html>', ctx);
  }

  /** Why a stream being read ended early: past its size, or the call's failure (a stop, a deadline, the network). */
  function streamFailure(call: Call, error: unknown, ctx: ClassifyContext): GatewayError {
    return error instanceof StreamTooLarge
      ? buildGatewayError('bad_response', {}, ctx, { code: 'stream_too_large', params: { megabytes: megabytes(limits.maxStreamBytes) } })
      : call.errorFor(error, ctx, 'stream');
  }

  /** Reads a 2xx body that must be JSON; a web page or junk is a wrong address, an error body is thrown. */
  async function readJson(call: Call, response: Response, ctx: ClassifyContext, timeoutMs = limits.bodyTimeoutMs): Promise<unknown> {
    let body: { text: string; tooLarge: boolean };
    try {
      body = await readBody(call, response, { timeoutMs, maxBytes: limits.maxBodyBytes });
    } catch (error) {
      throw call.errorFor(error, ctx, 'stream');
    }
    if (body.tooLarge) {
      throw buildGatewayError('bad_response', { status: response.status }, ctx, { code: 'body_too_large', params: { megabytes: megabytes(limits.maxBodyBytes) } });
    }
    const text = body.text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw errorFromHttpResponse(response, text, ctx);
    }
    const facts = typeof value === 'object' && value !== null && !Array.isArray(value) && ('error' in value || 'success' in value || 'object' in value)
      ? errorFactsFromBody(value, response.status)
      : undefined;
    if (facts !== undefined) throw buildGatewayError(classifyFacts(facts, ctx.url), facts, ctx);
    return value;
  }

  async function listModels(callOptions: CallOptions = {}): Promise<ModelInfo[]> {
    const call = new Call(callOptions.signal);
    try {
      const { response, ctx } = await open(call, endpointUrl(baseUrl, '/models'), { method: 'GET', accept: 'application/json', auth: bearer(apiKey) });
      const body = await readJson(call, response, ctx);
      const catalogue = parseModelList(body);
      if (catalogue === undefined) {
        throw buildGatewayError('bad_response', { status: response.status }, ctx, { code: 'model_list_shape' });
      }
      return catalogue.models;
    } finally {
      call.dispose();
    }
  }

  /** Asks for a reply through one interface: the 2xx response, or the classified error thrown. */
  function ask(call: Call, wire: WireInterface, request: ChatRequest, stream: boolean): Promise<{ response: Response; ctx: ClassifyContext }> {
    return open(call, wire.url({ baseUrl, siteUrl }, request.model, stream), {
      method: 'POST',
      body: JSON.stringify(wire.body(request, stream)),
      accept: stream ? 'text/event-stream' : 'application/json',
      auth: wire.headers(apiKey),
    });
  }

  async function* streamChat(request: ChatRequest, callOptions: CallOptions = {}): AsyncGenerator<StreamEvent> {
    let wire = WIRE_INTERFACES[request.api ?? 'chat'];
    const stream = request.stream ?? true;
    const call = new Call(callOptions.signal);
    const started = Date.now();
    // However lively the reply, it ends here: a timeout like the others, with what arrived kept.
    const total = setTimeout(() => call.abort('timeout', { code: 'total_timeout', params: { minutes: minutes(limits.totalTimeoutMs) } }), limits.totalTimeoutMs);
    try {
      let opened: { response: Response; ctx: ClassifyContext };
      try {
        opened = await ask(call, wire, request, stream);
      } catch (error) {
        // A vendor interface is a hint from the catalogue; Chat Completions is the contract. A
        // gateway that lists the interface but has no route for it is asked again that way.
        const status = wire.name === 'chat' ? undefined : routeNotServed(error);
        if (status === undefined) throw error;
        yield { type: 'rerouted', from: wire.name, status };
        wire = WIRE_INTERFACES.chat;
        opened = await ask(call, wire, request, stream);
      }
      const { response, ctx } = opened;
      const contentType = response.headers.get('content-type') ?? '';
      if (!stream || /json/i.test(contentType) || response.body === null) {
        // Not streamed (asked so, or the gateway ignored `stream`): the same events, all at once.
        const value = await readJson(call, response, ctx);
        yield* wire.decodeBody(value, ctx);
        return;
      }
      await refuseWebPage(response, ctx);
      // Decoded here rather than in a helper generator: one generator level per event is
      // measurably cheaper (`npm run bench`), and a stream has one event per token.
      const decoder: ReplyDecoder = wire.streamDecoder(ctx);
      const out: StreamEvent[] = [];
      // Deadlines count pieces of the reply, not bytes: a stream of `: ping` comments ends too.
      let lastPieceAt: number | undefined;
      const meter = new ReplyMeter(limits.maxReplyBytes);
      let replyBytes = 0;
      let settleBy: number | undefined;
      const timeLeft = (): number => {
        const now = Date.now();
        let left = lastPieceAt === undefined ? started + limits.firstTokenTimeoutMs - now : lastPieceAt + limits.idleTimeoutMs - now;
        if (decoder.settling) {
          settleBy ??= now + SETTLE_MS;
          left = Math.min(left, settleBy - now);
        }
        return left;
      };
      const onTimeout = (): ErrorDetail => {
        const detail: ErrorDetail = decoder.settling
          ? { code: 'settling_timeout' }
          : lastPieceAt === undefined
            ? { code: 'first_token_timeout', params: { seconds: seconds(limits.firstTokenTimeoutMs) } }
            : { code: 'idle_timeout', params: { seconds: seconds(limits.idleTimeoutMs) } };
        call.abort('timeout', detail);
        return detail;
      };
      try {
        // Whether the decoder said the reply is over.
        let over = false;
        for await (const batch of readSse(response.body, { timeLeft, onTimeout, maxBytes: limits.maxStreamBytes, flag: mayHoldFence })) {
          decoder.fenceMarksPossible(batch.flagged);
          for (const item of batch.items) {
            if (decoder.item(item, out)) {
              over = true;
              break;
            }
          }
          if (out.length > 0 && (lastPieceAt !== undefined || out.some(isPiece))) lastPieceAt = Date.now();
          coalesce(out);
          replyBytes = meter.count(out);
          for (const event of out) yield event;
          out.length = 0;
          if (replyBytes < 0 || over) break;
        }
        if (replyBytes < 0) {
          const tooLarge = buildGatewayError('bad_response', {}, ctx, { code: 'reply_too_large', params: { megabytes: megabytes(limits.maxReplyBytes) } });
          decoder.fail(tooLarge, out);
          // The reply's end came in the read that passed the cap (and was dropped with it): the decoder is over.
          if (!out.some((event) => event.type === 'error')) out.push({ type: 'error', error: tooLarge });
        } else if (!over) {
          decoder.end(out);
        }
      } catch (error) {
        decoder.fail(streamFailure(call, error, ctx), out);
      }
      for (const event of out) yield event;
    } finally {
      clearTimeout(total);
      call.dispose();
    }
  }

  /** GET a JSON body within the billing deadline; `auth: false` for the site's public pages. */
  async function getJson(url: string, callOptions: CallOptions, auth = true): Promise<unknown> {
    const call = new Call(callOptions.signal);
    const timer = setTimeout(() => call.abort('timeout', { code: 'headers_timeout', params: { seconds: seconds(BILLING_TIMEOUT_MS) } }), BILLING_TIMEOUT_MS);
    try {
      const { response, ctx } = await open(call, url, { method: 'GET', accept: 'application/json', auth: auth ? bearer(apiKey) : {} });
      return await readJson(call, response, ctx);
    } finally {
      clearTimeout(timer);
      call.dispose();
    }
  }

  /** A question the gateway may not answer: undefined when it does not, thrown when it really failed. */
  async function optional<T>(ask: () => Promise<T | undefined>): Promise<T | undefined> {
    try {
      return await ask();
    } catch (error) {
      if (error instanceof GatewayError && REAL_FAILURES.has(error.kind)) throw error;
      return undefined;
    }
  }

  async function getBalance(options: BalanceOptions = {}): Promise<Balance | null> {
    if (options.known === 'none') return null;
    let display: Promise<DisplayMode> | undefined;
    // How the site shows amounts: public, and a site without it shows dollars.
    const displayMode = (): Promise<DisplayMode> => (display ??= getJson(`${siteUrl}/api/status`, options, false).then(parseDisplayMode, () => DEFAULT_DISPLAY));
    const sources: Record<BalanceSource, () => Promise<Balance | undefined>> = {
      // The trailing slash: the bare path answers with a redirect, and redirects are not followed.
      'new-api-token-usage': async () => parseTokenUsage(await getJson(`${siteUrl}/api/usage/token/`, options), await displayMode()),
      'dashboard-billing': async () => {
        const subscription = await getJson(endpointUrl(baseUrl, '/dashboard/billing/subscription'), options);
        const usage = await optional(() => getJson(endpointUrl(baseUrl, '/dashboard/billing/usage'), options));
        return parseBillingPair(subscription, usage, (await displayMode()).currency);
      },
      'openrouter-key': async () => parseOpenRouterKey(await getJson(endpointUrl(baseUrl, '/key'), options)),
    };
    const order = options.known === undefined ? BALANCE_SOURCES : [options.known, ...BALANCE_SOURCES.filter((s) => s !== options.known)];
    for (const source of order) {
      const balance = await optional(sources[source]);
      if (balance !== undefined) return balance;
    }
    return null;
  }

  async function getPricing(options: CallOptions = {}): Promise<PriceList | null> {
    const pricing = await optional(async () => parseNewApiPricing(await getJson(`${siteUrl}/api/pricing`, options, false), await getJson(`${siteUrl}/api/status`, options, false).then(parseDisplayMode, () => DEFAULT_DISPLAY)));
    if (pricing !== undefined) return pricing;
    return (await optional(async () => parseOpenRouterPricing(await getJson(endpointUrl(baseUrl, '/models'), options)))) ?? null;
  }

  /** An image call: JSON or multipart out, a JSON answer or a stream of image events back. */
  async function* images(url: string, body: string | FormData, request: ImageRequest, callOptions: CallOptions): AsyncGenerator<ImageEvent> {
    const stream = streamsImages(request);
    const call = new Call(callOptions.signal);
    const started = Date.now();
    const imageWait = (): ErrorDetail => ({ code: 'image_timeout', params: { seconds: seconds(limits.imageTimeoutMs) } });
    const total = setTimeout(() => call.abort('timeout', { code: 'total_timeout', params: { minutes: minutes(limits.totalTimeoutMs) } }), limits.totalTimeoutMs);
    try {
      const { response, ctx } = await open(call, url, {
        method: 'POST', body, accept: stream ? 'text/event-stream, application/json' : 'application/json', auth: bearer(apiKey),
        wait: { ms: limits.imageTimeoutMs, detail: imageWait() },
      });
      const contentType = response.headers.get('content-type') ?? '';
      await refuseWebPage(response, ctx);
      if (response.body === null || (!/event-stream/i.test(contentType) && (!stream || /json/i.test(contentType)))) {
        // Not streamed (not asked, or the gateway answered with JSON all the same). A stream
        // asked for and sent under another type (text/plain, none) is read as the stream it is.
        const value = await readJson(call, response, ctx, Math.max(limits.bodyTimeoutMs, limits.imageTimeoutMs));
        yield* decodeImagesBody(value, ctx, request.outputFormat);
        return;
      }
      const decoder = new ImageStreamDecoder(ctx, request.outputFormat);
      const out: ImageEvent[] = [];
      // Each image (or partial) may take as long as the first: image models draw for minutes.
      let lastImageAt = started;
      const timeLeft = (): number => lastImageAt + limits.imageTimeoutMs - Date.now();
      const onTimeout = (): ErrorDetail => {
        const detail = imageWait();
        call.abort('timeout', detail);
        return detail;
      };
      try {
        let over = false;
        for await (const batch of readSse(response.body, { timeLeft, onTimeout, maxBytes: limits.maxStreamBytes })) {
          for (const item of batch.items) {
            if (decoder.item(item, out)) {
              over = true;
              break;
            }
          }
          if (out.some((event) => event.type === 'partial' || event.type === 'image')) lastImageAt = Date.now();
          for (const event of out) yield event;
          out.length = 0;
          if (over) break;
        }
        if (!over) decoder.end(out);
      } catch (error) {
        decoder.fail(streamFailure(call, error, ctx), out);
      }
      for (const event of out) yield event;
    } finally {
      clearTimeout(total);
      call.dispose();
    }
  }

  function generateImages(request: ImageRequest, callOptions: CallOptions = {}): AsyncGenerator<ImageEvent> {
    return images(endpointUrl(baseUrl, '/images/generations'), JSON.stringify(imageGenerationBody(request)), request, callOptions);
  }

  function editImages(request: ImageEditRequest, callOptions: CallOptions = {}): AsyncGenerator<ImageEvent> {
    return images(endpointUrl(baseUrl, '/images/edits'), imageEditForm(request), request, callOptions);
  }

  async function fetchImage(url: string, callOptions: CallOptions = {}): Promise<Blob> {
    // The address may be signed (a query that grants access): errors name only where it pointed.
    const shown = addressWithoutQuery(url);
    const ctx: ClassifyContext = { url: shown, siteUrl, apiKey };
    const failed = (params?: Record<string, string | number>): GatewayError =>
      buildGatewayError('bad_response', {}, ctx, params === undefined ? { code: 'image_download_failed' } : { code: 'image_download_failed', params });
    const inline = /^data:(image\/[\w.+-]+)(?:;[^,]*)?;base64,/i.exec(url);
    if (inline !== null) {
      try {
        const bytes = base64ToBytes([url.slice(inline[0].length)]);
        // Its type is its bytes' (PNG, JPEG, WebP, GIF), not what the address says.
        const type = sniffImageType(bytes);
        if (type !== undefined) return new Blob([bytes], { type });
      } catch {
        // Not base64: refused below.
      }
      throw failed();
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw failed();
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw failed();
    const call = new Call(callOptions.signal);
    const timer = setTimeout(() => call.abort('timeout', { code: 'headers_timeout', params: { seconds: seconds(limits.headersTimeoutMs) } }), limits.headersTimeoutMs);
    let response: Response;
    try {
      try {
        // No key and no cookies: the address is the gateway's upstream storage, not the gateway.
        // With nothing secret in the request, a redirect (signed storage often redirects) may be followed.
        response = await doFetch(parsed.href, {
          method: 'GET',
          headers: { Accept: 'image/*' },
          credentials: 'omit',
          redirect: 'follow',
          referrerPolicy: 'no-referrer',
          cache: 'no-store',
          signal: call.controller.signal,
        });
      } catch (error) {
        throw call.errorFor(error, ctx, 'connect');
      } finally {
        clearTimeout(timer);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw failed({ status: response.status });
      }
      const declared = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const bytes = await readBytes(call, response, ctx);
      // The type is the bytes' only (PNG, JPEG, WebP, GIF): an SVG, or a page said to be an image, is refused.
      const type = sniffImageType(bytes);
      if (type === undefined) throw failed({ contentType: declared === '' ? '-' : declared });
      return new Blob([bytes], { type });
    } finally {
      call.dispose();
    }
  }

  /** A body as bytes, within the body deadline and the largest body. */
  async function readBytes(call: Call, response: Response, ctx: ClassifyContext): Promise<Uint8Array<ArrayBuffer>> {
    if (response.body === null) return new Uint8Array(0);
    const reader = response.body.getReader();
    const timer = setTimeout(() => call.abort('timeout', { code: 'body_timeout', params: { seconds: seconds(limits.bodyTimeoutMs) } }), limits.bodyTimeoutMs);
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limits.maxBodyBytes) {
          await reader.cancel().catch(() => undefined);
          throw buildGatewayError('bad_response', { status: response.status }, ctx, { code: 'body_too_large', params: { megabytes: megabytes(limits.maxBodyBytes) } });
        }
        chunks.push(value);
      }
    } catch (error) {
      throw call.errorFor(error, ctx, 'stream');
    } finally {
      clearTimeout(timer);
      reader.releaseLock();
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return bytes;
  }

  async function speak(request: SpeechRequest, callOptions: CallOptions = {}): Promise<Blob> {
    const call = new Call(callOptions.signal);
    try {
      const { response, ctx } = await open(call, endpointUrl(baseUrl, '/audio/speech'), {
        method: 'POST', body: JSON.stringify(speechBody(request)), accept: 'audio/*', auth: bearer(apiKey),
      });
      const contentType = response.headers.get('content-type');
      const type = speechType(contentType, request.format);
      if (type === undefined) {
        // An error said with a 200 (JSON), or a web page: read as what it is.
        if (/json/i.test(contentType ?? '')) await readJson(call, response, ctx);
        await refuseWebPage(response, ctx);
        await response.body?.cancel().catch(() => undefined);
        throw buildGatewayError('bad_response', { status: response.status }, ctx, { code: 'not_audio', params: { contentType: (contentType ?? '').split(';')[0]!.trim() || '-' } });
      }
      return new Blob([await readBytes(call, response, ctx)], { type });
    } finally {
      call.dispose();
    }
  }

  async function transcribe(request: TranscriptionRequest, callOptions: CallOptions = {}): Promise<string> {
    const call = new Call(callOptions.signal);
    try {
      const { response, ctx } = await open(call, endpointUrl(baseUrl, '/audio/transcriptions'), {
        method: 'POST', body: transcriptionForm(request), accept: 'application/json', auth: bearer(apiKey),
        // A long recording takes a while to transcribe before any answer: as long as an image may.
        wait: { ms: limits.imageTimeoutMs, detail: { code: 'headers_timeout', params: { seconds: seconds(limits.imageTimeoutMs) } } },
      });
      return decodeTranscription(await readJson(call, response, ctx), ctx);
    } finally {
      call.dispose();
    }
  }

  return { baseUrl, siteUrl, listModels, streamChat, getBalance, getPricing, generateImages, editImages, fetchImage, speak, transcribe };
}

/**
 * The reference gateway: a real HTTP server on 127.0.0.1 that implements the seed's interface
 * exactly (`/v1/models`, `/v1/chat/completions`, `/v1/responses`, streamed and not; bearer
 * auth; the errors of part 7), bills tokens against balances, and has fault knobs for tests.
 * Like new-api, it also serves the vendors' interfaces behind the same key, each for the models
 * whose `supported_endpoint_types` name it: Anthropic's `/v1/messages` (`anthropic.ts`) and
 * Gemini's `/v1beta/models/{model}:streamGenerateContent` (`gemini.ts`), with their own key
 * headers, streams and error shapes (`errors.ts`); every fault knob works on each.
 *
 *
 * Images (`images.ts`, `png.ts`): `POST /v1/images/generations` (JSON) and `/v1/images/edits`
 * (multipart) for `gpt-image-1` (sizes 1024x1024, 1536x1024, 1024x1536, auto; n 1–4; b64_json;
 * streams partial images) and `dall-e-3` (1024x1024, 1792x1024, 1024x1792; n 1; answers `url`,
 * served at `GET /__images/{token}.png` without a key for 60 s), both listed with
 * `supported_endpoint_types: ["image-generation","openai"]` and priced per call (`quota_type: 1`,
 * billed `model_price × n`); real PNGs drawn from the prompt, whose `tEXt` chunks say which prompt
 * (and, for edits, which image: `edit-of`) made them (read them with `readPng`). A prompt with
 * `forbidden` is refused `content_policy_violation`; a size a model does not take, `invalid_value`.
 * `gemini-2.5-flash-image` answers chat (Chat Completions and Gemini's interface) with a line of
 * text and a data-URI PNG in 64 kB content deltas (`[size:WxH]`, `[bytes:N]` in the prompt).
 * Every fault knob works on these routes too. Multipart bodies are logged as their fields, files
 * as `{ name, type, bytes }`.
 *
 * Control it in-process (the returned object) or over HTTP under `/__admin/` (for browser
 * tests and `npm run gateway`): `POST /__admin/fault`, `/__admin/pace`, `/__admin/withdraw`,
 * `/__admin/restore`, `/__admin/balance`, `/__admin/language` (`{"language":"zh-CN"}`: new-api's
 * Chinese error messages, same statuses and codes), `/__admin/unserved` (`{"interfaces":["anthropic"]}`:
 * routes the catalogue lists but the gateway does not serve), `/__admin/expire-images` (every
 * image address answers 404 from now on), `/__admin/image-chat` (`{"size":"1024x1024","bytes":4000000,
 * "pieceChars":65536}`: the image `gemini-2.5-flash-image` draws, padded to `bytes`, streamed in
 * deltas of `pieceChars`), `/__admin/reset`; `GET /__admin/requests`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ANTHROPIC_PATH, serveMessages } from './anthropic';
import { Fault, chunkText, cutByFilter, imageFromDataUrl, promptTokensOf, sleep, takeDataUriImages, type ErrorWords, type GatewayCore, type KeyPlace, type KeyRecord, type LoggedRequest, type Pace, type ReplyWriter, type Served, type StreamLog } from './core';
import { openaiErrorBody as errorBody, sendRefusal, type ErrorShape, type Problem } from './errors';
import { BillingSettings, DEFAULT_BILLING, billingSubscription, billingUsage, pricing, statusFields, tokenUsage, type AccountState } from './billing';
import { GEMINI_CALL, GEMINI_MODELS, listGeminiModels, serveGemini } from './gemini';
import { AUDIO_PATHS, serveSpeech, serveTranscription } from './audio';
import { IMAGE_PATHS, SERVED_IMAGE, ServedImages, imageMarkdown, imagePieces, serveImages, type ImageHost } from './images';
import { DEFAULT_IMAGE_CHAT, REFERENCE_MODELS, estimateTokens, type Endpoint, type ImageChatSettings, type IncomingImage, type IncomingTurn, type ModelReply, type ReferenceModel } from './models';
import { SEARCH_SOURCES, TOOLS_REFUSED, chatToolView, missingToolThinking, toolThinking, responsesToolView, searchAnswer, toolStep, type PlannedCall } from './tools';

export { Fault, type LoggedRequest, type Pace, type StreamLog } from './core';

export const DEMO_KEY = 'sk-demo-reference-gateway-key-0000000000000000';
export const DELETED_KEY = 'sk-deleted-reference-key-1111111111111111111111';
export const EXPIRED_KEY = 'sk-expired-reference-key-2222222222222222222222';
export const BROKE_KEY = 'sk-broke-reference-key-33333333333333333333333';
/** A key without a limit (its account is never short, and reports no balance left). */
export const UNLIMITED_KEY = 'sk-unlimited-reference-key-444444444444444444444';

/** The language of the gateway's own error messages: new-api's Chinese ones, or the seed's English. */
export type GatewayLanguage = 'en' | 'zh-CN';

/**
 * The messages of the errors users meet, in each language. Statuses, types and codes stay the
 * same: a client must classify by them, never by these words.
 */
const ERROR_WORDS: Record<GatewayLanguage, ErrorWords> = {
  'en': {
    invalidKey: (why) => `Invalid API key (${why}). Create and copy a key again from the keys page of the current account.`,
    rateLimited: 'Rate limit reached for this key; retry later.',
    upstreamFailed: 'The upstream provider failed.',
    overloaded: 'The upstream provider is overloaded; retry shortly.',
    modelMissing: (model) => `model does not exist: ${model}. Copy the ID again from the catalogue.`,
    insufficientBalance: 'insufficient balance: the account balance is used up. Check the dashboard, then Purchase or Redeem.',
    upstreamClosed: 'upstream error: the provider closed the connection',
  },
  // new-api's own wording (its i18n), as its Chinese-speaking users see it.
  'zh-CN': {
    invalidKey: (why) => (why === 'expired' ? '该令牌已过期' : why === 'deleted' ? '该令牌状态不可用' : '无效的令牌'),
    rateLimited: '您已达到请求数限制，请稍后再试',
    upstreamFailed: '上游服务出错，请稍后再试',
    overloaded: '上游负载已饱和，请稍后再试',
    modelMissing: (model) => `当前分组 default 下对于模型 ${model} 无可用渠道`,
    insufficientBalance: '用户额度不足, 剩余额度: ＄0.000000',
    upstreamClosed: '上游错误：上游服务关闭了连接',
  },
};

export interface ReferenceGatewayOptions {
  port?: number;
  host?: string;
  pace?: Partial<Pace>;
  /** The language of its error messages (default English, the seed's). */
  language?: GatewayLanguage;
  /** Starting balance of the demo account, in billing units (tokens × model price). */
  balance?: number;
  /** Models served besides the reference ones (benches: several markdown writers to compare). */
  extraModels?: readonly ReferenceModel[];
  /** How long an image address (`/__images/{token}.png`) is served (default 60 s). */
  imageUrlTtlMs?: number;
}

export interface ReferenceGateway {
  /** {site_url} */
  readonly siteUrl: string;
  /** {base_url} = {site_url}/v1 */
  readonly baseUrl: string;
  readonly demoKey: string;
  readonly requests: LoggedRequest[];
  /** When each completed stream sent its last byte (Date.now()), in order: for latency benches. */
  readonly streamEnds: number[];
  /** Resolves once more than `count` streams have ended (`streamEnds`), so a bench waits without polling. */
  streamEnded(count: number, timeoutMs?: number): Promise<void>;
  /** When each streamed chat reply wrote its first words (Date.now()), in order: for latency benches. */
  readonly streamFirstWords: number[];
  /** Apply a fault to the next `times` requests to /v1 endpoints (default 1); only to those asking `model`, when named. */
  setFault(fault: Fault, times?: number, model?: string): void;
  setPace(pace: Partial<Pace>): void;
  /** Error messages in this language from now on (until reset). */
  setLanguage(language: GatewayLanguage): void;
  withdraw(modelId: string): void;
  restore(modelId: string): void;
  setBalance(account: string, balance: number): void;
  balanceOf(account: string): number;
  /** Quota units an account has spent. */
  usedBy(account: string): number;
  /** Which balance endpoints it serves and how its site shows amounts (until reset). */
  setBilling(settings: Partial<BillingSettings>): void;
  /**
   * Interfaces the catalogue still lists but whose routes are not served (until reset): a
   * request to one is answered `status` (404 by default) as a gateway without that route
   * answers, `Invalid URL (POST /v1/messages)`, whatever the key.
   */
  setUnserved(interfaces: readonly UnservedInterface[], status?: 404 | 405): void;
  /** Every image address given so far answers 404 from now on. */
  expireImages(): void;
  /** The image the Gemini-style image chat model draws (until reset). */
  setImageChat(settings: Partial<ImageChatSettings>): void;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_PACE: Pace = { delayMs: 0, chunkChars: 8 };

/** The interfaces besides Chat Completions, by their `supported_endpoint_types` word. */
export const UnservedInterface = z.enum(['openai-response', 'anthropic', 'gemini']);
export type UnservedInterface = z.infer<typeof UnservedInterface>;

/** The interface a request's route belongs to, when it is one that may go unserved. */
function routeInterface(path: string): UnservedInterface | undefined {
  if (path === '/v1/responses') return 'openai-response';
  if (path === ANTHROPIC_PATH) return 'anthropic';
  if (GEMINI_CALL.test(path)) return 'gemini';
  return undefined;
}

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.union([z.string(), z.object({ url: z.string(), detail: z.string().optional() })]),
});
const ChatBody = z.object({
  model: z.string().min(1),
  messages: z.array(z.object({
    role: z.string(),
    content: z.union([z.string(), z.array(z.union([TextPart, ImagePart, z.object({ type: z.string() }).loose()])), z.null()]).optional(),
  }).loose()).min(1),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).loose().optional(),
  max_tokens: z.number().int().positive().optional(),
}).loose();

const ResponsesInputPart = z.union([
  z.object({ type: z.literal('input_text'), text: z.string() }),
  z.object({ type: z.literal('output_text'), text: z.string() }).loose(),
  z.object({ type: z.literal('input_image'), image_url: z.string() }).loose(),
]);
const ResponsesMessage = z.object({ role: z.string(), content: z.union([z.string(), z.array(ResponsesInputPart)]) }).loose();
const ResponsesBody = z.object({
  model: z.string().min(1),
  input: z.union([
    z.string(),
    z.array(z.union([
      ResponsesMessage,
      // function_call and function_call_output items (tools.ts).
      z.object({ type: z.string() }).loose(),
    ])),
  ]),
  instructions: z.string().optional(),
  stream: z.boolean().optional(),
  max_output_tokens: z.number().int().positive().optional(),
}).loose();

function turnsFromChat(body: z.infer<typeof ChatBody>): IncomingTurn[] {
  return body.messages.map((m) => takeDataUriImages(turnFromChat(m)));
}

function turnFromChat(m: z.infer<typeof ChatBody>['messages'][number]): IncomingTurn {
  if (typeof m.content === 'string' || m.content == null) return { role: m.role, text: m.content ?? '', images: [] };
  const text: string[] = [];
  const images: IncomingImage[] = [];
  for (const part of m.content) {
    const t = TextPart.safeParse(part);
    if (t.success) text.push(t.data.text);
    const img = ImagePart.safeParse(part);
    if (img.success) images.push(imageFromDataUrl(typeof img.data.image_url === 'string' ? img.data.image_url : img.data.image_url.url));
  }
  return { role: m.role, text: text.join('\n'), images };
}

function turnsFromResponses(body: z.infer<typeof ResponsesBody>): IncomingTurn[] {
  const turns: IncomingTurn[] = [];
  if (body.instructions !== undefined) turns.push({ role: 'system', text: body.instructions, images: [] });
  if (typeof body.input === 'string') return [...turns, { role: 'user', text: body.input, images: [] }];
  for (const entry of body.input) {
    const parsed = ResponsesMessage.safeParse(entry);
    if (!parsed.success) continue;
    const item = parsed.data;
    if (typeof item.content === 'string') {
      turns.push({ role: item.role, text: item.content, images: [] });
      continue;
    }
    const text: string[] = [];
    const images: IncomingImage[] = [];
    for (const part of item.content) {
      if (part.type === 'input_image') images.push(imageFromDataUrl(part.image_url));
      else text.push(part.text);
    }
    turns.push({ role: item.role, text: text.join('\n'), images });
  }
  return turns;
}

/** Azure's `content_filter_results` for a reply its violence filter stopped. */
const AZURE_VIOLENCE_FILTERED = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: true, severity: 'medium' },
};

const SITE_PAGE = (site: string) => `<!doctype html><html><head><title>Reference Gateway</title></head><body>
<h1>Reference Gateway</h1><p>A local stand-in for a new-api style site. API base address: <code>${site}/v1</code>.</p>
<ul><li><a href="/keys">Keys</a></li><li><a href="/models">Model catalogue</a></li><li><a href="/console">Dashboard</a></li><li><a href="/console/topup">Purchase / Redeem</a></li></ul>
</body></html>`;

export async function startReferenceGateway(options: ReferenceGatewayOptions = {}): Promise<ReferenceGateway> {
  const startingBalance = options.balance ?? 1_000_000;
  const servedModels: readonly ReferenceModel[] = [...REFERENCE_MODELS, ...(options.extraModels ?? [])];
  let pace: Pace = { ...DEFAULT_PACE, ...options.pace };
  let words = ERROR_WORDS[options.language ?? 'en'];
  const keys = new Map<string, KeyRecord>([
    [DEMO_KEY, { account: 'demo', status: 'valid' }],
    [DELETED_KEY, { account: 'demo', status: 'deleted' }],
    [EXPIRED_KEY, { account: 'demo', status: 'expired' }],
    [BROKE_KEY, { account: 'broke', status: 'valid' }],
    [UNLIMITED_KEY, { account: 'unlimited', status: 'valid' }],
  ]);
  const balances = new Map<string, number>();
  const used = new Map<string, number>();
  let billing: BillingSettings = DEFAULT_BILLING;
  let unserved: { interfaces: ReadonlySet<UnservedInterface>; status: 404 | 405 } = { interfaces: new Set(), status: 404 };
  const UNLIMITED_ACCOUNTS = new Set(['unlimited']);
  const accountOf = (key: KeyRecord): AccountState => ({
    remaining: balances.get(key.account) ?? 0, used: used.get(key.account) ?? 0, unlimited: UNLIMITED_ACCOUNTS.has(key.account),
  });
  const withdrawn = new Set<string>();
  const faults: { fault: Fault; times: number; model?: string | undefined }[] = [];
  const requests: LoggedRequest[] = [];
  const loggedFor = new WeakMap<IncomingMessage, LoggedRequest>();
  const streamEnds: number[] = [];
  const endWaiters = new Set<() => void>();
  const streamEnd = (): void => {
    streamEnds.push(Date.now());
    for (const waiter of endWaiters) waiter();
  };
  const streamEnded = (count: number, timeoutMs = 60_000): Promise<void> => new Promise((resolve, reject) => {
    const check = (): void => {
      if (streamEnds.length <= count) return;
      endWaiters.delete(check);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      endWaiters.delete(check);
      reject(new Error(`no stream ended within ${timeoutMs} ms`));
    }, timeoutMs);
    endWaiters.add(check);
    check();
  });
  const streamFirstWords: number[] = [];
  const servedImages = new ServedImages(options.imageUrlTtlMs);
  let imageChat: ImageChatSettings = DEFAULT_IMAGE_CHAT;

  function resetState(): void {
    balances.clear();
    balances.set('demo', startingBalance);
    balances.set('broke', 0);
    balances.set('unlimited', 0);
    used.clear();
    billing = DEFAULT_BILLING;
    unserved = { interfaces: new Set(), status: 404 };
    withdrawn.clear();
    faults.length = 0;
    requests.length = 0;
    streamEnds.length = 0;
    streamFirstWords.length = 0;
    pace = { ...DEFAULT_PACE, ...options.pace };
    words = ERROR_WORDS[options.language ?? 'en'];
    imageChat = DEFAULT_IMAGE_CHAT;
    servedImages.expireAll();
  }
  resetState();

  /** The next fault for a request asking `model` (a fault aimed at one model waits for it). */
  function takeFault(model: string | undefined): Fault | undefined {
    const at = faults.findIndex((f) => f.model === undefined || f.model === model);
    const next = faults[at];
    if (next === undefined) return undefined;
    next.times -= 1;
    if (next.times <= 0) faults.splice(at, 1);
    return next.fault;
  }

  /** The model a request asks for: in a POST body's `model`, or in Gemini's address. */
  async function modelAsked(req: IncomingMessage, path: string): Promise<string | undefined> {
    const gemini = /^\/v1beta\/models\/([^:/]+):/.exec(path)?.[1];
    if (gemini !== undefined) return decodeURIComponent(gemini);
    if (req.method !== 'POST') return undefined;
    const form = await formData(req);
    if (form !== undefined) {
      const model = form.get('model');
      return typeof model === 'string' ? model : undefined;
    }
    const raw = await readBody(req);
    try {
      const model = (JSON.parse(raw) as { model?: unknown }).model;
      return typeof model === 'string' ? model : undefined;
    } catch {
      return undefined;
    }
  }

  function findModel(id: string): ReferenceModel | undefined {
    return withdrawn.has(id) ? undefined : servedModels.find((m) => m.id === id);
  }

  let siteUrl = '';

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(errorBody(`reference gateway failure: ${String(error)}`, 'server_error', 'internal_error'));
      } else {
        res.destroy();
      }
    });
  });
  // Streams may be paced slowly; never let Node time a test connection out.
  server.requestTimeout = 0;
  server.headersTimeout = 0;

  /** Bodies read ahead (to see which model a request asks for), for the handler to read again. */
  const bodies = new WeakMap<IncomingMessage, Promise<Buffer>>();

  function readBytes(req: IncomingMessage): Promise<Buffer> {
    let read = bodies.get(req);
    if (read === undefined) {
      read = (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      })();
      bodies.set(req, read);
    }
    return read;
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    return (await readBytes(req)).toString('utf8');
  }

  const forms = new WeakMap<IncomingMessage, Promise<FormData | undefined>>();

  /** A multipart body, parsed as a browser's fetch would (undici's `Request.formData()`). */
  function formData(req: IncomingMessage): Promise<FormData | undefined> {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !type.toLowerCase().startsWith('multipart/form-data')) return Promise.resolve(undefined);
    let parsed = forms.get(req);
    if (parsed === undefined) {
      parsed = readBytes(req).then(
        (bytes) => new Request('http://gateway.invalid/', { method: 'POST', headers: { 'content-type': type }, body: bytes, duplex: 'half' } as RequestInit).formData(),
      ).catch(() => undefined);
      forms.set(req, parsed);
    }
    return parsed;
  }

  function cors(res: ServerResponse): void {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'authorization, content-type, x-api-key, anthropic-version, x-goog-api-key');
    res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  }

  function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  }

  /**
   * The interface a request belongs to, by the shape of its errors. `/v1/models` asked with
   * Anthropic's version header is answered in Anthropic's format, as new-api does.
   */
  function shapeOf(path: string, req: IncomingMessage): ErrorShape {
    if (path === ANTHROPIC_PATH) return 'anthropic';
    if (path === '/v1/models' && req.headers['anthropic-version'] !== undefined) return 'anthropic';
    if (path === GEMINI_MODELS || path.startsWith(`${GEMINI_MODELS}/`)) return 'gemini';
    return 'openai';
  }

  /** The key, where each interface carries it (new-api takes a bearer key on all of them, and `?key=` on Gemini's). */
  function keyOf(req: IncomingMessage, url: URL, shape: ErrorShape): { key: string | undefined; keyIn: KeyPlace | undefined } {
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return typeof value === 'string' && value !== '' ? value : undefined;
    };
    const auth = header('authorization');
    const bearer = auth?.startsWith('Bearer ') === true ? auth.slice('Bearer '.length) : undefined;
    if (shape === 'anthropic' && header('x-api-key') !== undefined) return { key: header('x-api-key'), keyIn: 'x-api-key' };
    if (shape === 'gemini' && header('x-goog-api-key') !== undefined) return { key: header('x-goog-api-key'), keyIn: 'x-goog-api-key' };
    if (shape === 'gemini' && url.searchParams.get('key') !== null) return { key: url.searchParams.get('key') ?? undefined, keyIn: 'query' };
    return bearer === undefined ? { key: undefined, keyIn: undefined } : { key: bearer, keyIn: 'authorization' };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://gateway.invalid');
    const path = url.pathname;
    cors(res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (path.startsWith('/__admin/')) return admin(req, res, path);

    const shape = shapeOf(path, req);
    const auth = req.headers.authorization;
    const bearer = auth?.startsWith('Bearer ') === true ? auth.slice('Bearer '.length) : undefined;
    const version = req.headers['anthropic-version'];
    const logged: LoggedRequest = {
      method: req.method ?? 'GET', path, query: url.search, bearer, ...keyOf(req, url, shape),
      anthropicVersion: typeof version === 'string' ? version : undefined, origin: req.headers.origin, time: Date.now(),
    };
    requests.push(logged);
    loggedFor.set(req, logged);
    res.once('close', () => {
      logged.endedAt = Date.now();
    });

    if (/\/v1\/v1(\/|$)/.test(path)) {
      // Seed part 4, rule 3: a doubled /v1 is always 404, whatever the key.
      return sendJson(res, 404, errorBody(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', ''));
    }
    const route = routeInterface(path);
    if (route !== undefined && unserved.interfaces.has(route)) {
      // The router has no such route: answered before the key is looked at, as new-api's is.
      return sendJson(res, unserved.status, errorBody(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', ''));
    }
    if (path === '/api/status') {
      const amounts = billing.mode === 'none' ? {} : statusFields(billing);
      return sendJson(res, 200, JSON.stringify({ success: true, message: '', data: { system_name: 'Reference Gateway', server_address: siteUrl, ...amounts } }));
    }
    if (path === '/api/pricing' && billing.mode !== 'none') {
      return sendJson(res, 200, JSON.stringify(pricing(servedModels.filter((m) => !withdrawn.has(m.id)), billing)));
    }
    if (path === '/api/usage/token' && billing.mode === 'all') {
      res.writeHead(301, { location: '/api/usage/token/' });
      res.end();
      return;
    }
    const billingPath = /^(?:\/v1)?\/dashboard\/billing\/(subscription|usage)$/.exec(path)?.[1];
    if ((path === '/api/usage/token/' && billing.mode === 'all') || (billingPath !== undefined && billing.mode !== 'none')) {
      const key = logged.key === undefined ? undefined : keys.get(logged.key.trim());
      if (key === undefined || key.status !== 'valid') return sendRefusal(res, 'openai', { kind: 'invalid_key', message: words.invalidKey(key === undefined ? 'wrong or incompletely copied' : key.status) });
      const account = accountOf(key);
      const body = billingPath === 'subscription' ? billingSubscription(account, billing) : billingPath === 'usage' ? billingUsage(account, billing) : tokenUsage('reference', account);
      return sendJson(res, 200, JSON.stringify(body));
    }
    const token = SERVED_IMAGE.exec(path)?.[1];
    if (token !== undefined || path.startsWith('/__images/')) {
      const png = token === undefined ? undefined : servedImages.get(token);
      if (png === undefined) return sendJson(res, 404, errorBody('This image has expired or never existed.', 'invalid_request_error', 'not_found'));
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length), 'cache-control': 'no-store' });
      res.end(png);
      return;
    }
    if (path.startsWith('/api/') || /\/dashboard\/billing\//.test(path)) {
      return sendRefusal(res, 'openai', { kind: 'no_route', message: `Invalid URL (${req.method} ${path})` });
    }
    if (!path.startsWith('/v1/') && path !== '/v1' && !path.startsWith('/v1beta/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(SITE_PAGE(siteUrl));
      return;
    }

    const key = logged.key === undefined ? undefined : keys.get(logged.key.trim());
    if (key === undefined || key.status !== 'valid') {
      const why = key === undefined ? 'wrong or incompletely copied' : key.status;
      return sendRefusal(res, shape, { kind: 'invalid_key', message: words.invalidKey(why) });
    }

    const listing = path === '/v1/models' || path === GEMINI_MODELS;
    const fault = listing ? undefined : takeFault(await modelAsked(req, path));
    if (fault?.kind === 'slow-first-byte') await sleep(fault.delayMs);
    if (fault?.kind === 'rate-limit') return sendRefusal(res, shape, { kind: 'rate_limited', message: words.rateLimited, retryAfter: fault.retryAfter });
    if (fault?.kind === 'server-error') return sendRefusal(res, shape, { kind: 'server', message: words.upstreamFailed });
    if (fault?.kind === 'overloaded') return sendRefusal(res, shape, { kind: 'overloaded', message: words.overloaded });

    const served: Served = { req, res, key, fault, logged };
    if (req.method === 'GET' && path === '/v1/models') return shape === 'anthropic' ? listAnthropicModels(res) : listModels(res);
    if (req.method === 'POST' && path === '/v1/chat/completions') return chat(req, res, key, fault, logged);
    if (req.method === 'POST' && path === '/v1/responses') return responses(req, res, key, fault);
    if (req.method === 'POST' && path === IMAGE_PATHS.generations) return serveImages(imageHost, served, 'generations');
    if (req.method === 'POST' && path === IMAGE_PATHS.edits) return serveImages(imageHost, served, 'edits');
    if (req.method === 'POST' && path === AUDIO_PATHS.speech) return serveSpeech(imageHost, served);
    if (req.method === 'POST' && path === AUDIO_PATHS.transcriptions) return serveTranscription(imageHost, served);
    if (req.method === 'POST' && path === ANTHROPIC_PATH) return serveMessages(core, served);
    if (req.method === 'GET' && path === GEMINI_MODELS) return sendJson(res, 200, listGeminiModels(servedModels.filter((m) => !withdrawn.has(m.id))));
    const call = GEMINI_CALL.exec(path);
    if (req.method === 'POST' && call !== null) {
      return serveGemini(core, served, decodeURIComponent(call[1]!), call[2] as 'generateContent' | 'streamGenerateContent', url.searchParams.get('alt') === 'sse');
    }
    return sendRefusal(res, shape, { kind: 'no_route', message: `Invalid URL (${req.method} ${path})` });
  }

  function listAnthropicModels(res: ServerResponse): void {
    const data = servedModels.filter((m) => !withdrawn.has(m.id) && m.endpoints.includes('anthropic'))
      .map((m) => ({ type: 'model', id: m.id, display_name: m.id, created_at: '2025-01-01T00:00:00Z' }));
    sendJson(res, 200, JSON.stringify({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }));
  }

  function listModels(res: ServerResponse): void {
    const data = servedModels.filter((m) => !withdrawn.has(m.id)).map((m) => ({
      id: m.id,
      object: 'model',
      created: 1_700_000_000,
      owned_by: m.ownedBy,
      supported_endpoint_types: m.endpoints,
      architecture: { input_modalities: m.imageInput ? ['text', 'image'] : ['text'], output_modalities: m.images === undefined ? ['text'] : ['image'] },
    }));
    sendJson(res, 200, JSON.stringify({ data, object: 'list', success: true }));
  }

  /** The checks every interface makes before a model answers; the refusal is worded by the caller. */
  function check(key: KeyRecord, modelId: string, endpoint: Endpoint | 'audio', turns: IncomingTurn[]): { ok: true; model: ReferenceModel } | { ok: false; problem: Problem } {
    const model = findModel(modelId);
    if (model === undefined) return { ok: false, problem: { kind: 'model_missing', model: modelId, message: words.modelMissing(modelId) } };
    if (!UNLIMITED_ACCOUNTS.has(key.account) && (balances.get(key.account) ?? 0) <= 0) return { ok: false, problem: { kind: 'balance', message: words.insufficientBalance } };
    if (model.audio !== undefined && endpoint !== 'audio') {
      // Listed as `openai`, but the upstream takes only its audio route.
      const route = model.audio === 'speech' ? 'POST /v1/audio/speech' : 'POST /v1/audio/transcriptions';
      return { ok: false, problem: { kind: 'endpoint', message: `${model.id} is not a chat model; use ${route}.` } };
    }
    if (endpoint === 'audio') return model.audio === undefined ? { ok: false, problem: { kind: 'endpoint', message: `${model.id} is not an audio model.` } } : { ok: true, model };
    if (!model.endpoints.includes(endpoint)) {
      return { ok: false, problem: { kind: 'endpoint', message: `${model.id} is not served through this interface; it supports: ${model.endpoints.join(', ')}.` } };
    }
    if (model.images !== undefined && endpoint !== 'image-generation') {
      // new-api lists `openai` too, but the upstream takes only its image routes.
      return { ok: false, problem: { kind: 'endpoint', message: `${model.id} is an image generation model; use POST /v1/images/generations or POST /v1/images/edits.` } };
    }
    if (!model.imageInput && turns.some((t) => t.images.length > 0)) {
      return { ok: false, problem: { kind: 'image', message: `${model.id} does not accept image input.` } };
    }
    return { ok: true, model };
  }

  /** The OpenAI interfaces' checks; answers the error itself. */
  function admit(res: ServerResponse, key: KeyRecord, modelId: string, endpoint: 'openai' | 'openai-response', turns: IncomingTurn[]): ReferenceModel | undefined {
    const checked = check(key, modelId, endpoint, turns);
    if (checked.ok) return checked.model;
    if (checked.problem.kind === 'endpoint' && findModel(modelId)?.images === undefined && findModel(modelId)?.audio === undefined) {
      const other = endpoint === 'openai' ? '/v1/responses' : '/v1/chat/completions';
      return void sendRefusal(res, 'openai', { kind: 'endpoint', message: `${modelId} is served only through ${other}.` });
    }
    return void sendRefusal(res, 'openai', checked.problem);
  }

  function bill(key: KeyRecord, model: ReferenceModel, promptTokens: number, completionTokens: number): void {
    charge(key, (promptTokens + completionTokens) * model.price);
  }

  function charge(key: KeyRecord, cost: number): void {
    used.set(key.account, (used.get(key.account) ?? 0) + cost);
    if (!UNLIMITED_ACCOUNTS.has(key.account)) balances.set(key.account, (balances.get(key.account) ?? 0) - cost);
  }

  /** new-api: `model_price` dollars a call, in quota units. */
  const callsCost = (model: ReferenceModel, n: number): number => (model.perCall ?? 0) * billing.quotaPerUnit * n;

  const imageHost: ImageHost = {
    core: undefined as unknown as GatewayCore,
    siteUrl: () => siteUrl,
    served: servedImages,
    formData,
    log(served, body) {
      served.logged.body = body;
    },
    affords(served, model, n) {
      return UNLIMITED_ACCOUNTS.has(served.key.account) || (balances.get(served.key.account) ?? 0) >= callsCost(model, n);
    },
    billCalls(served, model, n) {
      charge(served.key, callsCost(model, n));
    },
  };

  async function readJson<T>(served: { req: IncomingMessage }, schema: z.ZodType<T>): Promise<{ ok: true; value: T } | { ok: false; problem: Problem }> {
    const raw = await readBody(served.req);
    let value: unknown;
    try {
      value = JSON.parse(raw);
      const logged = loggedFor.get(served.req);
      if (logged !== undefined) logged.body = value;
    } catch {
      return { ok: false, problem: { kind: 'invalid_json', message: 'The request body is not valid JSON.' } };
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue?.path.join('.') ?? null;
      return { ok: false, problem: { kind: 'invalid_request', message: `Invalid request: ${param ?? ''} ${issue?.message ?? ''}`.trim(), param } };
    }
    return { ok: true, value: parsed.data };
  }

  async function parseJsonBody<T>(req: IncomingMessage, res: ServerResponse, schema: z.ZodType<T>): Promise<T | undefined> {
    const read = await readJson({ req }, schema);
    if (read.ok) return read.value;
    sendRefusal(res, 'openai', read.problem);
    return undefined;
  }

  /** Writes body bytes while honouring the drop and stall faults; false once the stream must stop. */
  function makeWriter(res: ServerResponse, fault: Fault | undefined): ReplyWriter {
    let sent = 0;
    let stopped = false;
    let faulted = false;
    res.on('close', () => {
      stopped = true;
    });
    return {
      get stopped() {
        return stopped || res.destroyed;
      },
      /** The drop or stall fault cut this reply (so a close is the fault's, not the client's). */
      get faulted() {
        return faulted && fault?.kind === 'drop';
      },
      write(text: string): boolean {
        if (stopped || res.destroyed) return false;
        const bytes = Buffer.from(text, 'utf8');
        if (fault?.kind === 'drop' || fault?.kind === 'stall') {
          const room = fault.afterBytes - sent;
          if (room < bytes.length) {
            if (room > 0) res.write(bytes.subarray(0, room));
            sent += Math.max(0, room);
            stopped = true;
            faulted = true;
            if (fault.kind === 'drop') {
              // Let the partial bytes leave before the socket is cut.
              setTimeout(() => res.socket?.destroy(), 20);
            }
            return false;
          }
        }
        sent += bytes.length;
        res.write(bytes);
        return true;
      },
    };
  }

  function usageChat(prompt: number, completion: number, reasoning: number) {
    return {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      completion_tokens_details: { reasoning_tokens: reasoning },
      prompt_tokens_details: { cached_tokens: 0 },
    };
  }

  async function chat(req: IncomingMessage, res: ServerResponse, key: KeyRecord, fault: Fault | undefined, logged: LoggedRequest): Promise<void> {
    const body = await parseJsonBody(req, res, ChatBody);
    if (body === undefined) return;
    const turns = turnsFromChat(body);
    const model = admit(res, key, body.model, 'openai', turns);
    if (model === undefined) return;
    const view = chatToolView(body);
    if (model.refusesTools === true && view.offered.length > 0) return sendRefusal(res, 'openai', TOOLS_REFUSED);
    const unthought = model.thinksWithTools === true ? missingToolThinking(body) : undefined;
    if (unthought !== undefined) {
      // DeepSeek's words for it.
      return sendRefusal(res, 'openai', { kind: 'invalid_request', message: `Missing \`reasoning_content\` field in the assistant message at message index ${unthought}.`, param: null });
    }
    const step = toolStep(view, core.serial());
    if (step?.kind === 'calls') return chatToolCalls({ req, res, key, fault, logged }, model, body.stream === true, step.calls, promptTokensOf(turns, estimateTokens));
    const reply = truncate(step?.kind === 'answer' ? { text: step.text } : model.answer(turns, { imageChat }), body.max_tokens);
    const cut = cutByFilter(reply.text, fault, pace.chunkChars);
    const { blocked } = cut;
    // An image after the text, unless the filter stopped the reply.
    const image = blocked || reply.image === undefined ? undefined : reply.image;
    const text = image === undefined ? cut.text : cut.text + imageMarkdown(image);
    const promptTokens = promptTokensOf(turns, estimateTokens);
    const completionTokens = reply.outputTokens === undefined ? estimateTokens(text) : estimateTokens(cut.text) + reply.outputTokens;
    const reasoningTokens = estimateTokens(reply.reasoning ?? '');
    const id = `chatcmpl-ref${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const finishReason = blocked ? 'content_filter' : reply.truncated ? 'length' : 'stop';
    // Azure says which of its filters stopped the reply.
    const filterResults = blocked ? { content_filter_results: AZURE_VIOLENCE_FILTERED } : {};

    if (body.stream !== true) {
      bill(key, model, promptTokens, completionTokens + reasoningTokens);
      return sendJson(res, 200, JSON.stringify({
        id, object: 'chat.completion', created, model: model.id,
        choices: [{
          index: 0,
          message: { role: 'assistant', content: blocked && text === '' ? null : text, ...(reply.reasoning === undefined ? {} : { reasoning_content: reply.reasoning }) },
          finish_reason: finishReason,
          ...filterResults,
        }],
        usage: usageChat(promptTokens, completionTokens + reasoningTokens, reasoningTokens),
      }));
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const served: Served = { req, res, key, fault, logged };
    const out = core.writer(served);
    const log = core.startStream(served, out);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null, choiceExtra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [{ index: 0, delta, finish_reason: finish, ...choiceExtra }] })}\n\n`;

    if (!out.write(chunk({ role: 'assistant', content: '' }))) return;
    let sentChunks = 0;
    const pieces: { field: 'reasoning_content' | 'content'; text: string }[] = [
      ...chunkText(reply.reasoning ?? '', pace.chunkChars).map((text) => ({ field: 'reasoning_content' as const, text })),
      ...chunkText(cut.text, pace.chunkChars).map((piece) => ({ field: 'content' as const, text: piece })),
      ...(image === undefined ? [] : imagePieces(image)).map((piece) => ({ field: 'content' as const, text: piece })),
    ];
    for (const piece of pieces) {
      if (fault?.kind === 'midstream-error' && sentChunks === fault.afterChunks) {
        out.write(`data: ${errorBody(words.upstreamClosed, 'upstream_error', 'bad_response_status_code')}\n\n`);
        if (fault.thenDone) out.write('data: [DONE]\n\n');
        res.end();
        return;
      }
      if (fault?.kind === 'malformed-chunk' && sentChunks === fault.afterChunks) {
        if (!out.write('data: {"id":"broken","choices":[{"delta":{"content":"cut off\n\n')) return;
      }
      await sleep(pace.delayMs);
      if (out.stopped || !out.write(chunk({ [piece.field]: piece.text }))) return;
      if (piece.field === 'content') core.delivered(log, piece.text);
      sentChunks++;
    }
    if (!out.write(chunk({}, finishReason, filterResults))) return;
    bill(key, model, promptTokens, completionTokens + reasoningTokens);
    if (body.stream_options?.include_usage === true) {
      if (!out.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage: usageChat(promptTokens, completionTokens + reasoningTokens, reasoningTokens) })}\n\n`)) return;
    }
    if (!out.write('data: [DONE]\n\n')) return;
    core.finish(served, log);
  }

  async function responses(req: IncomingMessage, res: ServerResponse, key: KeyRecord, fault: Fault | undefined): Promise<void> {
    const body = await parseJsonBody(req, res, ResponsesBody);
    if (body === undefined) return;
    const turns = turnsFromResponses(body);
    const model = admit(res, key, body.model, 'openai-response', turns);
    if (model === undefined) return;
    const view = responsesToolView(body);
    if (model.refusesTools === true && view.offered.length > 0) return sendRefusal(res, 'openai', TOOLS_REFUSED);
    const step = toolStep(view, core.serial());
    if (step?.kind === 'calls') return responsesToolCalls(res, key, model, body.stream === true, step.calls, promptTokensOf(turns, estimateTokens), fault);
    const searched = searchAnswer(view);
    const reply = truncate(searched !== undefined ? { text: searched } : step?.kind === 'answer' ? { text: step.text } : model.answer(turns), body.max_output_tokens);
    const annotations = searched === undefined ? [] : SEARCH_SOURCES.map((s) => ({ type: 'url_citation', url: s.url, title: s.title, start_index: 0, end_index: searched.length }));
    const { text, blocked } = cutByFilter(reply.text, fault, pace.chunkChars);
    const inputTokens = promptTokensOf(turns, estimateTokens);
    const outputTokens = estimateTokens(text) + estimateTokens(reply.reasoning ?? '');
    const id = `resp_ref${requests.length}`;
    const itemId = `msg_ref${requests.length}`;
    const createdAt = Math.floor(Date.now() / 1000);
    const usage = {
      input_tokens: inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: estimateTokens(reply.reasoning ?? '') },
      total_tokens: inputTokens + outputTokens,
    };
    const message = {
      id: itemId, type: 'message', status: 'completed', role: 'assistant',
      content: [{ type: 'output_text', text, annotations }],
    };
    const incomplete = blocked ? 'content_filter' : reply.truncated ? 'max_output_tokens' : undefined;
    const response = (status: string, output: unknown[], withUsage: boolean) => ({
      id, object: 'response', created_at: createdAt, status, model: model.id, output,
      error: null, incomplete_details: incomplete !== undefined && status !== 'in_progress' ? { reason: incomplete } : null,
      instructions: body.instructions ?? null, parallel_tool_calls: true, tool_choice: 'auto', tools: [],
      usage: withUsage ? usage : null,
    });
    const finalStatus = incomplete === undefined ? 'completed' : 'incomplete';

    if (body.stream !== true) {
      bill(key, model, inputTokens, outputTokens);
      return sendJson(res, 200, JSON.stringify(response(finalStatus, [message], true)));
    }

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const out = makeWriter(res, fault);
    let seq = 0;
    const event = (type: string, fields: Record<string, unknown>) =>
      `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;

    if (!out.write(event('response.created', { response: response('in_progress', [], false) }))) return;
    if (!out.write(event('response.in_progress', { response: response('in_progress', [], false) }))) return;
    if (!out.write(event('response.output_item.added', { output_index: 0, item: { ...message, status: 'in_progress', content: [] } }))) return;
    if (!out.write(event('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }))) return;
    let sentChunks = 0;
    for (const piece of chunkText(text, pace.chunkChars)) {
      if (fault?.kind === 'midstream-error' && sentChunks === fault.afterChunks) {
        out.write(event('error', { code: 'server_error', message: words.upstreamClosed, param: null }));
        out.write(event('response.failed', { response: { ...response('failed', [], false), error: { code: 'server_error', message: words.upstreamClosed } } }));
        res.end();
        return;
      }
      if (fault?.kind === 'malformed-chunk' && sentChunks === fault.afterChunks) {
        if (!out.write('event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"cut\n\n')) return;
      }
      await sleep(pace.delayMs);
      if (out.stopped || !out.write(event('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: piece, logprobs: [] }))) return;
      sentChunks++;
    }
    for (const [annotation_index, annotation] of annotations.entries()) {
      if (!out.write(event('response.output_text.annotation.added', { item_id: itemId, output_index: 0, content_index: 0, annotation_index, annotation }))) return;
    }
    if (!out.write(event('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] }))) return;
    if (!out.write(event('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: message.content[0] }))) return;
    if (!out.write(event('response.output_item.done', { output_index: 0, item: message }))) return;
    bill(key, model, inputTokens, outputTokens);
    if (!out.write(event(finalStatus === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: response(finalStatus, [message], true) }))) return;
    res.end(streamEnd);
  }

  /** A Chat Completions reply that calls tools: each call's arguments in two pieces, as OpenAI streams them. */
  function chatToolCalls(served: Served, model: ReferenceModel, stream: boolean, calls: PlannedCall[], promptTokens: number): void {
    const { res, key } = served;
    const id = `chatcmpl-ref${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const completion = calls.reduce((n, c) => n + estimateTokens(JSON.stringify(c.args)) + 5, 0);
    bill(key, model, promptTokens, completion);
    const thinking = model.thinksWithTools === true ? toolThinking(calls) : undefined;
    if (!stream) {
      return sendJson(res, 200, JSON.stringify({
        id, object: 'chat.completion', created, model: model.id,
        choices: [{ index: 0, message: { role: 'assistant', content: null, ...(thinking === undefined ? {} : { reasoning_content: thinking }), tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) }, finish_reason: 'tool_calls' }],
        usage: usageChat(promptTokens, completion, 0),
      }));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const out = core.writer(served);
    const log = core.startStream(served, out);
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const pieces = [chunk({ role: 'assistant', content: null })];
    if (thinking !== undefined) pieces.push(...chunkText(thinking, 12).map((piece) => chunk({ reasoning_content: piece })));
    calls.forEach((c, index) => {
      const args = JSON.stringify(c.args);
      const half = Math.ceil(args.length / 2);
      pieces.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
      pieces.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(0, half) } }] }));
      pieces.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
    });
    pieces.push(chunk({}, 'tool_calls'));
    pieces.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage: usageChat(promptTokens, completion, 0) })}\n\n`, 'data: [DONE]\n\n');
    for (const piece of pieces) if (!out.write(piece)) return;
    core.finish(served, log);
  }

  /** A Responses reply that calls tools: function_call items, argument deltas, then response.completed. */
  function responsesToolCalls(res: ServerResponse, key: KeyRecord, model: ReferenceModel, stream: boolean, calls: PlannedCall[], inputTokens: number, fault: Fault | undefined): void {
    const id = `resp_ref${requests.length}`;
    const outputTokens = calls.reduce((n, c) => n + estimateTokens(JSON.stringify(c.args)) + 5, 0);
    const items = calls.map((c, i) => ({ type: 'function_call', id: `fc_ref${requests.length}_${i}`, call_id: c.id, name: c.name, arguments: JSON.stringify(c.args), status: 'completed' }));
    const usage = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
    const response = (status: string, output: unknown[]) => ({ id, object: 'response', status, model: model.id, output, error: null, incomplete_details: null, usage: status === 'completed' ? usage : null });
    bill(key, model, inputTokens, outputTokens);
    if (!stream) return sendJson(res, 200, JSON.stringify(response('completed', items)));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const out = makeWriter(res, fault);
    let seq = 0;
    const event = (type: string, fields: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`;
    const pieces = [event('response.created', { response: response('in_progress', []) })];
    items.forEach((item, output_index) => {
      const half = Math.ceil(item.arguments.length / 2);
      pieces.push(
        event('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }),
        event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments.slice(0, half) }),
        event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments.slice(half) }),
        event('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }),
        event('response.output_item.done', { output_index, item }),
      );
    });
    pieces.push(event('response.completed', { response: response('completed', items) }));
    for (const piece of pieces) if (!out.write(piece)) return;
    res.end(streamEnd);
  }

  let serial = 0;
  const core: GatewayCore = {
    words: () => words,
    pace: () => pace,
    readJson,
    admit: check,
    bill,
    writer: (served) => makeWriter(served.res, served.fault),
    startStream(served, out) {
      const log: StreamLog = { sentText: '', cancelled: false, finished: false };
      served.logged.stream = log;
      served.res.on('close', () => {
        if (!served.res.writableFinished && !out.faulted) log.cancelled = true;
      });
      return log;
    },
    delivered(log, text) {
      if (log.sentText === '' && text !== '') streamFirstWords.push(Date.now());
      log.sentText += text;
    },
    finish(served, log) {
      log.finished = true;
      served.res.end(streamEnd);
    },
    serial: () => ++serial,
    answerContext: () => ({ imageChat }),
  };
  imageHost.core = core;

  async function admin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (req.method === 'GET' && path === '/__admin/requests') return sendJson(res, 200, JSON.stringify(requests));
    if (req.method !== 'POST') return sendJson(res, 405, errorBody('admin endpoints take POST', 'invalid_request_error', 'method'));
    const raw = await readBody(req);
    let body: unknown;
    try {
      body = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      return sendJson(res, 400, errorBody('admin body is not JSON', 'invalid_request_error', 'invalid_json'));
    }
    const ok = () => sendJson(res, 200, JSON.stringify({ ok: true }));
    switch (path) {
      case '/__admin/fault': {
        const parsed = z.object({ fault: Fault, times: z.number().int().positive().default(1), model: z.string().optional() }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_fault'));
        gateway.setFault(parsed.data.fault, parsed.data.times, parsed.data.model);
        return ok();
      }
      case '/__admin/pace': {
        const parsed = z.object({ delayMs: z.number().nonnegative().optional(), chunkChars: z.number().int().positive().optional() }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_pace'));
        gateway.setPace(parsed.data);
        return ok();
      }
      case '/__admin/withdraw':
      case '/__admin/restore': {
        const parsed = z.object({ model: z.string() }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_model'));
        if (path === '/__admin/withdraw') gateway.withdraw(parsed.data.model);
        else gateway.restore(parsed.data.model);
        return ok();
      }
      case '/__admin/billing': {
        const parsed = BillingSettings.partial().safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_billing'));
        gateway.setBilling(parsed.data);
        return ok();
      }
      case '/__admin/balance': {
        const parsed = z.object({ account: z.string(), balance: z.number() }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_balance'));
        gateway.setBalance(parsed.data.account, parsed.data.balance);
        return ok();
      }
      case '/__admin/unserved': {
        const parsed = z.object({ interfaces: z.array(UnservedInterface), status: z.union([z.literal(404), z.literal(405)]).optional() }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_unserved'));
        gateway.setUnserved(parsed.data.interfaces, parsed.data.status);
        return ok();
      }
      case '/__admin/language': {
        const parsed = z.object({ language: z.enum(['en', 'zh-CN']) }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_language'));
        gateway.setLanguage(parsed.data.language);
        return ok();
      }
      case '/__admin/expire-images':
        gateway.expireImages();
        return ok();
      case '/__admin/image-chat': {
        const parsed = z.object({
          size: z.string().regex(/^\d{2,5}x\d{2,5}$/).optional(),
          bytes: z.number().int().nonnegative().optional(),
          pieceChars: z.number().int().positive().optional(),
        }).safeParse(body);
        if (!parsed.success) return sendJson(res, 400, errorBody(parsed.error.message, 'invalid_request_error', 'invalid_image_chat'));
        gateway.setImageChat(parsed.data);
        return ok();
      }
      case '/__admin/reset':
        gateway.reset();
        return ok();
      default:
        return sendJson(res, 404, errorBody(`no admin endpoint ${path}`, 'invalid_request_error', 'not_found'));
    }
  }

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  siteUrl = `http://${host}:${port}`;

  const gateway: ReferenceGateway = {
    siteUrl,
    baseUrl: `${siteUrl}/v1`,
    demoKey: DEMO_KEY,
    requests,
    streamEnds,
    streamEnded,
    streamFirstWords,
    setFault(fault, times = 1, model) {
      faults.push({ fault: Fault.parse(fault), times, model });
    },
    setPace(next) {
      pace = { ...pace, ...next };
    },
    setLanguage(language) {
      words = ERROR_WORDS[language];
    },
    withdraw(id) {
      withdrawn.add(id);
    },
    restore(id) {
      withdrawn.delete(id);
    },
    setBalance(account, balance) {
      balances.set(account, balance);
    },
    balanceOf(account) {
      return balances.get(account) ?? 0;
    },
    usedBy(account) {
      return used.get(account) ?? 0;
    },
    setBilling(settings) {
      billing = BillingSettings.parse({ ...billing, ...settings });
    },
    setUnserved(interfaces, status = 404) {
      unserved = { interfaces: new Set(interfaces), status };
    },
    expireImages() {
      servedImages.expireAll();
    },
    setImageChat(settings) {
      imageChat = { ...imageChat, ...settings };
    },
    reset: resetState,
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
  return gateway;
}

function truncate(reply: ModelReply, maxTokens: number | undefined): ModelReply & { truncated: boolean } {
  if (maxTokens === undefined || reply.image !== undefined || reply.text.length <= maxTokens * 4) return { ...reply, truncated: false };
  return { ...reply, text: reply.text.slice(0, maxTokens * 4), truncated: true };
}

/**
 * Classifying what a gateway said went wrong. The code, the type and the HTTP status are read
 * together; the message is only ever a tie-breaker next to a status (one-api's 401 for a key
 * whose own quota is spent, a 404 or 400 naming the model), never a classifier on its own.
 */
import { GatewayError, redactSecrets, type ErrorDetail, type GatewayErrorKind } from './errors';
import { ErrorEnvelope, type ErrorObject } from './wire';
import { ownValue } from '../shared/own-keys';

export interface ErrorFacts {
  status?: number;
  code?: string;
  type?: string;
  param?: string;
  message?: string;
}

export interface ClassifyContext {
  url: string;
  siteUrl?: string;
  apiKey?: string;
  retryAfter?: number;
}

/** Codes (lower-cased) that decide the kind whatever the status. */
const CODE_KINDS: Readonly<Record<string, GatewayErrorKind>> = {
  invalid_api_key: 'invalid_key',
  invalid_key: 'invalid_key',
  invalid_token: 'invalid_key',
  token_expired: 'invalid_key',
  model_not_found: 'model_not_found',
  model_not_exist: 'model_not_found',
  model_does_not_exist: 'model_not_found',
  insufficient_user_quota: 'insufficient_balance',
  pre_consume_token_quota_failed: 'insufficient_balance',
  insufficient_quota: 'insufficient_balance',
  insufficient_balance: 'insufficient_balance',
  insufficient_credits: 'insufficient_balance',
  quota_exceeded: 'insufficient_balance',
  budget_exceeded: 'insufficient_balance',
  payment_required: 'insufficient_balance',
  rate_limit_exceeded: 'rate_limited',
  rate_limit_error: 'rate_limited',
  too_many_requests: 'rate_limited',
  context_length_exceeded: 'bad_request',
  string_above_max_length: 'bad_request',
  content_filter: 'content_blocked',
  access_denied: 'permission_denied',
  permission_denied: 'permission_denied',
  // Gemini: a key it does not know (sent as 400 INVALID_ARGUMENT), a prompt its filters refused.
  api_key_invalid: 'invalid_key',
  prompt_blocked: 'content_blocked',
  // Content policy and moderation refusals (image models above all): OpenAI's DALL·E and
  // gpt-image codes, Azure's inner code, new-api's own sensitive-word check.
  content_policy_violation: 'content_blocked',
  moderation_blocked: 'content_blocked',
  content_moderation: 'content_blocked',
  responsibleaipolicyviolation: 'content_blocked',
  sensitive_words_detected: 'content_blocked',
};

/** Types (lower-cased) that decide the kind when the code did not. */
const TYPE_KINDS: Readonly<Record<string, GatewayErrorKind>> = {
  insufficient_quota: 'insufficient_balance',
  budget_exceeded: 'insufficient_balance',
  authentication_error: 'invalid_key',
  permission_error: 'permission_denied',
  rate_limit_error: 'rate_limited',
  overloaded_error: 'server',
  server_error: 'server',
  // Gemini's status words (`{"error":{code,message,status}}`).
  resource_exhausted: 'rate_limited',
  unauthenticated: 'invalid_key',
  permission_denied: 'permission_denied',
  unavailable: 'server',
  internal: 'server',
  deadline_exceeded: 'timeout',
};

/** Request fields that are an image model's options: a refusal naming one is about its value. */
const OPTION_PARAMS: ReadonlySet<string> = new Set([
  'size', 'quality', 'n', 'background', 'output_format', 'output_compression', 'response_format', 'style', 'moderation', 'partial_images', 'input_fidelity',
]);
/** Codes (lower-cased) that say a value was not one the model takes. */
const VALUE_CODES: ReadonlySet<string> = new Set(['invalid_value', 'invalid_size', 'unsupported_value', 'unsupported_size', 'invalid_image_size']);
/** Fields that are the request's content, not an option, even when a value code names them. */
const NOT_OPTIONS: ReadonlySet<string> = new Set(['model', 'messages', 'prompt', 'input', 'image', 'mask', 'contents']);

function isOptionParam(param: string | undefined): boolean {
  return param !== undefined && OPTION_PARAMS.has(param.toLowerCase());
}

const MODEL_MISSING = /model[\s\S]{0,80}?(does not exist|doesn't exist|not exist|not found|not available|unknown|no such|不存在|无可用渠道|not supported)|(invalid|unknown|no such) model|model_not_found|无可用渠道|模型.{0,40}不存在/i;
const QUOTA_SPENT = /quota|balance|credit|额度|余额|用尽/i;

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Reads `{"error":{…}}`, `{"error":"…"}`, vLLM's top-level `{object:"error",…}` and `{detail:…}`. */
export function errorFactsFromBody(body: unknown, status?: number): ErrorFacts | undefined {
  const parsed = ErrorEnvelope.safeParse(body);
  if (!parsed.success) return undefined;
  const env = parsed.data;
  const facts: ErrorFacts = { status };
  if (typeof env.error === 'string') {
    facts.message = env.error;
    return facts;
  }
  if (env.error !== undefined && env.error !== null) return { ...facts, ...factsFromObject(env.error) };
  if (env.object === 'error' || (env.success === false && env.message !== undefined)) {
    return { ...facts, ...factsFromObject({ message: env.message, type: env.type, code: env.code }) };
  }
  if (env.detail !== undefined) {
    facts.message = typeof env.detail === 'string' ? env.detail : JSON.stringify(env.detail);
    return facts;
  }
  return undefined;
}

export function factsFromObject(error: ErrorObject): ErrorFacts {
  const facts: ErrorFacts = {};
  const message = asText(error.message);
  const type = asText(error.type);
  const param = asText(error.param);
  const code = asText(error.code);
  if (message !== undefined) facts.message = message;
  // LiteLLM sends `type: "None"`, a Python None turned into a string.
  if (type !== undefined && type !== 'None') facts.type = type;
  if (param !== undefined) facts.param = param;
  if (code !== undefined) facts.code = code;
  // Gemini: the status word is the type; a reason in its details names what was wrong.
  const extra = error as { status?: unknown; details?: unknown };
  if (facts.type === undefined && typeof extra.status === 'string' && extra.status !== '') facts.type = extra.status;
  if (Array.isArray(extra.details)) {
    const reason = extra.details.map((d: unknown) => (d as { reason?: unknown } | null)?.reason).find((r) => typeof r === 'string' && r !== '');
    if (reason === 'API_KEY_INVALID') facts.code = 'api_key_invalid';
  }
  return facts;
}

/** The kind, from code, type and status read together. */
export function classifyFacts(facts: ErrorFacts, url = ''): GatewayErrorKind {
  const code = facts.code?.toLowerCase();
  const type = facts.type?.toLowerCase();
  const message = facts.message ?? '';
  const status = facts.status;

  // Both are the gateway's words: a code "constructor" must not find Object.prototype's.
  const byCode = code === undefined ? undefined : ownValue(CODE_KINDS, code);
  if (byCode !== undefined) return byCode;
  const byType = type === undefined ? undefined : ownValue(TYPE_KINDS, type);
  if (byType !== undefined) return byType;

  // A doubled version (`/v1/v1`). `v\d[a-z0-9]*`, not `v\d+[a-z0-9]*`: the same words, without backtracking over digits.
  if (/\/v\d[a-z0-9]*\/v\d[a-z0-9]*(\/|$)/i.test(safePath(url))) return 'bad_address';
  // Anthropic names a missing model as `not_found_error` "model: <id>".
  const namesModel = facts.param === 'model' || MODEL_MISSING.test(message) || (type === 'not_found_error' && /^model:/i.test(message));

  switch (status) {
    case 401:
      // one-api answers 401 for a key whose own quota is spent: a balance problem, not a bad key.
      return QUOTA_SPENT.test(message) ? 'insufficient_balance' : 'invalid_key';
    case 402:
      return 'insufficient_balance';
    case 403:
      // new-api refuses a spent balance with 403 on the vendor interfaces (its own error type, no code).
      return QUOTA_SPENT.test(message) ? 'insufficient_balance' : 'permission_denied';
    case 404:
      return namesModel && isModelEndpoint(url) ? 'model_not_found' : 'bad_address';
    case 405:
      return 'bad_address';
    case 408:
    case 504:
      return 'timeout';
    case 429:
      return 'rate_limited';
    case 400:
    case 413:
    case 422:
      return namesModel && /model/i.test(message) && facts.param !== 'messages' && !isOptionParam(facts.param) ? 'model_not_found' : 'bad_request';
    case undefined:
      break;
    default:
      if (status >= 500) return namesModel && MODEL_MISSING.test(message) ? 'model_not_found' : 'server';
      if (status >= 400) return 'bad_request';
  }
  // Inside a stream there is no status: a model named missing is still that; a value the model
  // does not take (named by code or param) is still the request's fault; else the upstream failed.
  if (namesModel && MODEL_MISSING.test(message) && !isOptionParam(facts.param)) return 'model_not_found';
  if (isOptionParam(facts.param) || (code !== undefined && VALUE_CODES.has(code))) return 'bad_request';
  return 'server';
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function isModelEndpoint(url: string): boolean {
  return /(\/(chat\/completions|responses|completions|embeddings|images\/generations|images\/edits|messages)|:(stream)?generateContent)$/i.test(safePath(url));
}

/**
 * Where the gateway named what it cannot take, the values it would take: the list after
 * "Supported values are:" (OpenAI), "is not one of [...]" (DALL·E 2), "支持…：" and the like,
 * quoted items first, else comma-separated words; comma-joined, or undefined when it listed none.
 * Only ever read next to a code or a param that already said which refusal this is.
 */
export function supportedValues(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const text = message.slice(0, 2000);
  const marker = /supported (?:values|sizes|options)(?: are| is)?|(?:must be|is not|expected) one of|one of the following|(?<!不)支持的?(?:值|尺寸|大小|选项)?(?:为|是|有|包括)?|可选值(?:为|是|有)?/i.exec(text);
  if (marker === null) return undefined;
  const after = text.slice(marker.index + marker[0].length).replace(/^\s*[:：]?\s*/, '');
  // A bracketed list ends at its bracket (`['256x256', '512x512'] - 'size'`), else the sentence ends it.
  const bracket = /^[[(]([^\])]*)[\])]/.exec(after);
  const rest = bracket === null ? after.split(/\.\s|\.$|。|\n/)[0] ?? '' : bracket[1] ?? '';
  const quoted = [...rest.matchAll(/'([^'\n]{1,40})'|"([^"\n]{1,40})"|`([^`\n]{1,40})`|‘([^’\n]{1,40})’|“([^”\n]{1,40})”/g)]
    .map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').trim());
  const values = (quoted.length > 0 ? quoted : rest.split(/\s*(?:,|;|、|，|\band\b|\bor\b|或)\s*/)
    .map((v) => v.trim()).filter((v) => /^[\w.:+-]{1,40}$/.test(v)))
    .filter((v) => v !== '');
  const unique = [...new Set(values)].slice(0, 20);
  return unique.length === 0 ? undefined : unique.join(', ');
}

/**
 * Our detail for an error the gateway explained by its code, type or param: a content-policy
 * refusal, or a value (size, quality, …) the model does not take. Undefined for the others.
 */
export function detailFromFacts(kind: GatewayErrorKind, facts: ErrorFacts): ErrorDetail | undefined {
  if (kind === 'content_blocked') return { code: 'content_policy' };
  if (kind !== 'bad_request') return undefined;
  if (refusesTools(facts)) return { code: 'tools_refused' };
  const code = facts.code?.toLowerCase();
  const param = facts.param ?? (code !== undefined && code.includes('size') ? 'size' : undefined);
  if (param === undefined) return undefined;
  const byValue = code !== undefined && VALUE_CODES.has(code) && !NOT_OPTIONS.has(param.toLowerCase());
  if (!byValue && !isOptionParam(param)) return undefined;
  const supported = supportedValues(facts.message);
  return { code: 'unsupported_option', params: supported === undefined ? { param } : { param, supported } };
}

/** Request fields that offer tools: a refusal naming one is a refusal of tools. */
const TOOL_PARAMS: ReadonlySet<string> = new Set(['tools', 'tool_choice', 'functions', 'function_call', 'parallel_tool_calls']);

/**
 * A 400 that refuses the request's tools: its param or code names them, or (for gateways that
 * send neither, vLLM and Ollama) its words say tools are not supported: a 400 beside those words, never the words alone.
 */
function refusesTools(facts: ErrorFacts): boolean {
  const param = facts.param?.toLowerCase().replace(/^body\./, '');
  // `tools[0].function.parameters`: one tool's schema was refused, not tools as such.
  if (param !== undefined && /^tools\[/.test(param)) return false;
  if (param !== undefined && TOOL_PARAMS.has(param)) return true;
  const code = facts.code?.toLowerCase() ?? '';
  if (/tool|function_call/.test(code)) return true;
  const message = facts.message ?? '';
  return /\btools?\b|tool[_ ]?(use|call)|function[_ ]?call|工具/i.test(message) && /not support|unsupported|does not support|not enabled|not allowed|不支持/i.test(message);
}

export function buildGatewayError(kind: GatewayErrorKind, facts: ErrorFacts, ctx: ClassifyContext, given?: ErrorDetail): GatewayError {
  const detail = given ?? detailFromFacts(kind, facts);
  return new GatewayError({
    kind,
    url: ctx.url,
    siteUrl: ctx.siteUrl,
    status: facts.status,
    code: facts.code,
    type: facts.type,
    gatewayMessage: facts.message === undefined ? undefined : redactSecrets(facts.message, ctx.apiKey),
    retryAfter: ctx.retryAfter,
    // Details can quote what the gateway sent (a chunk, a body): the key never stays in them.
    detail: detail === undefined ? undefined : cleanDetail(detail, ctx.apiKey),
  });
}

/** A detail's quoted text and parameters never keep the key. */
function cleanDetail(detail: ErrorDetail, apiKey: string | undefined): ErrorDetail {
  const clean: ErrorDetail = { code: detail.code };
  if (detail.params !== undefined) {
    clean.params = Object.fromEntries(Object.entries(detail.params).map(([k, v]) => [k, typeof v === 'string' ? redactSecrets(v, apiKey) : v]));
  }
  if (detail.text !== undefined) clean.text = redactSecrets(detail.text, apiKey);
  return clean;
}

/** An error object met inside a stream (chat chunk, Responses event, `event: error`). */
export function streamErrorFrom(facts: ErrorFacts, ctx: ClassifyContext, detail?: ErrorDetail): GatewayError {
  return buildGatewayError(classifyFacts(facts, ctx.url), facts, ctx, detail);
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Classify a non-2xx response (or a 2xx that is not the API), whose body has been read as text. */
export function errorFromHttpResponse(
  response: { status: number; headers: Headers },
  bodyText: string,
  ctx: ClassifyContext,
): GatewayError {
  const { status } = response;
  const contentType = response.headers.get('content-type') ?? '';
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const withRetry = { ...ctx, retryAfter };

  let body: unknown;
  const trimmed = bodyText.trim();
  if (trimmed !== '') {
    try {
      body = JSON.parse(trimmed);
    } catch {
      body = undefined;
    }
  }
  const facts = body === undefined ? undefined : errorFactsFromBody(body, status);

  if (facts === undefined) {
    const isHtml = /html/i.test(contentType) || /^<(!doctype|html|head|body)/i.test(trimmed);
    if (status >= 200 && status < 300) {
      return buildGatewayError(isHtml ? 'bad_address' : 'bad_response', { status }, withRetry,
        isHtml ? { code: 'web_page_not_api' } : { code: 'not_json', params: { contentType: contentType || '-' } });
    }
    const kind = classifyFacts({ status }, ctx.url);
    const detail: ErrorDetail = trimmed === '' ? { code: 'no_explanation' } : isHtml ? { code: 'web_page' } : { code: 'body', text: snippet(redactSecrets(trimmed, ctx.apiKey)) };
    return buildGatewayError(kind, { status }, withRetry, detail);
  }
  return buildGatewayError(classifyFacts(facts, ctx.url), facts, withRetry);
}

function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length > 200 ? `${oneLine.slice(0, 200)}…` : oneLine;
}

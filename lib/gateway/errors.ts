/**
 * The one error type of the gateway library. Every failure, before or inside a stream, is a
 * `GatewayError` with a `kind` the UI can act on and a `remedy` from seed part 7.
 * No field ever holds the API key: messages are passed through `redactSecrets` first.
 */

export const GATEWAY_ERROR_KINDS = [
  'invalid_key',
  'bad_address',
  'model_not_found',
  'insufficient_balance',
  'rate_limited',
  'permission_denied',
  'bad_request',
  'server',
  'network',
  'timeout',
  'aborted',
  'bad_response',
] as const;

export type GatewayErrorKind = (typeof GATEWAY_ERROR_KINDS)[number];

export interface RemedyLink {
  label: string;
  url: string;
}

export interface Remedy {
  /** One sentence: what the user should do. */
  text: string;
  links: RemedyLink[];
}

export interface GatewayErrorInit {
  kind: GatewayErrorKind;
  /** The endpoint requested (never carries the key). */
  url: string;
  /** {site_url}, for the remedy's links. */
  siteUrl?: string;
  status?: number;
  code?: string;
  type?: string;
  /** The gateway's own words, as sent (redacted). */
  gatewayMessage?: string;
  /** Seconds to wait, from `Retry-After`. */
  retryAfter?: number;
  /** Our explanation when the gateway gave none (network failures, bad responses). */
  detail?: string;
  cause?: unknown;
}

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly kind: GatewayErrorKind;
  readonly url: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly gatewayMessage: string | undefined;
  readonly retryAfter: number | undefined;
  readonly remedy: Remedy;

  constructor(init: GatewayErrorInit) {
    const siteUrl = init.siteUrl ?? siteFromUrl(init.url);
    super(composeMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.url = init.url;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.gatewayMessage = init.gatewayMessage;
    this.retryAfter = init.retryAfter;
    this.remedy = remedyFor(init.kind, siteUrl, init);
  }

  /** A plain object safe to log, store or export: no key, no cause chain. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      url: this.url,
      status: this.status,
      code: this.code,
      type: this.type,
      gatewayMessage: this.gatewayMessage,
      retryAfter: this.retryAfter,
      remedy: this.remedy,
    };
  }
}

const KIND_SUMMARY: Record<GatewayErrorKind, string> = {
  invalid_key: 'The gateway rejected the API key',
  bad_address: 'The gateway address is wrong',
  model_not_found: 'The model does not exist on this gateway',
  insufficient_balance: 'The account balance is not enough for this request',
  rate_limited: 'The gateway is limiting the request rate',
  permission_denied: 'This key is not allowed to do this',
  bad_request: 'The gateway rejected the request',
  server: 'The gateway or its upstream failed',
  network: 'The gateway could not be reached',
  timeout: 'The gateway took too long to answer',
  aborted: 'The request was stopped',
  bad_response: 'The gateway sent a reply this client cannot read',
};

function composeMessage(init: GatewayErrorInit): string {
  const parts = [KIND_SUMMARY[init.kind]];
  const said = init.gatewayMessage ?? init.detail;
  if (said !== undefined && said !== '') parts.push(said);
  const where = init.status === undefined ? init.url : `${init.status} from ${init.url}`;
  return `${parts.join(': ')} (${where})`;
}

function siteFromUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const v1 = parsed.pathname.indexOf('/v1');
    return parsed.origin + (v1 > 0 ? parsed.pathname.slice(0, v1) : '');
  } catch {
    return url;
  }
}

function link(label: string, siteUrl: string, path: string): RemedyLink {
  return { label, url: `${siteUrl.replace(/\/+$/, '')}${path}` };
}

/** Seed part 7's remedies, with links built from {site_url}. */
export function remedyFor(kind: GatewayErrorKind, siteUrl: string, init: Partial<GatewayErrorInit> = {}): Remedy {
  switch (kind) {
    case 'invalid_key':
      return {
        text: 'Create a new API key on the keys page of the account you are using, copy it whole, and paste it into the API key field.',
        links: [link('Keys page', siteUrl, '/keys')],
      };
    case 'bad_address':
      return {
        text: `Correct the gateway address: enter the site address (${siteUrl}) or the base address ending in /v1 once, never /v1/v1.`,
        links: [{ label: 'Address called', url: init.url ?? siteUrl }],
      };
    case 'model_not_found':
      return {
        text: 'Copy the model ID again from the catalogue, or pick another model: this one is misspelt or has been withdrawn.',
        links: [link('Model catalogue', siteUrl, '/models')],
      };
    case 'insufficient_balance':
      return {
        text: 'Check the balance on the dashboard, then top it up in the Purchase or Redeem area (or raise this key\'s own limit on the keys page).',
        links: [
          link('Dashboard', siteUrl, '/console'),
          link('Purchase', siteUrl, '/console/topup'),
          link('Redeem', siteUrl, '/console/topup'),
          link('Keys page', siteUrl, '/keys'),
        ],
      };
    case 'rate_limited':
      return {
        text: init.retryAfter === undefined
          ? 'Wait a little and retry; the gateway limits how many requests this key may send.'
          : `Wait ${init.retryAfter} s and retry; the gateway limits how many requests this key may send.`,
        links: [],
      };
    case 'permission_denied':
      return {
        text: 'This key may not use this model or endpoint. Check the key\'s allowed models and group on the keys page, or pick another model.',
        links: [link('Keys page', siteUrl, '/keys'), link('Model catalogue', siteUrl, '/models')],
      };
    case 'bad_request':
      return {
        text: 'The gateway refused the request as sent. Check the model\'s parameters (max tokens, temperature, images) and the message size.',
        links: [link('Model catalogue', siteUrl, '/models')],
      };
    case 'server':
      return { text: 'Retry in a moment, or choose another model: the gateway or its upstream provider failed.', links: [] };
    case 'network':
      return {
        text: `Check your connection and that the gateway address (${siteUrl}) is right and reachable, then retry.`,
        links: [{ label: 'Gateway site', url: siteUrl }],
      };
    case 'timeout':
      return { text: 'Retry; if it keeps happening, choose a faster model or ask for a shorter reply.', links: [] };
    case 'aborted':
      return { text: 'Retry to ask again.', links: [] };
    case 'bad_response':
      return {
        text: `Check that the address points at the gateway's API (${siteUrl}/v1) and not at a web page or another service.`,
        links: [{ label: 'Gateway site', url: siteUrl }],
      };
  }
}

const SECRET_PATTERN = /\b(sk|pk|rk)-[A-Za-z0-9_\-*.]{6,}/g;
/** The shortest run of a key's characters that counts as a piece of it. */
const KEY_PIECE = 8;
const REMOVED = '[key removed]';

/**
 * Remove the key (and anything shaped like one) from a text the gateway sent back. The
 * configured key is removed whatever it looks like, and so is every piece of it of
 * `KEY_PIECE` characters or more (a gateway that echoes "sk-abcd1234…" or the first half of
 * a key). Redact before cutting a text short: a cut key is no longer the key.
 */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey !== undefined && apiKey.length >= 4) {
    out = out.split(apiKey).join(REMOVED);
    if (apiKey.length >= KEY_PIECE) out = removeKeyPieces(out, apiKey);
  }
  return out.replace(SECRET_PATTERN, `$1-${REMOVED}`);
}

/** Replaces every run of `KEY_PIECE`+ characters that stands in the key. */
function removeKeyPieces(text: string, apiKey: string): string {
  const pieces = new Set<string>();
  for (let i = 0; i + KEY_PIECE <= apiKey.length; i++) pieces.add(apiKey.slice(i, i + KEY_PIECE));
  let out = '';
  let i = 0;
  let copied = 0;
  while (i + KEY_PIECE <= text.length) {
    if (!pieces.has(text.slice(i, i + KEY_PIECE))) {
      i++;
      continue;
    }
    // Extend the match while each next window is still a piece of the key.
    let end = i + KEY_PIECE;
    while (end < text.length && pieces.has(text.slice(end - KEY_PIECE + 1, end + 1))) end++;
    out += text.slice(copied, i) + REMOVED;
    copied = end;
    i = end;
  }
  return out + text.slice(copied);
}

/**
 * The one error type of the gateway library. Every failure, before or inside a stream, is a
 * `GatewayError` with a `kind` the UI can act on, the facts it words (status, address, the
 * gateway's own words, a detail code) and the remedy's links from seed part 7 (its codes and
 * facts: error-facts.ts).
 * No field ever holds the API key: messages are passed through `redactSecrets` first.
 */
import { GATEWAY_ERROR_KINDS, siteFromUrl, type ErrorDetail, type GatewayErrorKind, type RemedyLink, type RemedyLinkId } from './error-facts';

export {
  ERROR_DETAILS, GATEWAY_ERROR_KINDS, REMEDY_LINKS, redactSecrets, siteFromUrl,
  type ErrorDetail, type ErrorDetailCode, type GatewayErrorKind, type RemedyLink, type RemedyLinkId,
} from './error-facts';

function isGatewayErrorKind(value: unknown): value is GatewayErrorKind {
  return typeof value === 'string' && (GATEWAY_ERROR_KINDS as readonly string[]).includes(value);
}

/**
 * What the user can do, as codes: the UI words it from the error's kind and these facts
 * (lib/ returns no sentences).
 */
export interface Remedy {
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
  /** Our account when the gateway gave none (network failures, bad responses). */
  detail?: ErrorDetail;
  cause?: unknown;
}

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  readonly kind: GatewayErrorKind;
  readonly url: string;
  readonly siteUrl: string;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly type: string | undefined;
  readonly gatewayMessage: string | undefined;
  readonly retryAfter: number | undefined;
  readonly detail: ErrorDetail | undefined;
  readonly remedy: Remedy;

  constructor(given: GatewayErrorInit) {
    // Kinds come out of tables keyed by the gateway's words: whatever a table ever hands out,
    // an error is one of the closed list (the remedies, the saved records and the words know
    // no other), and an unknown one reads as an answer we could not make sense of.
    const init = isGatewayErrorKind(given.kind) ? given : { ...given, kind: 'bad_response' as const };
    const siteUrl = init.siteUrl ?? siteFromUrl(init.url);
    super(technicalMessage(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.url = init.url;
    this.siteUrl = siteUrl;
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.gatewayMessage = init.gatewayMessage;
    this.retryAfter = init.retryAfter;
    this.detail = init.detail;
    this.remedy = remedyFor(init.kind, siteUrl, init);
  }

  /** A plain object safe to log, store or export: no key, no cause chain. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      url: this.url,
      siteUrl: this.siteUrl,
      status: this.status,
      code: this.code,
      type: this.type,
      gatewayMessage: this.gatewayMessage,
      retryAfter: this.retryAfter,
      detail: this.detail,
      remedy: this.remedy,
    };
  }
}

/**
 * For developers' consoles and stack traces only, never shown to users: the kind, the
 * address, and what the gateway said (the UI words the kind in the user's language).
 */
function technicalMessage(init: GatewayErrorInit): string {
  const said = init.gatewayMessage ?? (init.detail === undefined ? undefined : `${init.detail.code}${init.detail.text === undefined ? '' : ` ${init.detail.text}`}`);
  const where = init.status === undefined ? init.url : `${init.status} ${init.url}`;
  return `${init.kind} (${where})${said === undefined || said === '' ? '' : `: ${said}`}`;
}

function link(id: RemedyLinkId, siteUrl: string, path: string): RemedyLink {
  return { id, url: `${siteUrl.replace(/\/+$/, '')}${path}` };
}

/** Seed part 7's remedies: the links each kind offers, built from {site_url}. */
export function remedyFor(kind: GatewayErrorKind, siteUrl: string, init: Partial<GatewayErrorInit> = {}): Remedy {
  switch (kind) {
    case 'invalid_key':
      return { links: [link('keys', siteUrl, '/keys')] };
    case 'bad_address':
      return { links: [{ id: 'address', url: init.url ?? siteUrl }] };
    case 'model_not_found':
    case 'bad_request':
    case 'content_blocked':
      return { links: [link('catalogue', siteUrl, '/models')] };
    case 'insufficient_balance':
      return {
        links: [
          link('dashboard', siteUrl, '/console'),
          link('purchase', siteUrl, '/console/topup'),
          link('redeem', siteUrl, '/console/topup'),
          link('keys', siteUrl, '/keys'),
        ],
      };
    case 'permission_denied':
      return { links: [link('keys', siteUrl, '/keys'), link('catalogue', siteUrl, '/models')] };
    case 'network':
    case 'bad_response':
      return { links: [{ id: 'site', url: siteUrl }] };
    case 'rate_limited':
    case 'server':
    case 'timeout':
    case 'aborted':
      return { links: [] };
  }
}

/**
 * Turning whatever a user pasted into the two addresses of seed part 2 and part 4
 * ("Base address entry rules"): `siteUrl` ({site_url}) and `baseUrl` ({site_url}/v1).
 *
 * Users paste the site (`https://site`), the base (`https://site/v1`), an endpoint
 * (`https://site/v1/chat/completions`), a site page (`https://site/console/token`), with
 * spaces, quotes or trailing slashes. A base that already ends in a version segment other
 * than `v1` (Gemini's `/v1beta/openai`, z.ai's `/api/paas/v4`) is kept as it is.
 */
import { trimEndOf, trimEnds } from '../shared/trim';

export interface GatewayAddress {
  /** {site_url}: where the keys page, the catalogue page and the dashboard live. */
  siteUrl: string;
  /** {base_url}: every endpoint is this followed by its path (seed part 4, rule 1). */
  baseUrl: string;
}

export type AddressProblem =
  | 'empty'
  /** Longer than `params.limit` characters (`params.length`, both written as numbers): not an address. */
  | 'too_long'
  | 'looks_like_key'
  | 'unsupported_scheme'
  | 'credentials'
  | 'missing_host'
  | 'malformed';

export class GatewayAddressError extends Error {
  override readonly name = 'GatewayAddressError';
  constructor(
    readonly problem: AddressProblem,
    /** What the user typed, trimmed; never contains credentials (they are cut out). */
    readonly input: string,
    /** The problem's facts for the UI's words (the scheme typed, say). */
    readonly params: Record<string, string> = {},
  ) {
    super(problem);
  }
}

export type AddressResult =
  | ({ ok: true } & GatewayAddress)
  | { ok: false; error: GatewayAddressError };

/**
 * The longest text the address field reads. A gateway's base address is well under a hundred
 * characters, and 2,048 is the longest URL every browser and server is known to accept; past it
 * the text is something else pasted by mistake (a page, a file), refused before it is read.
 */
export const ADDRESS_MAX_CHARS = 2048;

/** Endpoint paths (relative to a base) that users paste by mistake; longest first. */
const ENDPOINT_TAILS: readonly (readonly string[])[] = [
  ['chat', 'completions'],
  ['images', 'generations'],
  ['audio', 'transcriptions'],
  ['completions'],
  ['responses'],
  ['embeddings'],
  ['models'],
];

/**
 * Pages of a gateway's web site (new-api, one-api) that users copy from the address bar.
 * Only recognised when they are the whole path, so a proxy mounted under a path is kept.
 */
const SITE_PAGES = new Set([
  'keys', 'token', 'tokens', 'models', 'pricing', 'console', 'dashboard', 'panel', 'login',
  'topup', 'detail', 'log', 'setting', 'about', 'playground', 'chat',
]);

// `v\d+[a-z0-9]*` would say the same and backtrack over every digit of a long "v111…1!".
const VERSION_SEGMENT = /^v\d[a-z0-9]*$/i;
/** What users paste around an address: spaces, quotes, angle brackets. */
const WRAPPING = /[\s'"`‘’“”«»<>]/;

function fail(problem: AddressProblem, input: string, params: Record<string, string> = {}): never {
  throw new GatewayAddressError(problem, input, params);
}

function looksLikeLocalHost(text: string): boolean {
  return /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)(:\d+)?(\/|$)/i.test(text);
}

/**
 * Resolve a pasted address into `{ siteUrl, baseUrl }`, or throw a `GatewayAddressError`
 * whose problem code says what is wrong (the UI says what to enter instead). Text over `maxChars`
 * is refused unread; the parsing below is linear in the length whatever the limit.
 */
export function resolveGatewayAddress(input: string, { maxChars = ADDRESS_MAX_CHARS }: { maxChars?: number } = {}): GatewayAddress {
  const given = String(input ?? '');
  if (given.length > maxChars) fail('too_long', '', { length: String(given.length), limit: String(maxChars) });
  const text = trimEnds(given, WRAPPING);
  if (text === '') {
    fail('empty', text);
  }
  if (/^sk-[A-Za-z0-9_-]{6,}$/.test(text) || (/^[A-Za-z0-9_-]{32,}$/.test(text) && !text.includes('.'))) {
    fail('looks_like_key', '');
  }

  let withScheme = text;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined || (!text.includes('//') && /^\d+$/.test(text.split(':')[1]?.split('/')[0] ?? ''))) {
    // "example.com/v1" or "localhost:3000": no scheme typed.
    withScheme = `${looksLikeLocalHost(text) ? 'http' : 'https'}://${text}`;
  } else if (scheme !== 'http' && scheme !== 'https') {
    fail('unsupported_scheme', text, { scheme });
  }

  // WHATWG URL parsing reads "http:///v1" as host "v1": catch the missing host first.
  if (/^[a-z][a-z0-9+.-]*:\/\/([/?#:]|$)/i.test(withScheme)) {
    fail('missing_host', text);
  }
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    fail('malformed', text);
  }
  if (url.username !== '' || url.password !== '') {
    const safe = `${url.protocol}//${url.host}${url.pathname}`;
    fail('credentials', safe);
  }
  if (url.hostname === '') {
    fail('missing_host', text);
  }

  const segments = url.pathname.split('/').filter((s) => s !== '');
  stripEndpointTail(segments);
  if (segments.length > 0 && !segments.some((s) => VERSION_SEGMENT.test(s)) && isSitePage(segments)) {
    segments.length = 0;
  }
  const path = collapseRepeatedVersions(segments);

  const origin = url.origin;
  const versionAt = lastVersionIndex(path);
  if (versionAt === -1) {
    const site = joinPath(origin, path);
    return { siteUrl: site, baseUrl: `${site}/v1` };
  }
  return {
    siteUrl: joinPath(origin, path.slice(0, versionAt)),
    baseUrl: joinPath(origin, path),
  };
}

/** The same rules as `resolveGatewayAddress`, as a result value for forms that validate as the user types. */
export function tryResolveGatewayAddress(input: string, options?: { maxChars?: number }): AddressResult {
  try {
    return { ok: true, ...resolveGatewayAddress(input, options) };
  } catch (error) {
    if (error instanceof GatewayAddressError) return { ok: false, error };
    throw error;
  }
}

/** The full address of an endpoint: {base_url} followed by the path (seed part 4, rule 1). */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${trimEndOf(baseUrl, /\//)}/${path.replace(/^\/+/, '')}`;
}

function stripEndpointTail(segments: string[]): void {
  for (const tail of ENDPOINT_TAILS) {
    if (segments.length < tail.length) continue;
    const end = segments.slice(segments.length - tail.length);
    if (end.every((s, i) => s.toLowerCase() === tail[i])) {
      segments.length -= tail.length;
      return;
    }
  }
}

function isSitePage(segments: string[]): boolean {
  const first = segments[0]?.toLowerCase() ?? '';
  if (first === 'console' || first === 'panel') return true;
  return segments.length === 1 && SITE_PAGES.has(first);
}

/** `/v1/v1` (seed part 4, rule 3: always a 404) becomes `/v1`. */
function collapseRepeatedVersions(segments: readonly string[]): string[] {
  // One pass, not a splice per repeat (quadratic in a pasted `/v1/v1/…/v1`).
  return segments.filter((here, i) => i === 0 || !VERSION_SEGMENT.test(here) || here.toLowerCase() !== segments[i - 1]!.toLowerCase());
}

function lastVersionIndex(segments: readonly string[]): number {
  for (let i = segments.length - 1; i >= 0; i--) {
    if (VERSION_SEGMENT.test(segments[i] ?? '')) return i;
  }
  return -1;
}

function joinPath(origin: string, segments: readonly string[]): string {
  return segments.length === 0 ? origin : `${origin}/${segments.join('/')}`;
}

/** Loopback names and addresses: traffic to them never leaves this machine. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1';
}

/**
 * True when requests to this address would carry the key across the network unencrypted: a
 * plain `http://` address of a host other than this machine.
 */
export function sendsKeyInClear(baseUrl: string): boolean {
  try {
    const url = new URL(baseUrl);
    return url.protocol === 'http:' && !isLoopback(url.hostname);
  } catch {
    return false;
  }
}

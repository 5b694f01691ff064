/**
 * Our own tools (issue 33): "Read this page" (the tab the user is on, through Readability, as
 * "Ask about this page" reads it), "Fetch a web page" (an address the model names, fetched only
 * after the user allowed it, its text taken out of the HTML and cut to size) and "Web search"
 * (the provider the user chose: a SearXNG instance, or Brave, Tavily or Exa with the user's own
 * key, sent only to that provider). Results carry their sources, which the reply shows as
 * numbered citations. What they read is data: quoted for the model (history.ts).
 */
import { Parser } from 'htmlparser2';
import * as z from 'zod/mini';
import { SEARCH_ENDPOINTS, type SearchConfig } from './config';
import { MAX_TOOL_OUTPUT, pageAddress, type BuiltinTool, type ToolOutcome, type ToolSource } from './types';

/** What each built-in tool tells the model it does, and takes. */
export const BUILTIN_SPECS: Readonly<Record<BuiltinTool, { description: string; parameters: Record<string, unknown> }>> = {
  read_page: {
    description: 'Read the text of the web page the user has open in the browser tab beside this chat.',
    parameters: { type: 'object', properties: {}, required: [] },
  },
  fetch_page: {
    description: 'Fetch a web page by its address and return its text. The user approves each fetch.',
    parameters: { type: 'object', properties: { url: { type: 'string', description: 'The http(s) address of the page.' } }, required: ['url'] },
  },
  web_search: {
    description: 'Search the web. Returns numbered results with their titles, addresses and snippets; cite them as [n].',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to search for.' }, count: { type: 'integer', description: 'How many results (1-10).', minimum: 1, maximum: 10 } },
      required: ['query'],
    },
  },
};

/** The largest page fetched (bytes read before giving up on the rest). */
export const MAX_FETCH_BYTES = 2 * 1024 * 1024;
/** How long a fetched page has to arrive, whole. */
const FETCH_TIMEOUT_MS = 30_000;
const SEARCH_RESULTS = { default: 5, max: 10 } as const;

export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** The text a search gives the model, and its sources. */
export function searchOutcome(hits: readonly SearchHit[]): ToolOutcome {
  const sources: ToolSource[] = hits.map((h) => ({ title: h.title === '' ? h.url : h.title, url: h.url }));
  const text = hits.length === 0 ? 'No results.' : hits.map((h, i) => `[${i + 1}] ${h.title}\n${h.url}\n${h.snippet}`).join('\n\n');
  return { ok: true, text, sources };
}

const httpUrl = (value: unknown): value is string => pageAddress(value) !== undefined;

const SearxResults = z.looseObject({ results: z.array(z.looseObject({ url: z.unknown(), title: z.optional(z.unknown()), content: z.optional(z.unknown()) })) });
const BraveResults = z.looseObject({ web: z.optional(z.looseObject({ results: z.array(z.looseObject({ url: z.unknown(), title: z.optional(z.unknown()), description: z.optional(z.unknown()) })) })) });
const TavilyResults = z.looseObject({ results: z.array(z.looseObject({ url: z.unknown(), title: z.optional(z.unknown()), content: z.optional(z.unknown()) })) });
const ExaResults = z.looseObject({ results: z.array(z.looseObject({ url: z.unknown(), title: z.optional(z.unknown()), text: z.optional(z.unknown()), summary: z.optional(z.unknown()) })) });

const text = (value: unknown): string => (typeof value === 'string' ? stripTags(value).trim() : '');

/** Searches with the provider the user chose; `fetcher` goes only to that provider. */
export async function webSearch(config: SearchConfig, args: Record<string, unknown>, fetcher: typeof fetch, signal?: AbortSignal): Promise<ToolOutcome> {
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (query === '') return { ok: false, code: 'bad_arguments', params: { field: 'query' } };
  const count = Math.min(SEARCH_RESULTS.max, Math.max(1, typeof args.count === 'number' ? Math.floor(args.count) : SEARCH_RESULTS.default));
  const provider = config.provider;
  if (provider === 'none' || provider === 'gateway' || (provider === 'searxng' && (config.address ?? '') === '') || (provider !== 'searxng' && (config.key ?? '') === '')) {
    return { ok: false, code: 'no_search_provider', params: {} };
  }
  let address: string;
  let init: RequestInit;
  if (provider === 'searxng') {
    const url = new URL('search', config.address!.endsWith('/') ? config.address : `${config.address}/`);
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
    address = url.href;
    init = { headers: { Accept: 'application/json' } };
  } else if (provider === 'brave') {
    const url = new URL(SEARCH_ENDPOINTS.brave);
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(count));
    address = url.href;
    init = { headers: { Accept: 'application/json', 'X-Subscription-Token': config.key! } };
  } else if (provider === 'tavily') {
    address = SEARCH_ENDPOINTS.tavily;
    init = { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${config.key!}` }, body: JSON.stringify({ query, max_results: count }) };
  } else {
    address = SEARCH_ENDPOINTS.exa;
    init = { method: 'POST', headers: { 'Content-Type': 'application/json', 'x-api-key': config.key! }, body: JSON.stringify({ query, numResults: count, contents: { text: { maxCharacters: 600 } } }) };
  }
  const shown = new URL(address).origin;
  let response: Response;
  try {
    response = await fetcher(address, { ...init, credentials: 'omit', redirect: 'error', ...(signal === undefined ? {} : { signal }) });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    return { ok: false, code: 'unreachable', params: { address: shown, detail: error instanceof Error ? error.message : String(error) } };
  }
  if (response.status === 401 || response.status === 403) return { ok: false, code: 'unauthorized', params: { address: shown, status: response.status } };
  if (!response.ok) return { ok: false, code: 'http_status', params: { address: shown, status: response.status } };
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, code: 'bad_answer', params: { address: shown } };
  }
  let hits: SearchHit[] | undefined;
  if (provider === 'searxng') {
    const parsed = SearxResults.safeParse(body);
    if (parsed.success) hits = parsed.data.results.filter((r) => httpUrl(r.url)).map((r) => ({ url: r.url as string, title: text(r.title), snippet: text(r.content) }));
  } else if (provider === 'brave') {
    const parsed = BraveResults.safeParse(body);
    if (parsed.success) hits = (parsed.data.web?.results ?? []).filter((r) => httpUrl(r.url)).map((r) => ({ url: r.url as string, title: text(r.title), snippet: text(r.description) }));
  } else if (provider === 'tavily') {
    const parsed = TavilyResults.safeParse(body);
    if (parsed.success) hits = parsed.data.results.filter((r) => httpUrl(r.url)).map((r) => ({ url: r.url as string, title: text(r.title), snippet: text(r.content) }));
  } else {
    const parsed = ExaResults.safeParse(body);
    if (parsed.success) hits = parsed.data.results.filter((r) => httpUrl(r.url)).map((r) => ({ url: r.url as string, title: text(r.title), snippet: text(r.summary ?? r.text) }));
  }
  if (hits === undefined) return { ok: false, code: 'bad_answer', params: { address: shown } };
  return searchOutcome(hits.slice(0, count).map((h) => ({ ...h, snippet: h.snippet.slice(0, 600) })));
}

/** Fetches a page the user allowed: its text, cut to size. Host access to its origin is the page's to ask for first. */
export async function fetchPage(args: Record<string, unknown>, fetcher: typeof fetch, signal?: AbortSignal): Promise<ToolOutcome> {
  if (!httpUrl(args.url)) return { ok: false, code: 'bad_arguments', params: { field: 'url' } };
  const address = args.url;
  const origin = new URL(address).origin;
  // The user allowed this page: its reading is bounded in time as in size.
  const deadline = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let response: Response;
  let body: string;
  try {
    response = await fetcher(address, { credentials: 'omit', signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]) });
    // Allowed for this origin only: a redirect elsewhere (another site, the gateway, a local server) is not read.
    if (response.url !== '' && new URL(response.url).origin !== origin) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: false, code: 'redirected', params: { address, to: new URL(response.url).origin } };
    }
    if (!response.ok) return { ok: false, code: 'http_status', params: { address, status: response.status } };
    body = await readCapped(response, MAX_FETCH_BYTES);
  } catch (error) {
    if (signal?.aborted === true) throw error;
    return { ok: false, code: 'unreachable', params: { address, detail: deadline.aborted ? `no answer in ${FETCH_TIMEOUT_MS / 1000} s` : error instanceof Error ? error.message : String(error) } };
  }
  const type = response.headers.get('content-type') ?? '';
  const isHtml = /html|xml/i.test(type) || /^\s*</.test(body.slice(0, 100));
  if (!isHtml && !/^text\/|json/i.test(type) && type !== '') return { ok: false, code: 'bad_answer', params: { address } };
  const title = isHtml ? /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim() ?? '' : '';
  const content = isHtml ? htmlText(body) : body;
  return { ok: true, text: content.slice(0, MAX_TOOL_OUTPUT), sources: [{ title: title === '' ? address : htmlText(title), url: address }] };
}

async function readCapped(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const chunk of chunks) {
    const room = bytes.length - at;
    if (room <= 0) break;
    bytes.set(chunk.subarray(0, room), at);
    at += Math.min(chunk.length, room);
  }
  return new TextDecoder().decode(bytes);
}

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head', 'iframe', 'object']);
const BLOCK = /^(p|div|section|article|main|header|footer|li|tr|h[1-6]|br|pre|blockquote|table|ul|ol|dl|dt|dd|nav|aside|figure|figcaption)$/;

/** An HTML page's readable text: scripts, styles and hidden parts left out, blocks on lines of their own. */
export function htmlText(html: string): string {
  const out: string[] = [];
  let skipping = 0;
  const parser = new Parser({
    onopentag(name) {
      if (SKIP.has(name)) skipping++;
      else if (BLOCK.test(name)) out.push('\n');
    },
    onclosetag(name) {
      if (SKIP.has(name)) skipping = Math.max(0, skipping - 1);
      else if (BLOCK.test(name)) out.push('\n');
    },
    ontext(data) {
      if (skipping === 0) out.push(data);
    },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return out.join('').replace(/[ \t\f\v\r]+/g, ' ').replace(/ *\n */g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

function stripTags(value: string): string {
  return value.includes('<') ? htmlText(value) : value;
}

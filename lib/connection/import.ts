/**
 * Paste to import: reading the gateway address and key out of what gateway sites hand their
 * users (the keys page's "Use Key" dialog and usage guides, which take precedence over any
 * written example: seed part 1): OPENAI_* environment lines, curl commands, JSON (new-api's
 * copied connection info among them), config lines, and chat-app links that carry the key
 * and address in their query.
 */
import * as z from 'zod/mini';
import { tryResolveGatewayAddress } from '../gateway/address';
import { checkApiKey, normalizeApiKey, type KeyIssue } from './key-check';

/** Where a connection was found, for the UI's words ("NextChat link", "curl command", …). */
export type ImportSource =
  | { kind: 'nextchat_link' | 'lobechat_link' | 'chat_link' | 'link' | 'curl' | 'env_lines' | 'config_lines' | 'newapi_json' | 'json' | 'key' | 'address' }
  /** A chat app's own link scheme (`app`: its name, "Cherry Studio", "AMA", or the scheme). */
  | { kind: 'app_link'; app: string };

export interface ImportedConnection {
  /** Where it was found. */
  source: ImportSource;
  /** The address as written in the pasted text. */
  address?: string;
  siteUrl?: string;
  baseUrl?: string;
  apiKey?: string;
  /** A problem with the key found (masked, cut off, …): shown, not fatal. */
  keyIssue?: KeyIssue;
}

/** `too_long`: over `params.limit` characters (`params.length`), both written as numbers. */
export type ImportProblem = 'empty' | 'too_long' | 'nothing_found' | 'bad_json' | 'bad_link_data' | 'bad_address';

export type ImportResult =
  | { ok: true; found: ImportedConnection }
  | { ok: false; problem: ImportProblem; params: Record<string, string> };

/**
 * The longest text the paste box reads. What gateway sites hand out is short: a "Use Key" link
 * (its settings or data carried inside) or new-api's connection info is well under 2 kB, a curl
 * command with its body or a block of configuration lines a few kB. 20,000 characters leaves
 * room for a whole config file; past it the text is something else pasted by mistake.
 */
export const PASTE_MAX_CHARS = 20_000;

interface Raw {
  source: ImportSource;
  address?: string;
  key?: string;
}

const KEY_FIELDS = ['apiKey', 'api_key', 'apikey', 'key', 'token', 'OPENAI_API_KEY', 'openai_api_key', 'accessToken'];
const URL_FIELDS = ['baseURL', 'baseUrl', 'base_url', 'apiBase', 'api_base', 'url', 'server', 'endpoint', 'host', 'domain', 'OPENAI_BASE_URL', 'OPENAI_API_BASE'];

const JsonRecord = z.record(z.string(), z.unknown());

function fail(problem: ImportProblem, params: Record<string, string> = {}): ImportResult {
  return { ok: false, problem, params };
}

/** Finds the first string under any of `fields`, depth first (Lobe Chat nests them in keyVaults.openai). */
function findField(value: unknown, fields: readonly string[], depth = 0): string | undefined {
  const record = JsonRecord.safeParse(value);
  if (!record.success || depth > 5) return undefined;
  for (const field of fields) {
    const v = record.data[field];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  for (const v of Object.values(record.data)) {
    const nested = findField(v, fields, depth + 1);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

function fromJsonValue(value: unknown, source: ImportSource): Raw | undefined {
  const key = findField(value, KEY_FIELDS);
  const address = findField(value, URL_FIELDS);
  return key === undefined && address === undefined ? undefined : { source, key, address };
}

function decodeBase64Json(data: string): unknown {
  const normalized = data.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  const binary = atob(normalized);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function parseUrlLoose(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** Chat-app links: NextChat / Lobe Chat `?settings=`, Cherry Studio-style `data=`, AMA, OpenCat. */
function fromLink(text: string): Raw | ImportResult | undefined {
  const url = parseUrlLoose(text);
  if (url === undefined || /\s/.test(text)) return undefined;
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  // Single-page apps (NextChat) carry the query inside the hash: https://app/#/?settings=…
  const hashQuery = url.hash.indexOf('?');
  const params = hashQuery === -1 ? url.searchParams : new URLSearchParams(url.hash.slice(hashQuery + 1));

  const settings = params.get('settings');
  if (settings !== null) {
    let value: unknown;
    try {
      value = JSON.parse(settings);
    } catch {
      return fail('bad_link_data', { part: 'settings' });
    }
    const source: ImportSource = { kind: JsonRecord.safeParse(value).data?.keyVaults !== undefined ? 'lobechat_link' : 'nextchat_link' };
    return fromJsonValue(value, source) ?? fail('nothing_found', { part: 'settings' });
  }

  const data = params.get('data');
  if (data !== null) {
    let value: unknown;
    try {
      value = decodeBase64Json(data);
    } catch {
      return fail('bad_link_data', { part: 'data' });
    }
    const source: ImportSource = scheme === 'http' || scheme === 'https' ? { kind: 'chat_link' } : { kind: 'app_link', app: scheme === 'cherrystudio' ? 'Cherry Studio' : scheme };
    return fromJsonValue(value, source) ?? fail('nothing_found', { part: 'data' });
  }

  const key = params.get('key') ?? params.get('token') ?? params.get('apiKey') ?? params.get('api_key') ?? undefined;
  const address = params.get('server') ?? params.get('domain') ?? params.get('baseUrl') ?? params.get('url') ?? params.get('host') ?? undefined;
  if (key !== undefined || (address !== undefined && scheme !== 'http' && scheme !== 'https')) {
    const source: ImportSource = scheme === 'http' || scheme === 'https' ? { kind: 'link' } : { kind: 'app_link', app: scheme === 'ama' ? 'AMA' : scheme === 'opencat' ? 'OpenCat' : scheme };
    return { source, key, address };
  }
  return undefined;
}

/** `curl https://site/v1/chat/completions -H "Authorization: Bearer sk-…"` (one line or several). */
function fromCurl(text: string): Raw | undefined {
  if (!/^\s*curl\b/i.test(text)) return undefined;
  const oneLine = text.replace(/\\\r?\n/g, ' ');
  const address = /(?:^|\s)['"]?(https?:\/\/[^\s'"]+)/i.exec(oneLine)?.[1];
  const key = /authorization:\s*bearer\s+([^\s'"\\]+)/i.exec(oneLine)?.[1]
    ?? /x-api-key:\s*([^\s'"\\]+)/i.exec(oneLine)?.[1];
  return { source: { kind: 'curl' }, address, key };
}

/** A line's name and its `=` or `:` (anchored, and each part ends where the next must begin: linear). */
const ASSIGNED_NAME = /^\s*(?:export\s+|set\s+|\$env:)?["']?([A-Za-z_][\w.]*)["']?\s*[:=]/;
/** `.` in a regex: anything but these. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * What follows the `=` or `:`, without the spaces around it and one `,` or `;` at its end (that
 * of a config or JSON line); undefined when there is nothing. Scanned, not matched: the pattern
 * `\s*(.+?)\s*[,;]?\s*$` it replaces backtracked cubically over spaces before a last word
 * (`a=b`, 2,000 spaces, `c` held the page for 5 s).
 */
function assignedValue(rest: string): string | undefined {
  let value = rest.trim();
  if (value === '') return undefined;
  // One `,` or `;` goes, unless it is all there is.
  if (value.endsWith(',') || value.endsWith(';')) value = value.slice(0, -1).trimEnd() || value;
  return LINE_BREAK.test(value) ? undefined : value;
}

/**
 * `OPENAI_BASE_URL=…`, `export OPENAI_API_KEY="…"`, `set …`, `$env:…`, and config lines such as
 * `base_url = "…"`, `api_key: …`, `"baseURL": "…"` in a snippet that is not whole JSON.
 */
function fromAssignments(text: string): Raw | undefined {
  let address: string | undefined;
  let key: string | undefined;
  let sawEnv = false;
  for (const line of text.split(/\r?\n/)) {
    const m = ASSIGNED_NAME.exec(line);
    if (m === null) continue;
    const assigned = assignedValue(line.slice(m[0].length));
    if (assigned === undefined) continue;
    const name = m[1]!.toLowerCase();
    const value = assigned.replace(/^['"`]|['"`]$/g, '').trim();
    if (value === '') continue;
    if (/^openai_/.test(name)) sawEnv = true;
    if (/(base_?url|api_?base|base_?path|endpoint|^url$|openai_base_url|openai_api_base|host)$/.test(name)) address ??= value;
    else if (/(api_?key|^key$|token|openai_api_key)$/.test(name)) key ??= value;
  }
  if (address === undefined && key === undefined) return undefined;
  return { source: { kind: sawEnv ? 'env_lines' : 'config_lines' }, address, key };
}

function fromJson(text: string): Raw | ImportResult | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    // A config snippet (`"base_url": "…",` lines) is not whole JSON: let the line reader try.
    const lines = fromAssignments(trimmed);
    if (lines !== undefined) return lines;
    return fail('bad_json', error instanceof SyntaxError ? { detail: error.message } : {});
  }
  const record = JsonRecord.safeParse(value);
  const source: ImportSource = { kind: record.success && record.data._type === 'newapi_channel_conn' ? 'newapi_json' : 'json' };
  return fromJsonValue(value, source) ?? fail('nothing_found', { part: 'json' });
}

function fromBareValue(text: string): Raw | undefined {
  const value = text.trim();
  if (/\s/.test(value)) return undefined;
  if (/^sk-[\w-]+$/.test(value)) return { source: { kind: 'key' }, key: value };
  if (/^https?:\/\//i.test(value)) return { source: { kind: 'address' }, address: value };
  return undefined;
}

/** The address and key in a pasted text; text over `maxChars` is refused unread (every reader is linear whatever the limit). */
export function importConnection(text: string, { maxChars = PASTE_MAX_CHARS }: { maxChars?: number } = {}): ImportResult {
  if (text.length > maxChars) return fail('too_long', { length: String(text.length), limit: String(maxChars) });
  const input = text.trim();
  if (input === '') return fail('empty');

  const readers = [fromLink, fromJson, fromCurl, fromAssignments, fromBareValue];
  for (const read of readers) {
    const raw = read(input);
    if (raw === undefined) continue;
    if ('ok' in raw) return raw;
    return finish(raw);
  }
  return fail('nothing_found', { part: 'text' });
}

function finish(raw: Raw): ImportResult {
  const found: ImportedConnection = { source: raw.source };
  if (raw.address !== undefined) {
    const resolved = tryResolveGatewayAddress(raw.address);
    if (!resolved.ok) return fail('bad_address', { address: raw.address, addressProblem: resolved.error.problem, ...resolved.error.params });
    found.address = raw.address;
    found.siteUrl = resolved.siteUrl;
    found.baseUrl = resolved.baseUrl;
  }
  if (raw.key !== undefined) {
    found.apiKey = normalizeApiKey(raw.key);
    const issue = checkApiKey(found.apiKey);
    if (issue !== undefined) found.keyIssue = issue;
  }
  return { ok: true, found };
}

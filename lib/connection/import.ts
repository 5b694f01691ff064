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

export interface ImportedConnection {
  /** Where it was found, for the user: "NextChat link", "curl command", … */
  source: string;
  /** The address as written in the pasted text. */
  address?: string;
  siteUrl?: string;
  baseUrl?: string;
  apiKey?: string;
  /** A problem with the key found (masked, cut off, …): shown, not fatal. */
  keyIssue?: KeyIssue;
}

export type ImportProblem = 'empty' | 'nothing_found' | 'bad_json' | 'bad_link_data' | 'bad_address';

export type ImportResult =
  | { ok: true; found: ImportedConnection }
  | { ok: false; problem: ImportProblem; message: string };

interface Raw {
  source: string;
  address?: string;
  key?: string;
}

const KEY_FIELDS = ['apiKey', 'api_key', 'apikey', 'key', 'token', 'OPENAI_API_KEY', 'openai_api_key', 'accessToken'];
const URL_FIELDS = ['baseURL', 'baseUrl', 'base_url', 'apiBase', 'api_base', 'url', 'server', 'endpoint', 'host', 'domain', 'OPENAI_BASE_URL', 'OPENAI_API_BASE'];

const JsonRecord = z.record(z.string(), z.unknown());

function fail(problem: ImportProblem, message: string): ImportResult {
  return { ok: false, problem, message };
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

function fromJsonValue(value: unknown, source: string): Raw | undefined {
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
      return fail('bad_link_data', 'The link\'s settings= part is not valid JSON, so the link was cut or changed. Copy the whole link again from the keys page.');
    }
    const source = JsonRecord.safeParse(value).data?.keyVaults !== undefined ? 'Lobe Chat link' : 'NextChat link';
    return fromJsonValue(value, source) ?? fail('nothing_found', 'The link\'s settings= part has no key or address in it.');
  }

  const data = params.get('data');
  if (data !== null) {
    let value: unknown;
    try {
      value = decodeBase64Json(data);
    } catch {
      return fail('bad_link_data', 'The link\'s data= part is not valid base64 JSON, so the link was cut or changed. Copy the whole link again from the keys page.');
    }
    const app = scheme === 'http' || scheme === 'https' ? 'chat app' : scheme === 'cherrystudio' ? 'Cherry Studio' : scheme;
    return fromJsonValue(value, `${app} link`) ?? fail('nothing_found', 'The link\'s data= part has no key or address in it.');
  }

  const key = params.get('key') ?? params.get('token') ?? params.get('apiKey') ?? params.get('api_key') ?? undefined;
  const address = params.get('server') ?? params.get('domain') ?? params.get('baseUrl') ?? params.get('url') ?? params.get('host') ?? undefined;
  if (key !== undefined || (address !== undefined && scheme !== 'http' && scheme !== 'https')) {
    const app = scheme === 'ama' ? 'AMA link' : scheme === 'opencat' ? 'OpenCat link' : scheme === 'http' || scheme === 'https' ? 'link' : `${scheme} link`;
    return { source: app, key, address };
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
  return { source: 'curl command', address, key };
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
    const m = /^\s*(?:export\s+|set\s+|\$env:)?["']?([A-Za-z_][\w.]*)["']?\s*[:=]\s*(.+?)\s*[,;]?\s*$/.exec(line);
    if (m === null) continue;
    const name = m[1]!.toLowerCase();
    const value = m[2]!.replace(/^['"`]|['"`]$/g, '').trim();
    if (value === '') continue;
    if (/^openai_/.test(name)) sawEnv = true;
    if (/(base_?url|api_?base|base_?path|endpoint|^url$|openai_base_url|openai_api_base|host)$/.test(name)) address ??= value;
    else if (/(api_?key|^key$|token|openai_api_key)$/.test(name)) key ??= value;
  }
  if (address === undefined && key === undefined) return undefined;
  return { source: sawEnv ? 'OPENAI_* environment lines' : 'configuration lines', address, key };
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
    const where = error instanceof SyntaxError ? ` (${error.message})` : '';
    return fail('bad_json', `The pasted JSON is not valid${where}. Copy the whole text again, from { to }.`);
  }
  const record = JsonRecord.safeParse(value);
  const source = record.success && record.data._type === 'newapi_channel_conn' ? 'new-api connection info' : 'JSON';
  return fromJsonValue(value, source) ?? fail('nothing_found', 'The JSON has no key or address field (looked for apiKey, key, baseURL, base_url, url, …).');
}

function fromBareValue(text: string): Raw | undefined {
  const value = text.trim();
  if (/\s/.test(value)) return undefined;
  if (/^sk-[\w-]+$/.test(value)) return { source: 'API key', key: value };
  if (/^https?:\/\//i.test(value)) return { source: 'address', address: value };
  return undefined;
}

export function importConnection(text: string): ImportResult {
  const input = text.trim();
  if (input === '') return fail('empty', 'Paste what your gateway\'s keys page gave you: the "Use Key" link, the copied connection info, a curl command, or the OPENAI_* lines.');

  const readers = [fromLink, fromJson, fromCurl, fromAssignments, fromBareValue];
  for (const read of readers) {
    const raw = read(input);
    if (raw === undefined) continue;
    if ('ok' in raw) return raw;
    return finish(raw);
  }
  return fail('nothing_found', 'Found no gateway address or key in the pasted text. Paste the "Use Key" link, the copied connection info JSON, a curl command, or the OPENAI_BASE_URL / OPENAI_API_KEY lines.');
}

function finish(raw: Raw): ImportResult {
  const found: ImportedConnection = { source: raw.source };
  if (raw.address !== undefined) {
    const resolved = tryResolveGatewayAddress(raw.address);
    if (!resolved.ok) return fail('bad_address', `Found the address "${raw.address}" in the ${raw.source}, but: ${resolved.error.message}`);
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

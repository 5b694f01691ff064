/**
 * No pasted text can hang the page (issue 28): every parser of what users paste (the paste to
 * import box, the address field, the key field) reads 100 kB of the worst shapes in linear time,
 * and reads them right; the boxes refuse text over their limit, naming it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PASTE_MAX_CHARS, importConnection, type ImportResult } from '@/lib/connection/import';
import { checkApiKey, normalizeApiKey } from '@/lib/connection/key-check';
import { ADDRESS_MAX_CHARS, endpointUrl, resolveGatewayAddress, tryResolveGatewayAddress } from '@/lib/gateway/address';
import { addressProblemText, importProblemText } from '@/components/i18n/setup-problems';
import { ensureLocale, wordsFor } from '@/lib/i18n/messages';

const SIZE = 100_000;
/** Linear: 100 kB is read in a few milliseconds; the backtracking patterns took seconds to hours. */
const BUDGET_MS = 50;
const KEY = 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ';
const site = { siteUrl: 'https://gw.example.com', baseUrl: 'https://gw.example.com/v1' };
/** The parsers themselves, without the boxes' limits. */
const unlimited = { maxChars: Infinity };

/** `head`, then `unit` as many times as fit, then `tail`: SIZE characters, give or take a unit. */
function fill(head: string, unit: string, tail = ''): string {
  return head + unit.repeat(Math.max(0, Math.floor((SIZE - head.length - tail.length) / unit.length))) + tail;
}

/** `parts` joined by runs of `gap` that bring the whole to SIZE characters. */
function spread(parts: readonly string[], gap: string): string {
  const run = gap.repeat(Math.floor((SIZE - parts.join('').length) / gap.length / (parts.length - 1)));
  return parts.join(run);
}

/** The fastest of 3 runs, in ms: a busy machine can slow a run down, never speed one up. */
function bestOf3(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

function found(result: ImportResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.problem}: ${JSON.stringify(result.params)}`);
  return result.found;
}

interface Shape<T> {
  shape: string;
  text: string;
  check(result: T): void;
}

const IMPORTS: Shape<ImportResult>[] = [
  {
    shape: '`a=b`, spaces, `c`',
    text: fill('a=b', ' ', 'c'),
    check: (r) => expect(r).toEqual({ ok: false, problem: 'nothing_found', params: { part: 'text' } }),
  },
  {
    shape: 'a key line, spaces, a last word (a key broken by spaces)',
    text: fill(`OPENAI_API_KEY=${KEY}`, ' ', 'c'),
    check: (r) => {
      const f = found(r);
      expect(f.source).toEqual({ kind: 'env_lines' });
      expect(f.apiKey?.startsWith(`${KEY}  `) && f.apiKey.endsWith(' c')).toBe(true);
      expect(f.keyIssue).toEqual({ problem: 'inner_whitespace' });
    },
  },
  {
    shape: 'an address line, spaces, its `;`',
    text: fill('OPENAI_BASE_URL=https://gw.example.com/v1', ' ', ';'),
    check: (r) => expect(found(r)).toMatchObject({ source: { kind: 'env_lines' }, ...site }),
  },
  {
    shape: 'a config line closed by repeated quotes',
    text: fill(`"api_key": "${KEY}`, '"'),
    check: (r) => expect(found(r)).toEqual({ source: { kind: 'config_lines' }, apiKey: KEY }),
  },
  {
    shape: 'JSON lines with spaces before their commas (not whole JSON)',
    text: fill('{\n  "base_url": "https://gw.example.com/v1"', ' ', `,\n  "api_key": "${KEY}",\n`),
    check: (r) => expect(found(r)).toMatchObject({ source: { kind: 'config_lines' }, ...site, apiKey: KEY }),
  },
  {
    shape: 'long runs of spaces between the tokens of a curl command',
    text: spread(['curl', 'https://gw.example.com/v1/chat/completions', '-H', '"Authorization: Bearer', `${KEY}"`], ' '),
    check: (r) => expect(found(r)).toMatchObject({ source: { kind: 'curl' }, ...site, apiKey: KEY }),
  },
  {
    shape: '`export`, spaces, the line',
    text: fill('export', ' ', ` OPENAI_API_KEY=${KEY}`),
    check: (r) => expect(found(r)).toEqual({ source: { kind: 'env_lines' }, apiKey: KEY }),
  },
  {
    shape: 'a name of 100,000 characters without its `=`',
    text: fill('OPENAI', '_', '!'),
    check: (r) => expect(r).toMatchObject({ ok: false, problem: 'nothing_found' }),
  },
  {
    shape: 'thousands of short lines',
    text: fill('', 'a=b\n'),
    check: (r) => expect(r).toMatchObject({ ok: false, problem: 'nothing_found' }),
  },
  {
    shape: "a link whose settings are padded with spaces",
    text: fill(`https://chat.example/#/?settings=${encodeURIComponent(`{"key":"${KEY}",`)}`, '%20', encodeURIComponent('"url":"https://gw.example.com"}')),
    check: (r) => expect(found(r)).toMatchObject({ source: { kind: 'nextchat_link' }, ...site, apiKey: KEY }),
  },
];

const ADDRESSES: Shape<() => unknown>[] = [
  {
    shape: 'spaces around the address',
    text: spread(['', 'https://gw.example.com/v1', ''], ' '),
    check: (resolve) => expect(resolve()).toEqual(site),
  },
  {
    shape: 'quotes and brackets around the address',
    text: spread(['', 'https://gw.example.com/v1', ''], '"“<>”\''),
    check: (resolve) => expect(resolve()).toEqual(site),
  },
  {
    shape: 'a run of quotes that does not reach the end',
    text: fill('https://gw.example.com/v1?q=', '"', 'x'),
    check: (resolve) => expect(resolve()).toEqual(site),
  },
  {
    shape: 'a version segment of 100,000 digits that is not one (`v111…1!`)',
    text: fill('https://gw.example.com/v', '1', '!'),
    check: (resolve) => {
      const mount = `https://gw.example.com/v${'1'.repeat(SIZE - 'https://gw.example.com/v!'.length)}!`;
      expect(resolve()).toEqual({ siteUrl: mount, baseUrl: `${mount}/v1` });
    },
  },
  {
    shape: '`/v1` repeated',
    text: fill('https://gw.example.com', '/v1'),
    check: (resolve) => expect(resolve()).toEqual(site),
  },
  {
    shape: 'slashes after the base',
    text: fill('https://gw.example.com/v1', '/'),
    check: (resolve) => expect(resolve()).toEqual(site),
  },
];

const KEYS: Shape<string>[] = [
  {
    shape: 'quotes around the key',
    text: spread(['', KEY, ''], '"'),
    check: (text) => {
      expect(normalizeApiKey(text)).toBe(KEY);
      expect(checkApiKey(text)).toBeUndefined();
    },
  },
  {
    shape: 'spaces after `Authorization: Bearer`',
    text: spread(['Authorization: Bearer', KEY], ' '),
    check: (text) => {
      expect(normalizeApiKey(text)).toBe(KEY);
      expect(checkApiKey(text)).toBeUndefined();
    },
  },
  {
    shape: 'a run of quotes inside the key',
    text: spread([KEY, 'x'], '"'),
    check: (text) => expect(normalizeApiKey(text)).toBe(text),
  },
  {
    shape: 'spaces inside the key',
    text: spread([KEY, 'x'], ' '),
    check: (text) => expect(checkApiKey(text)).toEqual({ problem: 'inner_whitespace' }),
  },
  {
    shape: 'an address of many labels in the key field',
    text: fill('gw', '.example', '/v1'),
    check: (text) => expect(checkApiKey(text)).toEqual({ problem: 'looks_like_address' }),
  },
  {
    shape: 'a masked key',
    text: fill('sk-', '*', 'abcd'),
    check: (text) => expect(checkApiKey(text)).toEqual({ problem: 'masked' }),
  },
];

describe('every parser of pasted text is linear on 100 kB of the worst shapes, and reads them right', () => {
  it.each(IMPORTS)('paste to import: $shape', ({ text, check }) => {
    expect(text.length).toBeGreaterThan(SIZE * 0.99);
    expect(bestOf3(() => importConnection(text, unlimited))).toBeLessThanOrEqual(BUDGET_MS);
    check(importConnection(text, unlimited));
  });

  it.each(ADDRESSES)('the address: $shape', ({ text, check }) => {
    expect(text.length).toBeGreaterThan(SIZE * 0.99);
    expect(bestOf3(() => tryResolveGatewayAddress(text, unlimited))).toBeLessThanOrEqual(BUDGET_MS);
    check(() => resolveGatewayAddress(text, unlimited));
  });

  it.each(KEYS)('the key: $shape', ({ text, check }) => {
    expect(text.length).toBeGreaterThan(SIZE * 0.99);
    expect(bestOf3(() => checkApiKey(text))).toBeLessThanOrEqual(BUDGET_MS);
    check(text);
  });

  it('an endpoint after a base with a run of slashes', () => {
    const inside = fill('https://gw.example.com/', '/', 'v1');
    const after = fill('https://gw.example.com/v1', '/');
    expect(bestOf3(() => endpointUrl(inside, 'models'))).toBeLessThanOrEqual(BUDGET_MS);
    expect(bestOf3(() => endpointUrl(after, 'models'))).toBeLessThanOrEqual(BUDGET_MS);
    expect(endpointUrl(inside, 'models')).toBe(`${inside}/models`);
    expect(endpointUrl(after, '/models')).toBe('https://gw.example.com/v1/models');
  });
});

describe('the boxes refuse text over their limit, naming it', () => {
  beforeAll(() => ensureLocale('zh-CN'));

  it('paste to import: up to PASTE_MAX_CHARS characters are read', () => {
    const line = `OPENAI_API_KEY=${KEY}`;
    expect(found(importConnection(line.padEnd(PASTE_MAX_CHARS, ' ')))).toEqual({ source: { kind: 'env_lines' }, apiKey: KEY });
    const over = line.padEnd(PASTE_MAX_CHARS + 1, ' ');
    const refused = importConnection(over);
    expect(refused).toEqual({ ok: false, problem: 'too_long', params: { length: String(PASTE_MAX_CHARS + 1), limit: String(PASTE_MAX_CHARS) } });
    if (refused.ok) return;
    for (const locale of ['en', 'zh-CN'] as const) {
      const w = wordsFor(locale);
      const words = importProblemText(w, refused.problem, refused.params);
      expect(words).toContain(w.number(PASTE_MAX_CHARS));
      expect(words).toContain(w.number(PASTE_MAX_CHARS + 1));
    }
  });

  it('the address: up to ADDRESS_MAX_CHARS characters are read, and the text is not repeated back', () => {
    const padded = ' https://gw.example.com/v1'.padEnd(ADDRESS_MAX_CHARS, ' ');
    expect(resolveGatewayAddress(padded)).toEqual(site);
    const refused = tryResolveGatewayAddress(`${padded} `);
    if (refused.ok) throw new Error('expected the address to be refused');
    expect(refused.error).toMatchObject({ problem: 'too_long', input: '', params: { length: String(ADDRESS_MAX_CHARS + 1), limit: String(ADDRESS_MAX_CHARS) } });
    for (const locale of ['en', 'zh-CN'] as const) {
      const w = wordsFor(locale);
      const words = addressProblemText(w, refused.error.problem, refused.error.input, refused.error.params);
      expect(words).toContain(w.number(ADDRESS_MAX_CHARS));
      expect(words).not.toContain('gw.example.com/v1 ');
    }
  });
});

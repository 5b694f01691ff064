import { describe, expect, it } from 'vitest';
import { importConnection, type ImportResult } from '@/lib/connection/import';
import { checkApiKey, maskApiKey, normalizeApiKey } from '@/lib/connection/key-check';
import { importProblemText, keyIssueText } from '@/components/i18n/setup-problems';
import { wordsFor } from '@/lib/i18n/messages';

const en = wordsFor('en');
/** The problem in the words the user reads (English). */
function words(p: { problem: Parameters<typeof importProblemText>[1]; params: Record<string, string> }): string {
  return importProblemText(en, p.problem, p.params);
}

const KEY = 'sk-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefGHIJ';
const site = { siteUrl: 'https://gw.example.com', baseUrl: 'https://gw.example.com/v1' };

function found(result: ImportResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.problem}: ${JSON.stringify(result.params)}`);
  return result.found;
}

function problem(result: ImportResult) {
  if (result.ok) throw new Error(`expected a problem, got ${JSON.stringify(result.found)}`);
  return result;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

describe('importConnection: the formats gateway sites hand out', () => {
  it('OPENAI_BASE_URL / OPENAI_API_KEY lines', () => {
    const f = found(importConnection(`OPENAI_BASE_URL=https://gw.example.com/v1\nOPENAI_API_KEY=${KEY}`));
    expect(f).toMatchObject({ source: { kind: 'env_lines' }, apiKey: KEY, ...site });
    expect(f.keyIssue).toBeUndefined();
  });

  it('export lines with quotes, and OPENAI_API_BASE', () => {
    const f = found(importConnection(`export OPENAI_API_BASE="https://gw.example.com/v1"\nexport OPENAI_API_KEY='${KEY}'`));
    expect(f).toMatchObject({ apiKey: KEY, ...site });
  });

  it('Windows set and PowerShell $env: lines', () => {
    expect(found(importConnection(`set OPENAI_BASE_URL=https://gw.example.com\nset OPENAI_API_KEY=${KEY}`))).toMatchObject({ apiKey: KEY, ...site });
    expect(found(importConnection(`$env:OPENAI_BASE_URL="https://gw.example.com/v1"\n$env:OPENAI_API_KEY="${KEY}"`))).toMatchObject({ apiKey: KEY, ...site });
  });

  it('a curl command over several lines', () => {
    const curl = `curl https://gw.example.com/v1/chat/completions \\\n  -H "Content-Type: application/json" \\\n  -H "Authorization: Bearer ${KEY}" \\\n  -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'`;
    expect(found(importConnection(curl))).toMatchObject({ source: { kind: 'curl' }, apiKey: KEY, ...site });
  });

  it('a curl command with the URL quoted after -X POST', () => {
    const curl = `curl -X POST 'https://gw.example.com/v1/responses' -H 'Authorization: Bearer ${KEY}' -d '{}'`;
    expect(found(importConnection(curl))).toMatchObject({ apiKey: KEY, ...site });
  });

  it("new-api's copied connection info, with /v1", () => {
    const f = found(importConnection(JSON.stringify({ _type: 'newapi_channel_conn', key: KEY, url: 'https://gw.example.com/v1' })));
    expect(f).toMatchObject({ source: { kind: 'newapi_json' }, apiKey: KEY, ...site });
  });

  it("new-api's copied connection info, without /v1", () => {
    expect(found(importConnection(JSON.stringify({ _type: 'newapi_channel_conn', key: KEY, url: 'https://gw.example.com' })))).toMatchObject(site);
  });

  it('JSON with baseURL and apiKey, or base_url and api_key', () => {
    expect(found(importConnection(JSON.stringify({ baseURL: 'https://gw.example.com/v1', apiKey: KEY })))).toMatchObject({ apiKey: KEY, ...site });
    expect(found(importConnection(JSON.stringify({ base_url: 'https://gw.example.com', api_key: KEY })))).toMatchObject({ apiKey: KEY, ...site });
  });

  it('a config snippet that is not whole JSON', () => {
    expect(found(importConnection(`{\n  "base_url": "https://gw.example.com/v1",\n  "api_key": "${KEY}",\n`))).toMatchObject({ apiKey: KEY, ...site });
  });

  it('TOML / YAML style config lines', () => {
    expect(found(importConnection(`base_url = "https://gw.example.com/v1"\napi_key = "${KEY}"`))).toMatchObject({ source: { kind: 'config_lines' }, apiKey: KEY, ...site });
    expect(found(importConnection(`model: gpt-4o\nbase_url: https://gw.example.com\napi_key: ${KEY}`))).toMatchObject({ apiKey: KEY, ...site });
  });

  it("NextChat's ?settings= link (URL-encoded JSON with key and url)", () => {
    const link = `https://app.nextchat.dev/#/?settings=${encodeURIComponent(JSON.stringify({ key: KEY, url: 'https://gw.example.com' }))}`;
    // NextChat puts the query after the hash; both places work.
    expect(found(importConnection(link))).toMatchObject({ source: { kind: 'nextchat_link' }, apiKey: KEY, ...site });
    expect(found(importConnection(link.replace('/#/?', '/?')))).toMatchObject({ source: { kind: 'nextchat_link' }, apiKey: KEY, ...site });
  });

  it("Lobe Chat's ?settings= link with keyVaults.openai", () => {
    const link = `https://chat.lobehub.com/?settings=${encodeURIComponent(JSON.stringify({ keyVaults: { openai: { apiKey: KEY, baseURL: 'https://gw.example.com/v1' } } }))}`;
    expect(found(importConnection(link))).toMatchObject({ source: { kind: 'lobechat_link' }, apiKey: KEY, ...site });
  });

  it("Cherry Studio's base64 data= link", () => {
    const link = `cherrystudio://providers/api-keys?v=1&data=${encodeURIComponent(b64({ id: 'new-api', baseUrl: 'https://gw.example.com', apiKey: KEY }))}`;
    expect(found(importConnection(link))).toMatchObject({ source: { kind: 'app_link', app: 'Cherry Studio' }, apiKey: KEY, ...site });
  });

  it('AionUI / DeepChat style base64 data= links', () => {
    const link = `aionui://provider/add?v=1&data=${encodeURIComponent(b64({ baseUrl: 'https://gw.example.com/v1', apiKey: KEY, name: 'gw' }))}`;
    expect(found(importConnection(link))).toMatchObject({ source: { kind: 'app_link', app: 'aionui' }, apiKey: KEY, ...site });
  });

  it('AMA and OpenCat links', () => {
    expect(found(importConnection(`ama://set-api-key?server=${encodeURIComponent('https://gw.example.com')}&key=${KEY}`))).toMatchObject({ source: { kind: 'app_link', app: 'AMA' }, apiKey: KEY, ...site });
    expect(found(importConnection(`opencat://team/join?domain=${encodeURIComponent('https://gw.example.com')}&token=${KEY}`))).toMatchObject({ source: { kind: 'app_link', app: 'OpenCat' }, apiKey: KEY, ...site });
  });

  it('a bare key or a bare address fills just that field', () => {
    expect(found(importConnection(`  ${KEY}  `))).toEqual({ source: { kind: 'key' }, apiKey: KEY });
    expect(found(importConnection('https://gw.example.com/v1/'))).toMatchObject({ source: { kind: 'address' }, ...site });
  });
});

describe('importConnection: bad inputs, each with its own message', () => {
  it('empty', () => {
    const p = problem(importConnection('   '));
    expect(p.problem).toBe('empty');
    expect(words(p)).toMatch(/Use Key/);
  });

  it('text with nothing in it', () => {
    const p = problem(importConnection('hello, here is my key: (forgot to paste it)'));
    expect(p.problem).toBe('nothing_found');
    expect(words(p)).toMatch(/OPENAI_BASE_URL/);
  });

  it('broken JSON names the parse error', () => {
    const p = problem(importConnection('{"_type":"newapi_channel_conn","key":"sk-abc'));
    expect(p.problem).toBe('bad_json');
    expect(words(p)).toMatch(/not valid/);
  });

  it('JSON without any key or address field', () => {
    expect(problem(importConnection('{"model":"gpt-4o"}')).problem).toBe('nothing_found');
  });

  it('a chat link whose settings= is cut off', () => {
    const p = problem(importConnection(`https://chat.example/?settings=${encodeURIComponent('{"key":"sk-abc","url":"https://gw')}`));
    expect(p.problem).toBe('bad_link_data');
    expect(words(p)).toMatch(/settings=/);
  });

  it('a Cherry Studio link whose data= is not base64 JSON', () => {
    const p = problem(importConnection('cherrystudio://providers/api-keys?v=1&data=%%%not-base64'));
    expect(p.problem).toBe('bad_link_data');
    expect(words(p)).toMatch(/data=/);
  });

  it('an address that cannot be used names the address and the reason', () => {
    const p = problem(importConnection(`OPENAI_BASE_URL=ftp://gw.example.com\nOPENAI_API_KEY=${KEY}`));
    expect(p.problem).toBe('bad_address');
    expect(words(p)).toContain('ftp://gw.example.com');
    expect(words(p)).toMatch(/http:\/\/ or https:\/\//);
  });

  it('a masked key is found but flagged', () => {
    const f = found(importConnection('OPENAI_BASE_URL=https://gw.example.com/v1\nOPENAI_API_KEY=sk-AbCd**********wxyz'));
    expect(f.keyIssue?.problem).toBe('masked');
  });

  it('a cut-off key is found but flagged', () => {
    expect(found(importConnection('{"baseURL":"https://gw.example.com/v1","apiKey":"sk-AbCd"}')).keyIssue?.problem).toBe('too_short');
  });
});

describe('checkApiKey', () => {
  it.each([
    ['', 'empty'],
    ['https://gw.example.com/v1', 'looks_like_address'],
    ['gw.example.com', 'looks_like_address'],
    ['sk-AbCd…wxyz', 'masked'],
    ['sk-AbCd...wxyz1234567890', 'masked'],
    ['sk-AbCd****************wxyz', 'masked'],
    ['sk-AbCdEfGh IjKlMnOpQrSt', 'inner_whitespace'],
    ['sk-AbCdEfGh\nIjKlMnOpQrSt', 'inner_whitespace'],
    ['sk-short', 'too_short'],
    ['sk-АбвгдежзийклмнопрстУФ', 'odd_characters'],
  ])('%j: %s', (key, expected) => {
    expect(checkApiKey(key)?.problem).toBe(expected);
  });

  it('each problem has its own message', () => {
    const messages = ['', 'https://x.example', 'sk-a…b', 'sk-aaaa bbbbbbbbbbbbbbb', 'sk-short', 'sk-ä' + 'a'.repeat(20)].map((k) => { const issue = checkApiKey(k); return issue === undefined ? undefined : keyIssueText(en, issue); });
    expect(new Set(messages).size).toBe(messages.length);
  });

  it('a whole key passes, with quotes, spaces and a Bearer prefix trimmed', () => {
    expect(checkApiKey(KEY)).toBeUndefined();
    expect(normalizeApiKey(`  "Bearer ${KEY}"  `)).toBe(KEY);
    expect(normalizeApiKey(`Authorization: Bearer ${KEY}`)).toBe(KEY);
    expect(checkApiKey(`\t${KEY}\n`)).toBeUndefined();
  });

  it('masks a key for display', () => {
    expect(maskApiKey(KEY)).toBe('sk-Ab…GHIJ');
    expect(maskApiKey(KEY)).not.toContain(KEY.slice(5, 20));
  });
});

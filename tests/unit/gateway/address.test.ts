import { describe, expect, it } from 'vitest';
import { GatewayAddressError, endpointUrl, resolveGatewayAddress, tryResolveGatewayAddress } from '@/lib/gateway';

const site = { siteUrl: 'https://gw.example.com', baseUrl: 'https://gw.example.com/v1' };

function problemOf(input: string): string {
  try {
    resolveGatewayAddress(input);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayAddressError);
    return (error as GatewayAddressError).problem;
  }
  throw new Error(`expected "${input}" to be rejected`);
}

describe('seed part 4, base address entry rules', () => {
  it('rule 1: a client asking for the API base URL gets {site_url}/v1 from the site address', () => {
    expect(resolveGatewayAddress('https://gw.example.com')).toEqual(site);
  });

  it('rule 1: the base address itself is kept as {base_url}', () => {
    expect(resolveGatewayAddress('https://gw.example.com/v1')).toEqual(site);
  });

  it('rule 2: the site address (what a client that appends /v1 wants) never carries /v1', () => {
    expect(resolveGatewayAddress('https://gw.example.com/v1').siteUrl).toBe('https://gw.example.com');
    expect(resolveGatewayAddress('https://gw.example.com').siteUrl).toBe('https://gw.example.com');
  });

  it('rule 3: a doubled /v1 (always a 404) is collapsed, never produced', () => {
    expect(resolveGatewayAddress('https://gw.example.com/v1/v1')).toEqual(site);
    expect(resolveGatewayAddress('https://gw.example.com/v1/v1/chat/completions')).toEqual(site);
    expect(resolveGatewayAddress('https://gw.example.com/v1/v1/v1/')).toEqual(site);
  });

  it('rule 1 of endpoints: an endpoint is {base_url} followed by its path', () => {
    expect(endpointUrl(site.baseUrl, '/chat/completions')).toBe('https://gw.example.com/v1/chat/completions');
    expect(endpointUrl(`${site.baseUrl}/`, 'models')).toBe('https://gw.example.com/v1/models');
  });
});

describe('what users paste', () => {
  it.each([
    ['https://gw.example.com/v1/chat/completions'],
    ['https://gw.example.com/v1/models'],
    ['https://gw.example.com/v1/responses'],
    ['https://gw.example.com/v1/embeddings'],
    ['https://gw.example.com/v1/'],
    ['https://gw.example.com/'],
    ['  https://gw.example.com/v1  '],
    ['"https://gw.example.com/v1"'],
    ["'https://gw.example.com'"],
    ['“https://gw.example.com/v1”'],
    ['<https://gw.example.com/v1>'],
    ['https://gw.example.com//v1//'],
    ['https://GW.Example.com/v1'],
    ['https://gw.example.com/v1?foo=bar#x'],
    ['gw.example.com'],
    ['gw.example.com/v1'],
  ])('%s resolves to the site and /v1 base', (input) => {
    expect(resolveGatewayAddress(input)).toEqual(site);
  });

  it('a site page copied from the address bar (keys page, catalogue, console) means the site', () => {
    for (const page of ['/keys', '/models', '/console', '/console/token', '/pricing', '/token']) {
      expect(resolveGatewayAddress(`https://gw.example.com${page}`)).toEqual(site);
    }
  });

  it('keeps a path prefix of a gateway mounted under a sub-path', () => {
    expect(resolveGatewayAddress('https://host.example/newapi')).toEqual({ siteUrl: 'https://host.example/newapi', baseUrl: 'https://host.example/newapi/v1' });
    expect(resolveGatewayAddress('https://openrouter.ai/api/v1')).toEqual({ siteUrl: 'https://openrouter.ai/api', baseUrl: 'https://openrouter.ai/api/v1' });
  });

  it('keeps a base that already ends in another version segment (no /v1 added)', () => {
    expect(resolveGatewayAddress('https://generativelanguage.googleapis.com/v1beta/openai/')).toEqual({
      siteUrl: 'https://generativelanguage.googleapis.com',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    });
    expect(resolveGatewayAddress('https://generativelanguage.googleapis.com/v1beta/openai/chat/completions').baseUrl)
      .toBe('https://generativelanguage.googleapis.com/v1beta/openai');
    expect(resolveGatewayAddress('https://open.bigmodel.cn/api/paas/v4')).toEqual({
      siteUrl: 'https://open.bigmodel.cn/api/paas',
      baseUrl: 'https://open.bigmodel.cn/api/paas/v4',
    });
  });

  it('keeps ports and plain http for a local gateway', () => {
    expect(resolveGatewayAddress('http://127.0.0.1:3000')).toEqual({ siteUrl: 'http://127.0.0.1:3000', baseUrl: 'http://127.0.0.1:3000/v1' });
    expect(resolveGatewayAddress('localhost:11434/v1')).toEqual({ siteUrl: 'http://localhost:11434', baseUrl: 'http://localhost:11434/v1' });
  });
});

describe('rejected addresses, each with its own message', () => {
  it('empty input', () => {
    expect(problemOf('')).toBe('empty');
    expect(problemOf('   ')).toBe('empty');
    expect(problemOf('""')).toBe('empty');
  });

  it('schemes other than http(s)', () => {
    expect(problemOf('ftp://gw.example.com')).toBe('unsupported_scheme');
    expect(problemOf('javascript:alert(1)')).toBe('unsupported_scheme');
    expect(problemOf('file:///etc/passwd')).toBe('unsupported_scheme');
    expect(() => resolveGatewayAddress('ws://gw.example.com')).toThrow(expect.objectContaining({ problem: 'unsupported_scheme', params: { scheme: 'ws' } }));
  });

  it('embedded credentials, without echoing them back', () => {
    expect(problemOf('https://user:secret@gw.example.com/v1')).toBe('credentials');
    const result = tryResolveGatewayAddress('https://user:secret@gw.example.com/v1');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.problem).toBe('credentials');
      expect(result.error.input).not.toContain('secret');
      expect(JSON.stringify(result.error.params) + result.error.message).not.toContain('secret');
    }
  });

  it('an empty host', () => {
    expect(problemOf('https://')).toMatch(/missing_host|malformed/);
    expect(problemOf('http:///v1')).toMatch(/missing_host|malformed/);
  });

  it('a malformed address names what was typed', () => {
    const result = tryResolveGatewayAddress('https://gw example.com');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.problem).toBe('malformed');
      expect(result.error.input).toBe('https://gw example.com');
    }
  });

  it('an API key pasted into the address field, without echoing the key', () => {
    expect(problemOf('sk-abcdefghijklmnopqrstuvwxyz123456')).toBe('looks_like_key');
    const result = tryResolveGatewayAddress('sk-abcdefghijklmnopqrstuvwxyz123456');
    if (!result.ok) expect(result.error.message + result.error.input + JSON.stringify(result.error.params)).not.toContain('abcdefghij');
  });

  it('tryResolveGatewayAddress returns the same addresses as a value', () => {
    expect(tryResolveGatewayAddress('https://gw.example.com/v1/')).toEqual({ ok: true, ...site });
  });
});

import { describe, expect, it } from 'vitest';
import { sendsKeyInClear } from '@/lib/gateway';
import { originPattern, patternsToRelease } from '@/lib/settings/origins';

describe('host access for one origin', () => {
  it('names the port when the address has one (Chrome), not every port of the host', () => {
    expect(originPattern('http://127.0.0.1:8787/v1')).toBe('http://127.0.0.1:8787/*');
    expect(originPattern('https://gw.example.com/v1')).toBe('https://gw.example.com/*');
    // Firefox's match patterns cannot carry a port.
    expect(originPattern('http://127.0.0.1:8787/v1', false)).toBe('http://127.0.0.1/*');
  });

  it('a deleted profile gives its access back only when no other profile uses that origin', () => {
    const a = 'https://a.example/v1';
    const a2 = 'https://a.example/v1beta/openai';
    const b = 'https://b.example/v1';
    expect(patternsToRelease([originPattern(a), originPattern(b)], [b])).toEqual(['https://a.example/*']);
    expect(patternsToRelease([originPattern(a), originPattern(b)], [a2, b])).toEqual([]);
    expect(patternsToRelease(['http://127.0.0.1:1/*', 'http://127.0.0.1:2/*'], ['http://127.0.0.1:2/v1'])).toEqual(['http://127.0.0.1:1/*']);
  });
});

describe('least privilege over time (issue 28, item 10)', () => {
  it('a profile moved to another origin: the old origin is given back, the new one kept', () => {
    const granted = ['https://old.example/*', 'https://new.example/*'];
    expect(patternsToRelease(granted, ['https://new.example/v1'])).toEqual(['https://old.example/*']);
  });

  it('a tested address never saved is given back; while a form holds it, it is in use', () => {
    const granted = ['https://saved.example/*', 'https://tested.example/*'];
    expect(patternsToRelease(granted, ['https://saved.example/v1'])).toEqual(['https://tested.example/*']);
    expect(patternsToRelease(granted, ['https://saved.example/v1', 'https://tested.example/v1'])).toEqual([]);
  });

  it('Firefox\'s patterns have no port: one covers every port of its host; a port-less grant (older builds) still serves its profile', () => {
    const granted = ['http://localhost/*', 'http://127.0.0.1/*'];
    expect(patternsToRelease(granted, ['http://127.0.0.1:8787/v1'])).toEqual(['http://localhost/*']);
    expect(patternsToRelease(['http://localhost/*'], ['http://localhost:3000/v1'])).toEqual([]);
  });

  it('Chrome\'s patterns name the port: another port of the same host does not keep one', () => {
    expect(patternsToRelease(['http://localhost:3000/*'], ['http://localhost:4000/v1'])).toEqual(['http://localhost:3000/*']);
    expect(patternsToRelease(['https://a.example/*'], ['https://a.example:443/v1'])).toEqual([]);
    expect(patternsToRelease(['http://[::1]:8080/*'], ['http://[::1]:8080/v1'])).toEqual([]);
  });

  it('the scheme counts: access to http:// is not in use by an https:// profile', () => {
    expect(patternsToRelease(['http://a.example/*', 'https://a.example/*'], ['https://a.example/v1'])).toEqual(['http://a.example/*']);
  });

  it('never takes back what we do not ask for: patterns with a wildcard host, other schemes', () => {
    const broad = ['https://*/*', 'http://*/*', '<all_urls>', '*://*/*', 'https://*.example.com/*', 'file:///*', 'ws://a.example/*', 'https://a.example/path/*'];
    expect(patternsToRelease(broad, [])).toEqual([]);
  });

  it('an address that cannot be read keeps nothing', () => {
    expect(patternsToRelease(['https://a.example/*'], ['not an address', ''])).toEqual(['https://a.example/*']);
  });
});

describe('plain http to another machine', () => {
  it.each([
    ['http://gw.example.com/v1', true],
    ['http://192.168.1.20:3000/v1', true],
    ['https://gw.example.com/v1', false],
    ['http://127.0.0.1:8787/v1', false],
    ['http://localhost:3000/v1', false],
    ['http://api.localhost/v1', false],
    ['http://[::1]:3000/v1', false],
  ])('%s sends the key in clear: %s', (url, clear) => {
    expect(sendsKeyInClear(url)).toBe(clear);
  });
});

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
    const a = { baseUrl: 'https://a.example/v1' };
    const a2 = { baseUrl: 'https://a.example/v1beta/openai' };
    const b = { baseUrl: 'https://b.example/v1' };
    expect(patternsToRelease(a, [b])).toEqual(['https://a.example/*']);
    expect(patternsToRelease(a, [a2, b])).toEqual([]);
    expect(patternsToRelease({ baseUrl: 'http://127.0.0.1:1/v1' }, [{ baseUrl: 'http://127.0.0.1:2/v1' }])).toEqual(['http://127.0.0.1:1/*']);
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

/**
 * The built-in tools against local servers: a SearXNG-shaped JSON endpoint (results, their
 * sources, an error status, an answer that is not JSON), "Fetch a web page" on a real HTTP page
 * (its text without scripts and styles, a size cap, an error status), and the request each
 * key-holding provider is sent (Brave, Tavily, Exa: the key only in that provider's header).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPage, htmlText, webSearch } from '@/lib/tools/builtin';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/search') {
      const q = url.searchParams.get('q');
      if (q === 'broken') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>JSON format is off</html>');
        return;
      }
      if (q === 'refused') {
        res.writeHead(403).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [
        { url: 'https://a.example/1', title: 'First <b>hit</b>', content: 'About the first.' },
        { url: 'javascript:alert(1)', title: 'Bad', content: 'never' },
        { url: 'https://b.example/2', title: 'Second', content: 'About the second.' },
      ] }));
      return;
    }
    if (url.pathname === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>A page &amp; more</title><style>p{color:red}</style></head><body><script>var secret=1</script><h1>Heading</h1><p>First para.</p><p>Second para.</p></body></html>');
      return;
    }
    if (url.pathname === '/elsewhere') {
      res.writeHead(302, { location: `http://localhost:${(server.address() as AddressInfo).port}/page.html` }).end();
      return;
    }
    if (url.pathname === '/huge.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(3 * 1024 * 1024));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('web search', () => {
  it('SearXNG: numbered results with their sources (pages only), markup taken out', async () => {
    const outcome = await webSearch({ provider: 'searxng', address: base }, { query: 'tides' }, fetch);
    expect(outcome).toEqual({
      ok: true,
      text: '[1] First hit\nhttps://a.example/1\nAbout the first.\n\n[2] Second\nhttps://b.example/2\nAbout the second.',
      sources: [{ title: 'First hit', url: 'https://a.example/1' }, { title: 'Second', url: 'https://b.example/2' }],
    });
  });

  it('says what went wrong: no provider, no query, refused, not JSON, unreachable', async () => {
    expect(await webSearch({ provider: 'none' }, { query: 'x' }, fetch)).toEqual({ ok: false, code: 'no_search_provider', params: {} });
    expect(await webSearch({ provider: 'searxng', address: base }, {}, fetch)).toEqual({ ok: false, code: 'bad_arguments', params: { field: 'query' } });
    expect(await webSearch({ provider: 'searxng', address: base }, { query: 'refused' }, fetch)).toEqual({ ok: false, code: 'unauthorized', params: { address: base, status: 403 } });
    expect(await webSearch({ provider: 'searxng', address: base }, { query: 'broken' }, fetch)).toEqual({ ok: false, code: 'bad_answer', params: { address: base } });
    expect(await webSearch({ provider: 'searxng', address: 'http://127.0.0.1:9' }, { query: 'x' }, fetch)).toMatchObject({ ok: false, code: 'unreachable', params: { address: 'http://127.0.0.1:9' } });
  });

  it('Brave, Tavily and Exa: each is sent the query its way, with the key in its own header only', async () => {
    const sent: { url: string; headers: Record<string, string>; body?: unknown }[] = [];
    const answers: Record<string, unknown> = {
      'api.search.brave.com': { web: { results: [{ url: 'https://a.example', title: 'A', description: 'a' }] } },
      'api.tavily.com': { results: [{ url: 'https://a.example', title: 'A', content: 'a' }] },
      'api.exa.ai': { results: [{ url: 'https://a.example', title: 'A', text: 'a' }] },
    };
    const recorder: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      sent.push({ url: url.href, headers: init?.headers as Record<string, string>, ...(init?.body === undefined ? {} : { body: JSON.parse(String(init.body)) }) });
      return new Response(JSON.stringify(answers[url.host]), { headers: { 'content-type': 'application/json' } });
    };
    for (const provider of ['brave', 'tavily', 'exa'] as const) {
      const outcome = await webSearch({ provider, key: `key-${provider}` }, { query: 'tides', count: 3 }, recorder);
      expect(outcome).toMatchObject({ ok: true, sources: [{ title: 'A', url: 'https://a.example' }] });
    }
    expect(sent).toEqual([
      { url: 'https://api.search.brave.com/res/v1/web/search?q=tides&count=3', headers: { Accept: 'application/json', 'X-Subscription-Token': 'key-brave' } },
      { url: 'https://api.tavily.com/search', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer key-tavily' }, body: { query: 'tides', max_results: 3 } },
      { url: 'https://api.exa.ai/search', headers: { 'Content-Type': 'application/json', 'x-api-key': 'key-exa' }, body: { query: 'tides', numResults: 3, contents: { text: { maxCharacters: 600 } } } },
    ]);
  });
});

describe('fetch a web page', () => {
  it('gives the page\'s text (no scripts or styles) with its title as the source', async () => {
    const outcome = await fetchPage({ url: `${base}/page.html` }, fetch);
    expect(outcome).toEqual({ ok: true, text: 'Heading\n\nFirst para.\n\nSecond para.', sources: [{ title: 'A page & more', url: `${base}/page.html` }] });
  });

  it('reads no more than its cap, and refuses what is not an http(s) address', async () => {
    const outcome = await fetchPage({ url: `${base}/huge.txt` }, fetch);
    expect(outcome.ok && outcome.text.length).toBe(60_000);
    expect(await fetchPage({ url: 'file:///etc/passwd' }, fetch)).toEqual({ ok: false, code: 'bad_arguments', params: { field: 'url' } });
    expect(await fetchPage({ url: `${base}/missing` }, fetch)).toEqual({ ok: false, code: 'http_status', params: { address: `${base}/missing`, status: 404 } });
  });

  it('a page that sends the fetch to another origin is not read there', async () => {
    const port = (server.address() as AddressInfo).port;
    expect(await fetchPage({ url: `${base}/elsewhere` }, fetch)).toEqual({ ok: false, code: 'redirected', params: { address: `${base}/elsewhere`, to: `http://localhost:${port}` } });
  });

  it('html to text keeps blocks on lines of their own', () => {
    expect(htmlText('<ul><li>one</li><li>two</li></ul><p>a &lt;b&gt;</p>')).toBe('one\n\ntwo\n\na <b>');
  });
});

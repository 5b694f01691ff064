/**
 * Only our pages command the background (issue 28, item 11), in Chromium: a script this
 * extension injects into a web page (as the page reader and the selection reader are) carries
 * our id, yet may neither start a run, nor watch a conversation, nor read the settings that hold
 * the API key. Our own pages, in a tab or not, still do.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

let site: Server;
let pageUrl: string;

beforeAll(async () => {
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Any page</title></head><body><p>Any page on the web.</p></body></html>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/any.html`;
});
afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
});
beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
});

interface Injected {
  answer: { answered?: unknown; error?: string };
  stored: { read?: string; error?: string };
  port: 'disconnected' | 'open';
}

describe('only our pages command the background', () => {
  it('a script injected into a web page (with our id) starts no run, gets no runs port, and cannot read the settings', async () => {
    const tab = await env.ext.context.newPage();
    await tab.goto(pageUrl);
    const worker = await env.ext.worker();
    const result = await worker.evaluate(`(async () => {
      const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(pageUrl)} });
      const [injected] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: async () => {
        const answer = await chrome.runtime.sendMessage({ type: 'run.start', input: { surface: 'popup', text: 'sent from inside a web page' } })
          .then((r) => ({ answered: r === undefined ? null : r }), (e) => ({ error: String(e) }));
        const stored = await chrome.storage.local.get('settings').then((v) => ({ read: JSON.stringify(v) }), (e) => ({ error: String(e) }));
        const port = await new Promise((resolve) => {
          const p = chrome.runtime.connect({ name: 'runs' });
          p.onDisconnect.addListener(() => resolve('disconnected'));
          p.postMessage({ type: 'watch', conversationId: 'any' });
          setTimeout(() => resolve('open'), 3000);
        });
        return { answer, stored, port };
      } });
      return injected.result;
    })()`) as Injected;

    expect(JSON.stringify(result.answer)).not.toContain('"ok":true');
    expect(env.gateway.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(result.port).toBe('disconnected');
    // Chromium lets the background keep storage.local to the extension's own pages.
    expect(result.stored.read ?? '').not.toContain(env.gateway.demoKey);
    expect(result.stored.error).toContain('Access to storage is not allowed from this context');
    await tab.close();
  });

  it('our pages still do: the chat page in a tab sends, and the background answers', async () => {
    const page = await openChatPage(env.ext);
    await send(page, 'hello from our own page');
    await idle(page);
    await expect(lastReply(page).textContent()).resolves.toContain('Echo: hello from our own page');
    // The page itself still reads its settings.
    const stored = await page.evaluate(async () => JSON.stringify(await (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<unknown> } } } }).chrome.storage.local.get('settings')));
    expect(stored).toContain(env.gateway.demoKey);
    await page.close();
  });
});

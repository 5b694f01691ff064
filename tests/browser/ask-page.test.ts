/**
 * "Ask about this page" (issue 14), end to end on a served article page: from the side panel's
 * button, the popup's, and the page's context-menu entry (dispatched in the service worker, as
 * automation cannot open native menus). Its main text is quoted, not its navigation or footer;
 * follow-up questions keep the page; the browser's own pages are explained, not attempted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearConversations, idle, lastReply, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';
import { PAGE_READ_DEADLINE_MS } from '../../lib/page/page-access';

const env = gatewayAndExtensionPerFile();

const PARAGRAPHS = [
  'Tides are the rise and fall of sea levels caused by the combined effects of the gravitational forces exerted by the Moon and the Sun, and the rotation of the Earth.',
  'Tide tables can be used for any given locale to find the predicted times and amplitude. The predictions are influenced by many factors including the alignment of the Sun and Moon.',
  'Most coastal areas experience two high and two low tides each day, though some locations see only one of each, and the range between them varies widely along a coast.',
];
const NAVIGATION = 'Subscribe to our newsletter';
const FOOTER = 'Copyright 2026 The Sea Gazette';

let site: Server;
let articleUrl: string;
let busyUrl: string;

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (req.url === '/busy.html') {
      // A page whose own script, once told, holds its main thread longer than the reader's deadline.
      res.end(`<!doctype html><html><head><title>Busy page</title><script>
        function spin() { const end = Date.now() + ${PAGE_READ_DEADLINE_MS + 8000}; while (Date.now() < end) {} }
      </script></head><body><p>${PARAGRAPHS[0]}</p></body></html>`);
      return;
    }
    res.end(`<!doctype html><html><head><title>Tides explained</title></head><body>
      <nav><a href="/">Home</a> · <a href="/news">News</a> · ${NAVIGATION}</nav>
      <main><article><h1>Tides explained</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</article></main>
      <footer>${FOOTER}. Privacy policy.</footer></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  articleUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/tides.html`;
  busyUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/busy.html`;
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

/** A tab on `url`, brought to the front of the window (the page the user is looking at). */
async function tabOn(url: string): Promise<Page> {
  const tab = await env.ext.context.newPage();
  await tab.goto(url);
  await tab.bringToFront();
  return tab;
}

/** A surface opened in its own tab, then the article's tab brought back to the front, as when it sits beside the page. */
async function beside(surface: string, size: { width: number; height: number }, front: Page): Promise<Page> {
  const page = await env.ext.open(surface);
  await page.setViewportSize(size);
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
  await front.bringToFront();
  return page;
}

const userMessage = (page: Page) => page.getByRole('article', { name: 'User message' }).first();
const asked = () => env.gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
const sentMessages = () => (asked().at(-1)?.body as { messages: { role: string; content: string }[] }).messages;

describe('ask about this page', () => {
  it('from the side panel: the article\'s main text is quoted (not its navigation or footer) after the question, answered, and kept for follow-ups', async () => {
    const article = await tabOn(articleUrl);
    const panel = await beside('sidepanel.html', { width: 400, height: 800 }, article);
    await panel.getByRole('textbox', { name: 'Message', exact: true }).fill('What causes tides?');
    await panel.getByRole('button', { name: 'Ask about this page' }).click();

    await expect.poll(() => lastReply(panel).getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    const question = sentMessages().at(-1)!.content;
    expect(question.startsWith('What causes tides?\n\nThe page “Tides explained” (' + articleUrl + '), quoted:\n\n```text\n')).toBe(true);
    for (const p of PARAGRAPHS) expect(question).toContain(p);
    expect(question).not.toContain(NAVIGATION);
    expect(question).not.toContain(FOOTER);
    // Shown as the question and a quote from the page, under the page's title.
    await expect(userMessage(panel).getByRole('blockquote', { name: 'Quoted from “Tides explained”' }).count()).resolves.toBeGreaterThan(0);
    await expect(panel.getByRole('link', { name: 'Tides explained' }).getAttribute('href')).resolves.toBe(articleUrl);
    await expect(panel.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).resolves.toBe('');
    await panel.screenshot({ path: 'test-results/screens/light-side-panel-ask-page.png' });

    await send(panel, 'And how often?');
    await idle(panel);
    const followUp = sentMessages();
    expect(followUp.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(followUp[0]!.content).toContain(PARAGRAPHS[1]);
    expect(followUp[2]!.content).toBe('And how often?');
    await panel.close();
    await article.close();
  });

  it('from the popup, with nothing typed: the default question about the page', async () => {
    const article = await tabOn(articleUrl);
    const popup = await beside('popup.html', { width: 400, height: 600 }, article);
    await popup.getByRole('button', { name: 'Ask about this page' }).click();
    await expect.poll(() => lastReply(popup).getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    expect(sentMessages().at(-1)!.content.startsWith('What is this page about? Summarise its main points.\n\nThe page “Tides explained”')).toBe(true);
    await popup.close();
    await article.close();
  });

  it('from the page\'s context menu: the side panel opens on a conversation about it', async () => {
    const article = await tabOn(articleUrl);
    const worker = await env.ext.worker();
    const id = await worker.evaluate(`(async () => {
      const tab = (await chrome.tabs.query({ url: ${JSON.stringify(articleUrl)} })).sort((a, b) => b.id - a.id)[0];
      return globalThis.__gatewayChatTest.handleMenuClick({ menuItemId: 'ask-page' }, tab);
    })()`) as string;
    const panel = await env.ext.open(`sidepanel.html?conversation=${encodeURIComponent(id)}`);
    await expect.poll(() => lastReply(panel).getAttribute('data-status'), { timeout: 15_000 }).toBe('complete');
    await expect(panel.getByRole('link', { name: 'Tides explained' }).getAttribute('href')).resolves.toBe(articleUrl);
    expect(sentMessages().at(-1)!.content).toContain(PARAGRAPHS[2]);
    await panel.close();
    await article.close();
  });

  it('on a page busy with its own script: the ask ends at the deadline, saying so and what to do, and asks the gateway nothing (issue 28, item 10)', async () => {
    const busy = await tabOn(busyUrl);
    const panel = await beside('sidepanel.html', { width: 400, height: 800 }, busy);
    // From now on the page's main thread is its script's (scheduled, so this call returns).
    await busy.evaluate(() => void setTimeout(() => (globalThis as unknown as { spin(): void }).spin(), 0));
    await panel.waitForTimeout(300);
    const asked0 = Date.now();
    await panel.getByRole('button', { name: 'Ask about this page' }).click();
    const alert = panel.getByRole('alert').filter({ hasText: 'did not answer within' });
    await alert.waitFor({ timeout: PAGE_READ_DEADLINE_MS + 5000 });
    const waited = Date.now() - asked0;
    expect(waited).toBeGreaterThanOrEqual(PAGE_READ_DEADLINE_MS - 500);
    expect(waited).toBeLessThan(PAGE_READ_DEADLINE_MS + 5000);
    await expect(alert.textContent()).resolves.toContain(`This page did not answer within ${PAGE_READ_DEADLINE_MS / 1000} seconds (${busyUrl}): a script of its own is keeping it busy.`);
    expect(asked()).toHaveLength(0);
    // The composer is usable again.
    await expect(panel.getByRole('button', { name: 'Ask about this page' }).isEnabled()).resolves.toBe(true);
    await panel.screenshot({ path: 'test-results/screens/light-side-panel-ask-page-busy.png' });
    await panel.close();
    await busy.close();
  });

  it('on a chrome:// page: says why it cannot be read and what to do, and asks the gateway nothing', async () => {
    const settingsPage = await tabOn('chrome://version/');
    const panel = await beside('sidepanel.html', { width: 400, height: 800 }, settingsPage);
    await panel.getByRole('button', { name: 'Ask about this page' }).click();
    const alert = panel.getByRole('alert').filter({ hasText: 'browser\'s own pages' });
    await alert.waitFor();
    // Without the user's gesture on that tab the browser hides its address: the message does without it.
    await expect(alert.textContent()).resolves.toContain('Open the web page you want to ask about');
    expect(asked()).toHaveLength(0);
    await panel.screenshot({ path: 'test-results/screens/light-side-panel-ask-page-refused.png' });
    await panel.close();
    await settingsPage.close();
  });
});

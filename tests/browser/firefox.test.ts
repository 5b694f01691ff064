/**
 * The firefox-mv2 build in a real Firefox (ESR, headless, over WebDriver BiDi): setup in the
 * options page, a streamed reply in the popup page and in the sidebar page, a reply that goes
 * on after its page closed (the MV2 background page owns it), a tool call to an MCP server
 * approved on its card, an error callout, and a right-click action through the e2e hook.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceGateway, type ReferenceGateway } from '../gateway/server';
import { launchFirefoxExtension, until, type FirefoxExtension } from './firefox-harness';
import { profileFor } from './harness';
import { startTestMcpServer } from '../mcp/server';

let gateway: ReferenceGateway;
let ff: FirefoxExtension;
let site: Server;
let pageUrl: string;

beforeAll(async () => {
  gateway = await startReferenceGateway();
  ff = await launchFirefoxExtension();
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Firefox Article</title></head><body><p id="content">Foxes are small omnivores. They live on every continent but Antarctica. Their dens have many exits.</p></body></html>');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/article.html`;
});
afterAll(async () => {
  await ff?.close();
  await gateway?.close();
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
});
beforeEach(() => gateway.reset());

/** The settings, written as the options page would (in the background page's storage). */
async function settle(settings: unknown): Promise<void> {
  await ff.inBackground(async (bg, value) => {
    await bg.browser.storage.local.clear();
    if (value !== null) await bg.browser.storage.local.set({ settings: value });
  }, settings);
}

const textOf = (page: Page, selector: string): Promise<string> => page.$$eval(selector, (els) => els.map((e) => e.textContent ?? '').join('\n'));
const lastReplyText = (page: Page): Promise<string> => page.evaluate(() => [...document.querySelectorAll('article.message-assistant')].at(-1)?.textContent ?? '');
const lastReplyStatus = (page: Page): Promise<string | null> => page.evaluate(() => [...document.querySelectorAll('article.message-assistant')].at(-1)?.getAttribute('data-status') ?? null);

async function sendMessage(page: Page, text: string): Promise<void> {
  const box = await page.waitForSelector('::-p-aria([name="Message"][role="textbox"])', { timeout: 15_000 });
  await box!.type(text);
  await page.keyboard.press('Enter');
}

describe('Firefox (firefox-mv2)', () => {
  it('setup in the options page: the endpoint, Test connection, Save', async () => {
    await settle(null);
    const options = await ff.open('options.html');
    const address = await options.waitForSelector('::-p-aria([name="Gateway address"][role="textbox"])');
    await address!.type(gateway.siteUrl);
    const key = await options.waitForSelector('::-p-aria([name="API key"][role="textbox"]), input[type="password"]');
    await key!.type(gateway.demoKey);
    await (await options.waitForSelector('::-p-aria([name="Test connection"][role="button"])'))!.click();
    await until('"Connected: 12 models available."', async () => (await textOf(options, '[role="status"]')).includes('Connected: 12 models available.'));
    await (await options.waitForSelector('::-p-aria([name="Save"][role="button"])'))!.click();
    await until('the saved note', async () => (await textOf(options, '[role="status"]')).includes(`Saved. Requests go to ${gateway.baseUrl} only.`));
    const stored = await ff.inBackground(async (bg) => (await bg.browser.storage.local.get('settings')).settings as { profiles: { baseUrl: string }[] });
    expect(stored.profiles[0]?.baseUrl).toBe(gateway.baseUrl);
    await options.close();
  });

  it('a streamed reply in the popup page and in the sidebar page', async () => {
    await settle(profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
    for (const path of ['popup.html', 'sidepanel.html']) {
      const page = await ff.open(path);
      await sendMessage(page, `hello from ${path}`);
      await until(`the echo in ${path}`, async () => (await lastReplyText(page)).includes(`Echo: hello from ${path}`));
      await until(`the reply completed in ${path}`, async () => (await lastReplyStatus(page)) === 'complete');
      await page.close();
    }
  });

  it('Attach file: a PDF is read in the files worker (pdf.js) and its second page reaches the gateway', async () => {
    await settle(profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
    const page = await ff.open('popup.html');
    await page.waitForSelector('input[type="file"][aria-label="Attach file"]', { timeout: 15_000 });
    // The file chosen as the picker would give it (WebDriver BiDi's file upload does not reach an extension page's input).
    const pdf = readFileSync(join(import.meta.dirname, '../fixtures/files/report.pdf')).toString('base64');
    await page.evaluate((base64: string) => {
      const input = document.querySelector<HTMLInputElement>('input[type="file"][aria-label="Attach file"]')!;
      const chosen = new DataTransfer();
      chosen.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], 'report.pdf', { type: 'application/pdf' }));
      input.files = chosen.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    }, pdf);
    await until('the chip of report.pdf', async () => /report\.pdf3 pages/.test(await textOf(page, '.attached-files')));
    await sendMessage(page, 'page two?');
    await until('the request', async () => gateway.requests.some((r) => r.path === '/v1/chat/completions'));
    const body = gateway.requests.find((r) => r.path === '/v1/chat/completions')!.body as { messages: { content: string }[] };
    expect(body.messages.at(-1)!.content).toContain('[Page 2]\nQuarterly report, page 2\nMARKER-PAGE-2');
    await page.close();
  });

  it('a tool call in Firefox: the MCP server (the SDK\'s) is reached from the background page only after "Allow once"', async () => {
    const mcp = await startTestMcpServer({ name: 'notes' });
    try {
      await settle(profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey, { defaultModel: 'vision-1' }));
      await ff.inBackground(async (bg, url) => {
        await bg.browser.storage.local.set({ toolConfig: { mcpServers: [{ id: 'srv', url, name: 'notes', auth: 'none', disabledTools: [] }] } });
      }, mcp.url);
      const page = await ff.open('sidepanel.html');
      await sendMessage(page, 'Sum [[tool:notes__add {"a":20,"b":22}]]');
      const allow = await page.waitForSelector('::-p-aria([name="Allow once"][role="button"])', { timeout: 15_000 });
      expect(mcp.runs).toEqual([]);
      await allow!.click();
      await until('the answer with the tool\'s result', async () => (await lastReplyText(page)).includes('Tool notes__add said: 20 + 22 = 42') && (await lastReplyStatus(page)) === 'complete');
      expect(mcp.runs).toEqual([{ tool: 'add', args: { a: 20, b: 22 } }]);
      await page.close();
    } finally {
      await mcp.close();
    }
  });

  it('a reply goes on after its page closed: the background page owns it', async () => {
    await settle(profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
    gateway.setPace({ delayMs: 25, chunkChars: 3 });
    const text = 'this reply keeps streaming in the Firefox background page while the popup is closed';
    const page = await ff.open('popup.html');
    await sendMessage(page, text);
    await until('the first words', async () => (await lastReplyText(page)).length > 12);
    await page.close();
    const reopened = await ff.open('popup.html');
    await until('the whole reply after reopening', async () => (await lastReplyText(reopened)).includes(`Echo: ${text}`) && (await lastReplyStatus(reopened)) === 'complete', 20_000);
    await reopened.close();
  });

  it('an invalid key: the error callout with its remedy and the keys page', async () => {
    await settle(profileFor(gateway.baseUrl, gateway.siteUrl, 'sk-wrong-key-000000000000000000000'));
    const page = await ff.open('popup.html');
    await sendMessage(page, 'hello');
    await until('the error callout', async () => (await textOf(page, 'article.message-assistant [role="alert"]')).includes('The API key was rejected'));
    const callout = await textOf(page, 'article.message-assistant [role="alert"]');
    expect(callout).toContain('INVALID_API_KEY');
    expect(callout).toContain('Create a new API key on the keys page');
    const href = await page.$eval('article.message-assistant [role="alert"] a', (a) => a.getAttribute('href'));
    expect(href).toBe(`${gateway.siteUrl}/keys`);
    await page.close();
  });

  it('a right-click action: the menu, then the summary streams into a sidebar conversation', async () => {
    await settle(profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey, { actionModel: 'summarise-1' }));
    const tab = await ff.browser.newPage();
    await tab.goto(pageUrl);
    await tab.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('content')!);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    });
    await until('the context menu', async () => JSON.stringify(await ff.inBackground((bg) => bg.__gatewayChatTest.menu().map((e) => e.title))).includes('Summarise with summarise-1'));
    const id = await ff.inBackground(async (bg, url) => {
      // Firefox's match patterns take no port: find the test page's tab by its address.
      const found = (await bg.browser.tabs.query({})).find((t) => t.url === url);
      return bg.__gatewayChatTest.handleMenuClick({ menuItemId: 'action:summarise', selectionText: 'short copy' }, found);
    }, pageUrl);
    expect(typeof id).toBe('string');
    const panel = await ff.open(`sidepanel.html?conversation=${encodeURIComponent(id!)}`);
    await until('the summary', async () => (await lastReplyText(panel)).includes('Summary: ') && (await lastReplyStatus(panel)) === 'complete');
    // The whole selection was read from the page (activeTab on the user's gesture), quoted in the message.
    expect(await textOf(panel, 'article.message-user')).toContain('Their dens have many exits.');
    await panel.close();
    await tab.close();
  });
});

/**
 * Right-click actions, end to end: the menu's click handler and the shortcut are dispatched
 * in the service worker with a real selection on a test page (automation cannot click native
 * menus or press browser shortcuts), and the result streams into a side-panel conversation.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { profileFor, resetSettings, lastReply } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

let site: Server;
let pageUrl: string;
let articleBody = '';

const ARTICLE = 'Gateways route requests to many models. They bill tokens against a balance. Keys are sent as bearer tokens. Models differ in what they accept. The base address ends in v1.';

beforeAll(async () => {
  site = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Test Article</title></head><body><h1>Test Article</h1><p id="content">${articleBody}</p></body></html>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/article.html`;
});
afterAll(async () => {
  // The browser may still hold connections to it (and closes after this hook): drop them.
  site?.closeAllConnections();
  await new Promise((r) => site?.close(r));
});
beforeEach(() => {
  env.gateway.reset();
  articleBody = ARTICLE;
});

const setUp = (settings: Record<string, unknown>): Promise<void> => resetSettings(env.ext, settings);

/** Opens the test page and selects its article text. */
async function selectArticle(): Promise<Page> {
  const page = await env.ext.context.newPage();
  await page.goto(pageUrl);
  await page.evaluate(`(() => { const r = document.createRange(); r.selectNodeContents(document.getElementById('content')); const s = getSelection(); s.removeAllRanges(); s.addRange(r); })()`);
  await page.bringToFront();
  return page;
}

/** Runs an expression in the service worker with the test page's tab as `tab`. */
async function inWorker(expression: string): Promise<unknown> {
  const worker = await env.ext.worker();
  return worker.evaluate(`(async () => {
    // The newest tab on the page: one a failed test left open is never taken for this test's.
    const tab = (await chrome.tabs.query({ url: ${JSON.stringify(pageUrl)} })).sort((a, b) => b.id - a.id)[0];
    return ${expression};
  })()`);
}

async function openConversation(id: string): Promise<Page> {
  const panel = await env.ext.open(`sidepanel.html?conversation=${encodeURIComponent(id)}`);
  await panel.setViewportSize({ width: 420, height: 900 });
  return panel;
}

describe('right-click actions', () => {
  it('"Summarise with <model>": the summary streams into a side-panel conversation that keeps the page title and URL', async () => {
    await setUp(profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { actionModel: 'summarise-1' }));
    const tabPage = await selectArticle();
    await expect.poll(() => inWorker('globalThis.__gatewayChatTest.menu().map((e) => e.title)')).toEqual([
      'Summarise with summarise-1', 'More Gateway Chat actions', 'Explain', expect.stringMatching(/^Translate to /), 'Ask Gateway Chat about this page',
    ]);
    const id = await inWorker(`globalThis.__gatewayChatTest.handleMenuClick({ menuItemId: 'action:summarise', selectionText: 'short copy' }, tab)`) as string;
    const panel = await openConversation(id);
    await lastReply(panel).getByText(/^Summary: /).waitFor();
    await expect.poll(() => lastReply(panel).getAttribute('data-status')).toBe('complete');
    const summary = (await lastReply(panel).locator('.markdown').textContent())!.trim();
    expect(summary.length).toBeLessThan(ARTICLE.length);
    // The whole selection was read from the page, quoted in the user message.
    await expect(panel.getByRole('article', { name: 'User message' }).textContent()).resolves.toContain(ARTICLE);
    await expect(panel.getByRole('link', { name: 'Test Article' }).getAttribute('href')).resolves.toBe(pageUrl);
    await panel.getByRole('tab', { name: 'Conversations' }).click();
    await panel.getByRole('listitem', { name: 'Summarise: Test Article' }).waitFor();
    // The user can continue the conversation.
    await panel.getByRole('listitem', { name: 'Summarise: Test Article' }).getByRole('button', { name: 'Open' }).click();
    await panel.getByRole('textbox', { name: 'Message', exact: true }).fill('Shorter, please.');
    await panel.keyboard.press('Enter');
    await expect.poll(() => panel.getByRole('article', { name: 'Assistant message' }).count()).toBe(2);
    await panel.close();
    await tabPage.close();
  });

  it('a user-defined action, added in the options page, rebuilds the menu and works end to end', async () => {
    await setUp(profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
    const options = await env.ext.open('options.html');
    await options.getByRole('button', { name: 'Add action' }).click();
    const fields = options.getByRole('group', { name: 'Action 4' });
    await fields.getByLabel('Action name').fill('Shout it');
    await fields.getByLabel('Prompt template').fill('Repeat in capitals: {{selection}}');
    await fields.getByLabel('Model for this action (empty: the right-click model)').fill('echo-1');
    await options.getByRole('button', { name: 'Save actions' }).click();
    await options.getByRole('status').filter({ hasText: 'Actions saved' }).waitFor();
    await options.close();

    const tabPage = await selectArticle();
    await expect.poll(() => inWorker('globalThis.__gatewayChatTest.menu().map((e) => e.title)')).toContain('Shout it (echo-1)');
    const id = await inWorker(`globalThis.__gatewayChatTest.handleMenuClick({ menuItemId: globalThis.__gatewayChatTest.menu().find((e) => e.title === 'Shout it (echo-1)').id }, tab)`) as string;
    const panel = await openConversation(id);
    await lastReply(panel).getByText('Echo: Repeat in capitals:').waitFor();
    await expect(lastReply(panel).textContent()).resolves.toContain(ARTICLE);
    await panel.close();
    await tabPage.close();
  });

  it('a template without {{selection}} is refused in the options page, with the reason', async () => {
    await setUp(profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
    const options = await env.ext.open('options.html');
    await options.getByRole('group', { name: 'Action 1' }).getByLabel('Prompt template').fill('Summarise it');
    await options.getByRole('alert').filter({ hasText: 'The prompt must contain {{selection}}' }).waitFor();
    await expect(options.getByRole('button', { name: 'Save actions' }).isDisabled()).resolves.toBe(true);
    await options.close();
  });

  it('a 2 MB selection is cut to the limit, with a notice saying how much was sent', async () => {
    await setUp(profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { actionModel: 'summarise-1' }));
    articleBody = 'This sentence is part of a very long page about gateways. '.repeat(36_000);
    const tabPage = await selectArticle();
    const id = await inWorker(`globalThis.__gatewayChatTest.handleMenuClick({ menuItemId: 'action:summarise' }, tab)`) as string;
    const panel = await openConversation(id);
    const note = panel.getByRole('article', { name: 'User message' }).getByRole('note');
    await note.waitFor();
    await expect(note.textContent()).resolves.toMatch(/too long for one request .* Only its first [\d,]+ of 2,[\d,]+ characters \(\d+%\) were sent/);
    await lastReply(panel).getByText(/^Summary: /).waitFor({ timeout: 20_000 });
    await panel.close();
    await tabPage.close();
  });

  it('the shortcut runs the first action on the current selection', async () => {
    await setUp(profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { actionModel: 'summarise-1' }));
    const tabPage = await selectArticle();
    const id = await inWorker('globalThis.__gatewayChatTest.handleShortcut(tab)') as string;
    const panel = await openConversation(id);
    await lastReply(panel).getByText(/^Summary: /).waitFor();
    // The conversation's record (with its page) is read from storage a moment after the reply's first words arrive.
    await expect.poll(() => panel.getByRole('link', { name: 'Test Article' }).count()).toBe(1);
    await panel.close();
    await tabPage.close();
  });

  it('with nothing selected, the panel says what to do instead of failing silently', async () => {
    await setUp(profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
    const tabPage = await env.ext.context.newPage();
    await tabPage.goto(pageUrl);
    const id = await inWorker('globalThis.__gatewayChatTest.handleShortcut(tab)') as string;
    const panel = await openConversation(id);
    await panel.getByRole('note').filter({ hasText: 'Select some text on the page first' }).waitFor();
    await panel.close();
    await tabPage.close();
  });
});

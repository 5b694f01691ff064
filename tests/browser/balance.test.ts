/**
 * The balance where users look (issue 13): the chip in the chat's header shows the reference
 * gateway's balance, drops by what a reply cost once it finishes, and is hidden for a gateway
 * without balance endpoints (asked once, remembered).
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
});

const chip = (page: Page) => page.getByRole('button', { name: /^Balance: / });
/** What the chip shows for dollars left: cents from one up, four significant digits below. */
const dollars = (amount: number): string => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', ...(amount < 1 ? { maximumSignificantDigits: 4 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 }) }).format(amount);
const UNITS_PER_DOLLAR = 500_000;

describe('the balance chip', () => {
  it('shows the gateway\'s balance, and what is left once a reply has finished', async () => {
    env.gateway.setBalance('demo', 10_000);
    const page = await env.ext.open('popup.html');
    await expect.poll(() => chip(page).getAttribute('aria-label')).toBe(`Balance: ${dollars(0.02)}`);
    await send(page, 'what does this cost');
    await lastReply(page).getByText('Echo: what does this cost').waitFor();
    await idle(page);
    const left = env.gateway.balanceOf('demo') / UNITS_PER_DOLLAR;
    expect(left).toBeLessThan(0.02);
    await expect.poll(() => chip(page).getAttribute('aria-label'), { timeout: 5_000 }).toBe(`Balance: ${dollars(left)}`);

    // Its menu says where the amount comes from, reads it again, and links to the top-up pages.
    await chip(page).click();
    const menu = page.getByRole('menu', { name: 'Balance' });
    await menu.getByText("From the key's usage (new-api)").waitFor();
    await expect(menu.getByRole('menuitem', { name: 'Refresh balance' }).count()).resolves.toBe(1);
    await expect(menu.getByRole('menuitem', { name: /Purchase/ }).count()).resolves.toBe(1);
    await page.keyboard.press('Escape');
    await page.close();
  });

  it('a reply refused for a spent balance shows the balance just read', async () => {
    env.gateway.setBalance('demo', 0);
    const page = await env.ext.open('popup.html');
    await expect.poll(() => chip(page).getAttribute('aria-label')).toBe('Balance: $0.00');
    await send(page, 'one more');
    // Nothing is left: asked first, then sent anyway.
    await page.getByRole('button', { name: 'Send anyway' }).click();
    const callout = lastReply(page).getByRole('alert');
    await callout.getByText('Balance now: $0.00').waitFor();
    await page.close();
  });

  it('a request that may cost more than is left waits for "Send anyway"; the text stays until then', async () => {
    // 20 quota units: $0.00004, less than the prompt below costs at $2 per 1M tokens.
    env.gateway.setBalance('demo', 20);
    const page = await env.ext.open('popup.html');
    await expect.poll(() => chip(page).getAttribute('aria-label')).toBe(`Balance: ${dollars(20 / UNITS_PER_DOLLAR)}`);
    const question = 'a question long enough to cost more than forty millionths of a dollar at two dollars per million tokens';
    await send(page, question);
    const warning = page.getByRole('alert').filter({ hasText: 'more than the' });
    await warning.waitFor();
    expect(env.gateway.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(0);
    await expect(page.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).resolves.toBe(question);
    await warning.getByRole('button', { name: 'Send anyway' }).click();
    await lastReply(page).getByText(`Echo: ${question}`).waitFor();
    await expect(page.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).resolves.toBe('');
    await page.close();
  });

  it('the chat page and the side panel show it too', async () => {
    env.gateway.setBalance('demo', 600_000);
    const chat = await openChatPage(env.ext);
    await expect.poll(() => chip(chat).getAttribute('aria-label')).toBe('Balance: $1.20');
    const panel = await env.ext.open('sidepanel.html');
    await expect.poll(() => chip(panel).getAttribute('aria-label')).toBe('Balance: $1.20');
    // The panel shows the chat page's reading at once, and reads again itself: that read is
    // answered before the pages close, so that it does not reach the gateway during the next test.
    await expect.poll(() => env.gateway.requests.filter((r) => r.path === '/api/usage/token/' && r.endedAt !== undefined).length).toBe(2);
    await chat.close();
    await panel.close();
  });

  it('is hidden for a gateway without balance endpoints, which is asked once', async () => {
    env.gateway.setBilling({ mode: 'none' });
    const page = await env.ext.open('popup.html');
    await page.getByRole('combobox', { name: 'Model' }).waitFor();
    await expect.poll(() => env.gateway.requests.filter((r) => r.path === '/v1/key').length).toBe(1);
    await expect(chip(page).count()).resolves.toBe(0);
    // The answer ("none") is kept once it has come back: a page closed before then asks again next time.
    await expect.poll(() => page.evaluate(async () => {
      const all = await (globalThis as unknown as { chrome: { storage: { local: { get(k: null): Promise<Record<string, unknown>> } } } }).chrome.storage.local.get(null);
      return Object.entries(all).filter(([k]) => k.startsWith('balance:')).map(([, v]) => (v as { source?: string }).source);
    })).toEqual(['none']);
    await page.close();
    // Opened again: nothing is asked (the gateway exposes none), nothing is shown.
    const again = await env.ext.open('popup.html');
    await again.getByRole('combobox', { name: 'Model' }).waitFor();
    await again.waitForTimeout(300);
    expect(env.gateway.requests.filter((r) => r.path === '/api/usage/token/' || r.path === '/v1/key')).toHaveLength(2);
    await expect(chip(again).count()).resolves.toBe(0);
    await again.close();
  });
});

describe('prices', () => {
  it('the catalogue shows each model\'s price and sorts by it; a reply shows what it cost', async () => {
    const panel = await env.ext.open('sidepanel.html');
    await panel.setViewportSize({ width: 400, height: 1400 });
    await panel.getByRole('tab', { name: 'Catalogue' }).click();
    const rows = panel.getByRole('list', { name: 'Models' }).getByRole('listitem');
    await expect.poll(() => panel.getByRole('listitem', { name: 'echo-1' }).locator('.price').textContent()).toBe('$2.00 in · $2.00 out / 1M');
    await panel.getByRole('combobox', { name: 'Sort by' }).selectOption('price');
    await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
      'markdown-1', 'echo-1', 'legacy-1', 'responses-only-1', 'summarise-1', 'claude-ref-1', 'gemini-ref-1', 'reasoner-1', 'vision-1',
      // Per token at $6 / 1M, then the image models' per-call prices after every per-token one.
      'gemini-2.5-flash-image', 'gpt-image-1', 'dall-e-3',
    ]);
    await panel.close();

    const page = await env.ext.open('popup.html');
    await send(page, 'how much');
    await lastReply(page).getByText('Echo: how much').waitFor();
    await idle(page);
    // Estimated from the listed price ($2 per 1M tokens each way), beside the token counts.
    await expect.poll(() => lastReply(page).getByLabel('Token usage').textContent()).toMatch(/cost ≈ \$0\.0000\d+/);
    await page.close();
  });
});

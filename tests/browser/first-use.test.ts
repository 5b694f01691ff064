/**
 * Details a first-time user hit (issue 9, item 4): the newest message in view, saved replies
 * painted as rendered markdown, first run ending with a model, plural counts.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { gatewayAndExtensionPerFile } from './fixture';
import { clearConversations, lastReply, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile();

beforeEach(() => {
  env.gateway.reset();
});

/** How far the chat history is from its bottom, in pixels. */
const fromBottom = (page: Page) => page.getByRole('log', { name: 'Chat history' }).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** A popup at its size with a 12 kB reply streaming into it, 3 kB of it in. */
async function popupStreamingLongReply(): Promise<Page> {
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'markdown-1' }));
  const page = await env.ext.open('popup.html');
  await page.setViewportSize({ width: 420, height: 600 });
  await page.getByRole('button', { name: 'New chat' }).click();
  env.gateway.setPace({ delayMs: 5, chunkChars: 40 });
  await send(page, 'write 12 kB');
  await expect.poll(async () => (await lastReply(page).textContent())?.length ?? 0).toBeGreaterThan(3000);
  return page;
}

describe('the newest message stays in view', () => {
  it('a reopened popup shows the end of a long reply; scrolling up stops the following and offers "Jump to latest"', async () => {
    const page = await popupStreamingLongReply();
    // While it streams, the view follows it.
    // (It scrolls once a frame: a reading taken between a delta and that frame may be one frame behind.)
    await expect.poll(() => fromBottom(page)).toBeLessThan(40);
    // The reader scrolls up: the view stays where they are, and offers the way back.
    // (A wheel's first notch may race a growing reply, as in any browser: scroll until it took.)
    const history = page.getByRole('log', { name: 'Chat history' });
    await history.hover();
    await page.mouse.wheel(0, -20_000);
    await page.getByRole('button', { name: 'Jump to latest' }).waitFor();
    await page.mouse.wheel(0, -20_000);
    await expect.poll(() => history.evaluate((el) => el.scrollTop)).toBeLessThan(50);
    await expect.poll(() => lastReply(page).getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    await page.waitForTimeout(200);
    expect(await history.evaluate((el) => el.scrollTop)).toBeLessThan(50);
    await page.getByRole('button', { name: 'Jump to latest' }).click();
    await expect.poll(() => fromBottom(page)).toBeLessThan(40);
    await page.close();

    const reopened = await env.ext.open('popup.html');
    await reopened.setViewportSize({ width: 420, height: 600 });
    await expect.poll(() => lastReply(reopened).getAttribute('data-status')).toBe('complete');
    await expect.poll(() => fromBottom(reopened)).toBeLessThan(40);
    await reopened.close();
  });

  it('scrolling up without the wheel (the keyboard, the scroll bar) while a reply streams stops the following too', async () => {
    const page = await popupStreamingLongReply();
    const history = page.getByRole('log', { name: 'Chat history' });
    await expect.poll(() => fromBottom(page)).toBeLessThan(40);
    // Page Up, as the keyboard does it (the history takes focus, then the browser scrolls it).
    await history.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageUp');
    await page.getByRole('button', { name: 'Jump to latest' }).waitFor();
    // Moved as a scroll bar's thumb moves it: a scroll and nothing else.
    await history.evaluate((el) => { el.scrollTop = 0; });
    await expect.poll(() => lastReply(page).getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    await page.waitForTimeout(200);
    expect(await history.evaluate((el) => el.scrollTop)).toBe(0);
    await page.close();
  });

  it('after a failure the error and Retry are in view', async () => {
    await clearConversations(env.ext);
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'markdown-1' }));
    const page = await env.ext.open('popup.html');
    await page.setViewportSize({ width: 420, height: 600 });
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'write 8 kB');
    await expect.poll(() => lastReply(page).getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    env.gateway.setFault({ kind: 'server-error' });
    await send(page, 'and again');
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    await expect.poll(() => fromBottom(page)).toBeLessThan(40);
    const log = await page.getByRole('log', { name: 'Chat history' }).boundingBox();
    const retry = await page.getByRole('button', { name: 'Retry' }).boundingBox();
    expect(retry !== null && log !== null && retry.y + retry.height <= log.y + log.height + 1).toBe(true);
    await page.close();
  });
});

describe('saved replies', () => {
  it('the side panel paints a finished reply as rendered markdown from the first frame, never raw markers', async () => {
    await clearConversations(env.ext);
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'markdown-1' }));
    const first = await env.ext.open('sidepanel.html');
    await send(first, 'write 4 kB');
    await expect.poll(() => lastReply(first).getAttribute('data-status'), { timeout: 20_000 }).toBe('complete');
    await first.close();

    const page = await env.ext.context.newPage();
    await page.addInitScript({
      content: `window.__rawSeen = 0;
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('article[data-status="complete"] .md-plain')) window.__rawSeen++;
          // Its text may hold its room while its rendering comes, never seen.
          for (const el of document.querySelectorAll('article[data-status="complete"] .md-pending')) if (el.checkVisibility({ visibilityProperty: true })) window.__rawSeen++;
        }).observe(document, { subtree: true, childList: true });`,
    });
    await page.goto(`chrome-extension://${env.ext.extensionId}/sidepanel.html`);
    await lastReply(page).locator('.markdown h1, .markdown h2, .markdown ul, .markdown pre').first().waitFor();
    expect(await page.evaluate('window.__rawSeen')).toBe(0);
    await page.close();
  });
});

describe('first run', () => {
  it('ends with a model chosen: the first Send after setup gets a reply', async () => {
    await clearConversations(env.ext);
    await resetSettings(env.ext, undefined);
    const page = await env.ext.open('popup.html');
    await page.getByRole('textbox', { name: 'Gateway address' }).fill(env.gateway.baseUrl);
    await page.getByLabel('API key').fill(env.gateway.demoKey);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
    await send(page, 'hello after setup');
    await expect.poll(() => lastReply(page).getAttribute('data-status')).toBe('complete');
    expect(await lastReply(page).textContent()).toContain('Echo: hello after setup');
    await page.close();

    const panel = await env.ext.open('sidepanel.html');
    await panel.getByRole('tab', { name: 'Conversations', exact: true }).click();
    await expect.poll(() => panel.getByLabel('Conversation count').textContent()).toBe('1 conversation');
    await panel.close();
  });
});

describe('themes', () => {
  it('Dark chosen in the options page: every surface opens dark from its first frame', async () => {
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
    const options = await env.ext.open('options.html');
    await options.getByRole('combobox', { name: 'Theme' }).click();
    await options.getByRole('option', { name: 'Dark' }).click();
    await expect.poll(() => options.evaluate(() => document.documentElement.style.colorScheme)).toBe('dark');
    await options.close();
    for (const surface of ['popup.html', 'sidepanel.html', 'chat.html']) {
      const page = await env.ext.context.newPage();
      // Recorded when the page's body starts, before any of its modules run.
      await page.addInitScript({
        content: `new MutationObserver((_, observer) => {
          if (document.body !== null) { window.__firstScheme = document.documentElement.style.colorScheme; observer.disconnect(); }
        }).observe(document, { subtree: true, childList: true });`,
      });
      await page.goto(`chrome-extension://${env.ext.extensionId}/${surface}`);
      await page.getByRole('button', { name: 'Menu' }).waitFor();
      expect(await page.evaluate('window.__firstScheme'), surface).toBe('dark');
      // The surface's menu shows the same choice.
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await page.getByRole('group', { name: 'Theme' }).getByRole('menuitemradio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
      await page.close();
    }
  });
});

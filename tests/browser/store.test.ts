/**
 * The stores' screenshots, made from the real surfaces (issue 15), into test-results/store/: each
 * surface in the light and the dark theme, at the Chrome Web Store's 1280×800 and 640×400. The
 * popup and the side panel are shown at their real size on a backdrop with the product's name and
 * its short description (from locales/); the chat page and the options page fill the frame.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { ensureLocale, wordsFor } from '../../lib/i18n/messages';
import { clearConversations, compareWith, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();
const ROOT = resolve(import.meta.dirname, '../..');
const STORE = resolve(ROOT, 'test-results/store');
mkdirSync(STORE, { recursive: true });

await ensureLocale('en');
const words = { app: { name: wordsFor('en').t('app.name') }, store: { short: wordsFor('en').t('store.short') } };
const icon = `data:image/png;base64,${readFileSync(resolve(ROOT, 'public/icon/128.png')).toString('base64')}`;
const SIZES = [[1280, 800], [640, 400]] as const;

beforeEach(() => {
  env.gateway.reset();
});

/** Lays a surface's picture out at the store's sizes: framed on a backdrop (a small surface) or filling it, and saves both. */
async function compose(name: string, theme: 'light' | 'dark', shot: Buffer, framed: boolean): Promise<void> {
  const page = await env.ext.context.newPage();
  const image = `data:image/png;base64,${shot.toString('base64')}`;
  const dark = theme === 'dark';
  const body = framed
    ? `<div class="frame"><div class="words"><img class="icon" src="${icon}" alt=""><h1>${words.app.name}</h1><p>${words.store.short}</p></div><img class="shot" src="${image}" alt=""></div>`
    : `<img class="full" src="${image}" alt="">`;
  await page.setContent(`<!doctype html><html><head><style>
    html, body { margin: 0; width: 1280px; height: 800px; overflow: hidden; font-family: system-ui, sans-serif; }
    body { background: ${dark ? 'radial-gradient(circle at 20% 20%, #2b2d5c, #0d0f14 70%)' : 'radial-gradient(circle at 20% 20%, #eef0ff, #ffffff 70%)'}; color: ${dark ? '#f4f4f8' : '#1f2330'}; }
    .frame { display: flex; align-items: center; justify-content: center; gap: 72px; height: 100%; }
    .words { width: 440px; }
    .icon { width: 96px; height: 96px; }
    h1 { font-size: 44px; margin: 20px 0 12px; }
    p { font-size: 21px; line-height: 1.45; opacity: .85; margin: 0; }
    .shot { max-height: 700px; border-radius: 14px; box-shadow: 0 24px 60px rgba(0,0,0,${dark ? '.6' : '.22'}), 0 0 0 1px rgba(127,127,127,.25); }
    .full { width: 1280px; height: 800px; display: block; }
  </style></head><body>${body}</body></html>`);
  await page.evaluate(() => Promise.all([...document.images].map((img) => img.decode())));
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    // The same layout, scaled: the small picture is the large one at half size.
    await page.evaluate((scale) => { document.documentElement.style.zoom = String(scale); }, width / 1280);
    await page.screenshot({ path: `${STORE}/${theme}-${name}-${width}x${height}.png` });
  }
  await page.close();
}

async function themed(theme: 'light' | 'dark', extra: Record<string, unknown> = {}): Promise<void> {
  await resetSettings(env.ext, { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, extra), appearance: { theme } });
}

async function settled(page: Page, theme: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

describe('store screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`every surface, ${theme}, at 1280×800 and 640×400`, async () => {
      await clearConversations(env.ext);
      await themed(theme, { defaultModel: 'markdown-1' });

      // The popup: a formatted reply.
      const popup = await env.ext.open('popup.html');
      await popup.setViewportSize({ width: 400, height: 600 });
      await send(popup, 'write 1.5 kB');
      await expect.poll(() => lastReply(popup).getAttribute('data-status')).toBe('complete');
      await settled(popup, theme);
      await compose('popup', theme, await popup.screenshot(), true);
      await popup.close();

      // The side panel: the catalogue with prices and capabilities.
      const panel = await env.ext.open('sidepanel.html');
      await panel.setViewportSize({ width: 400, height: 700 });
      await panel.getByRole('tab', { name: 'Catalogue', exact: true }).click();
      await panel.getByLabel('Model count').waitFor();
      await settled(panel, theme);
      await compose('side-panel', theme, await panel.screenshot(), true);
      await panel.close();

      // The chat page: three models compared.
      await themed(theme);
      const chat = await openChatPage(env.ext);
      await compareWith(chat, ['reasoner-1', 'claude-ref-1']);
      await send(chat, 'In one sentence: why do tides happen twice a day?');
      await expect.poll(() => chat.getByRole('region', { name: 'Replies compared' }).getByRole('article').count()).toBe(3);
      await idle(chat);
      await settled(chat, theme);
      await compose('chat-page-compare', theme, await chat.screenshot(), false);
      await chat.close();

      // The options page.
      const options = await env.ext.open('options.html');
      await options.setViewportSize({ width: 1280, height: 800 });
      await options.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
      await settled(options, theme);
      await compose('options', theme, await options.screenshot(), false);
      await options.close();

      for (const name of ['popup', 'side-panel', 'chat-page-compare', 'options']) {
        for (const [width, height] of SIZES) {
          const png = readFileSync(`${STORE}/${theme}-${name}-${width}x${height}.png`);
          expect([png.readUInt32BE(16), png.readUInt32BE(20)], `${name} at ${width}×${height}`).toEqual([width, height]);
        }
      }
    });
  }
});

describe('the options page\'s About', () => {
  it('shows this build\'s version and opens the changelog and the privacy statement shipped inside the extension', async () => {
    await themed('light');
    const version = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const options = await env.ext.open('options.html');
    const about = options.getByRole('region', { name: 'About' });
    await expect.poll(() => about.textContent()).toContain(`Gateway Chat version ${version}`);
    for (const [name, file, heading] of [['What changed (changelog)', 'CHANGELOG.txt', '# Changelog'], ['Privacy', 'PRIVACY.txt', '# Privacy']] as const) {
      const href = await about.getByRole('link', { name }).getAttribute('href');
      expect(href).toBe(`chrome-extension://${env.ext.extensionId}/${file}`);
      const text = await options.evaluate(async (url) => (await fetch(url)).text(), href!);
      expect(text.startsWith(heading)).toBe(true);
    }
    await options.close();
  });
});

/**
 * Sync between Chromium and Firefox (issue 31: "Chrome at work and Firefox at home"), through one
 * real WebDAV server (Apache mod_dav, started here): a conversation made in Chromium reaches the
 * Firefox build (firefox-mv2, set up in its options page as a user would), and one made in
 * Firefox reaches Chromium. The Firefox side keeps its key in its own IndexedDB and syncs from
 * its MV2 background page.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastReply, openChatPage, profileFor, send, type LaunchedExtension } from './harness';
import { launchFirefoxExtension, until, type FirefoxExtension } from './firefox-harness';
import { profileWith, setUpSync, storedStatus, syncNow } from './sync-steps';
import { startReferenceGateway, type ReferenceGateway } from '../gateway/server';
import { startWebDavServer, type WebDavServer } from '../sync/webdav-server';

const PASSPHRASE = 'from chromium to firefox';
const FROM_CHROMIUM = 'Written in Chromium MARKER-c1';
const FROM_FIREFOX = 'Written in Firefox MARKER-f1';

let server: WebDavServer;
let gateway: ReferenceGateway;
let ff: FirefoxExtension;
const browsers: LaunchedExtension[] = [];

beforeAll(async () => {
  [server, gateway] = await Promise.all([startWebDavServer(), startReferenceGateway()]);
  ff = await launchFirefoxExtension();
}, 60_000);
afterAll(async () => {
  for (const ext of browsers) await ext.close().catch(() => undefined);
  await ff?.close();
  await server?.close();
  await gateway?.close();
});

/** Firefox's stored sync status (its background page's storage). */
const firefoxStatus = (): Promise<{ state?: string; lastSyncedAt?: number; code?: string } | undefined> =>
  ff.inBackground(async (bg) => (await bg.browser.storage.local.get('syncStatus')).syncStatus as { state?: string } | undefined);

async function field(page: Page, name: string, text: string, role = 'textbox'): Promise<void> {
  const input = (await page.waitForSelector(`::-p-aria([name="${name}"][role="${role}"])`, { timeout: 15_000 }))!;
  await input.click({ count: 3 });
  await page.keyboard.press('Backspace');
  await input.type(text);
}

async function press(page: Page, name: string): Promise<void> {
  await (await page.waitForSelector(`::-p-aria([name="${name}"][role="button"])`, { timeout: 15_000 }))!.click();
}

/** The titles a Firefox chat page lists. */
const firefoxTitles = (page: Page): Promise<string[]> => page.$$eval('nav[aria-label="Conversations"] [role="listitem"][aria-label]', (items) => items.map((i) => i.getAttribute('aria-label') ?? ''));

describe('sync between Chromium and Firefox through WebDAV (Apache mod_dav)', () => {
  it('a conversation made in Chromium reaches Firefox, and one made in Firefox reaches Chromium', async () => {
    // Chromium: a conversation, then sync set up as the first device.
    const chromium = await profileWith(gateway, browsers);
    const chat = await openChatPage(chromium);
    await send(chat, FROM_CHROMIUM);
    await lastReply(chat).getByText(`Echo: ${FROM_CHROMIUM}`).waitFor();
    const chromiumOptions = await setUpSync(chromium, server, PASSPHRASE, true);

    // Firefox: its gateway, then the Sync section as a user fills it.
    await ff.inBackground(async (bg, settings) => {
      await bg.browser.storage.local.clear();
      await bg.browser.storage.local.set({ settings });
    }, profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
    const options = await ff.open('options.html#sync');
    await field(options, 'Server address', server.address);
    await field(options, 'Username', server.username);
    // The section's own (the Gateways section has an API key field too).
    const password = (await options.waitForSelector('#sync input[type="password"]'))!;
    await password.type(server.password);
    await field(options, 'Folder', 'Gateway Chat');
    await press(options, 'Test sync');
    await until('Firefox to find the synced data', async () => (await options.evaluate(() => document.body.textContent ?? '')).includes('Synced data found here'), 30_000);
    const passphrase = (await options.waitForSelector('#sync ::-p-aria([name="Encryption passphrase"])'))!;
    await passphrase.type(PASSPHRASE);
    await press(options, 'Start syncing');
    await until('Firefox\'s first round to end', async () => (await firefoxStatus())?.state === 'idle', 60_000);

    await options.evaluate(() => document.getElementById('sync')?.scrollIntoView());
    await until('the section to say "Synced"', async () => /Synced/.test(await options.evaluate(() => document.querySelector('#sync [role="status"][aria-label="Sync status"]')?.textContent ?? '')), 10_000);
    await options.screenshot({ path: 'test-results/screens/firefox-options-sync-on.png' });
    const firefoxChat = await ff.open('chat.html');
    await until('the Chromium conversation listed in Firefox', async () => (await firefoxTitles(firefoxChat)).includes(FROM_CHROMIUM), 20_000);

    // Firefox: a conversation of its own, synced ("Sync now" in its options page).
    await firefoxChat.bringToFront();
    await press(firefoxChat, 'New chat');
    const box = (await firefoxChat.waitForSelector('::-p-aria([name="Message"][role="textbox"])', { timeout: 15_000 }))!;
    await box.type(FROM_FIREFOX);
    await firefoxChat.keyboard.press('Enter');
    await until('the Firefox reply', async () => (await firefoxChat.evaluate(() => document.body.textContent ?? '')).includes(`Echo: ${FROM_FIREFOX}`), 20_000);
    const before = (await firefoxStatus())?.lastSyncedAt ?? 0;
    await options.bringToFront();
    await press(options, 'Sync now');
    await until('Firefox to sync again', async () => {
      const status = await firefoxStatus();
      return status?.state === 'idle' && (status.lastSyncedAt ?? 0) > before;
    }, 30_000);

    expect((await syncNow(chromium, chromiumOptions)).state).toBe('idle');
    const rail = chat.getByRole('navigation', { name: 'Conversations' });
    await rail.getByRole('listitem', { name: FROM_FIREFOX }).waitFor({ timeout: 20_000 });
    expect(await storedStatus(chromium)).toMatchObject({ state: 'idle' });
  }, 240_000);
});

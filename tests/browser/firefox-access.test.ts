/**
 * Least privilege over time (issue 28, item 10), in a real Firefox: host access asked for at
 * runtime is given back as soon as no saved profile uses its origin. Firefox grants optional
 * permissions without a prompt when `extensions.webextOptionalPermissionPrompts` is off, so the
 * real `permissions.request` runs on the options page's clicks. The gateway is reached as
 * `localhost` (an origin of its own, unlike the 127.0.0.1 the e2e manifest grants for good).
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceGateway, type ReferenceGateway } from '../gateway/server';
import { launchFirefoxExtension, until, type FirefoxExtension } from './firefox-harness';
import { profileFor } from './harness';

let gateway: ReferenceGateway;
let ff: FirefoxExtension;
/** The reference gateway's site as `localhost` (Firefox's pattern for it: `http://localhost/*`). */
let localSite: string;
const LOCALHOST = 'http://localhost/*';

beforeAll(async () => {
  gateway = await startReferenceGateway();
  localSite = gateway.siteUrl.replace('127.0.0.1', 'localhost');
  ff = await launchFirefoxExtension({ 'extensions.webextOptionalPermissionPrompts': false });
});
afterAll(async () => {
  await ff?.close();
  await gateway?.close();
});
beforeEach(() => gateway.reset());

async function settle(settings: unknown): Promise<void> {
  await ff.inBackground(async (bg, value) => {
    await bg.browser.storage.local.clear();
    if (value !== null) await bg.browser.storage.local.set({ settings: value });
  }, settings);
}

const granted = (): Promise<string[]> => ff.inBackground(async (bg) => (await bg.browser.permissions.getAll()).origins ?? []);
const statusText = (page: Page): Promise<string> => page.$$eval('[role="status"]', (els) => els.map((e) => e.textContent ?? '').join('\n'));

async function button(page: Page, name: string) {
  return (await page.waitForSelector(`::-p-aria([name="${name}"][role="button"])`, { timeout: 15_000 }))!;
}

/** Replaces what a field holds, as a user would (select all, type). */
async function retype(page: Page, field: string, text: string): Promise<void> {
  const input = (await page.waitForSelector(`::-p-aria([name="${field}"][role="textbox"])`, { timeout: 15_000 }))!;
  await input.click();
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await input.type(text);
}

/** Fills a connection form and tests it: the Test asks for (and here gets) access to the address's origin. */
async function testConnection(page: Page, site: string): Promise<void> {
  await retype(page, 'Gateway address', site);
  const key = (await page.waitForSelector('input[type="password"]'))!;
  await key.type(gateway.demoKey);
  await (await button(page, 'Test connection')).click();
  await until('"Connected: 12 models available."', async () => (await statusText(page)).includes('Connected: 12 models available.'));
}

/** A moment for the background to act on what just changed (it reconciles within milliseconds). */
const settleDown = (): Promise<void> => new Promise((r) => setTimeout(r, 1500));

describe('Firefox: host access is given back when no saved profile uses it', () => {
  it('a profile saved for localhost gets its access; moved to another origin, the access to localhost is given back', async () => {
    await settle(null);
    const options = await ff.open('options.html');
    await testConnection(options, localSite);
    expect(await granted()).toContain(LOCALHOST);
    await (await button(options, 'Save')).click();
    await until('the saved note', async () => (await statusText(options)).includes(`Saved. Requests go to ${localSite}/v1 only.`));
    await settleDown();
    expect(await granted()).toContain(LOCALHOST);

    // The same profile, moved to 127.0.0.1 (the key goes with it, by the user's choice).
    await retype(options, 'Gateway address', gateway.siteUrl);
    await (await button(options, 'Keep the key for the new address')).click();
    await (await button(options, 'Save')).click();
    await until('the saved note for the new address', async () => (await statusText(options)).includes(`Saved. Requests go to ${gateway.baseUrl} only.`));
    await until('access to localhost given back', async () => !(await granted()).includes(LOCALHOST));
    const stored = await ff.inBackground(async (bg) => (await bg.browser.storage.local.get('settings')).settings as { profiles: { baseUrl: string }[] });
    expect(stored.profiles.map((p) => p.baseUrl)).toEqual([gateway.baseUrl]);
    // What the manifest grants stays (it cannot be given back), and the profile uses it.
    expect(await granted()).toContain('http://127.0.0.1/*');
    await options.close();
  });

  it('a Test for an address never saved: kept while its form is open (other settings saved meanwhile), given back when the form is left or its page closed', async () => {
    await settle(profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
    const options = await ff.open('options.html');
    await (await button(options, 'Add profile')).click();
    await testConnection(options, localSite);
    expect(await granted()).toContain(LOCALHOST);

    // The settings change while the form is still open, about to be saved: its access stays.
    await (await button(options, 'Save preferences')).click();
    await until('"Preferences saved."', async () => (await statusText(options)).includes('Preferences saved.'));
    await settleDown();
    expect(await granted()).toContain(LOCALHOST);

    // Left for the saved profile, unsaved: given back.
    await (await options.waitForSelector('[role="radio"]'))!.click();
    await until('access to localhost given back after leaving the form', async () => !(await granted()).includes(LOCALHOST));

    // Tested again, then the page closed: given back too.
    await (await button(options, 'Add profile')).click();
    await testConnection(options, localSite);
    expect(await granted()).toContain(LOCALHOST);
    await options.close();
    await until('access to localhost given back after its page closed', async () => !(await granted()).includes(LOCALHOST));
  });
});

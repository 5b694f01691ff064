/**
 * The firefox-mv2 e2e build in Debian's Firefox ESR, driven by puppeteer-core over WebDriver
 * BiDi, installed as a temporary add-on. BiDi may not navigate a tab to a moz-extension://
 * page, so the e2e build opens its options page on install; the tests open every other page
 * from there (tabs.create), and reach the MV2 background page through getBackgroundPage().
 * The internal UUID is fixed by a pref, so pages are at moz-extension://<UUID>/….
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export const FIREFOX_EXTENSION_DIR = resolve(import.meta.dirname, '../../.output/firefox-mv2-e2e');
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const GECKO_ID = 'gateway-chat@example.org';
export const FIREFOX_UUID = '6b1e7c2a-0d3f-4f6e-9a51-2c8d7e4b9f10';

/** What the tests use of the background page: the e2e hook and the WebExtension API. */
export interface BackgroundWindow {
  __gatewayChatTest: {
    menu(): { id: string; title: string }[];
    handleMenuClick(info: { menuItemId: string; selectionText?: string }, tab?: { id?: number; windowId?: number; title?: string; url?: string }): Promise<string | undefined>;
  };
  browser: {
    tabs: { query(q: object): Promise<{ id?: number; windowId?: number; title?: string; url?: string }[]> };
    storage: { local: { clear(): Promise<void>; set(v: object): Promise<void>; get(k: string): Promise<Record<string, unknown>> } };
    permissions: { getAll(): Promise<{ origins?: string[] }> };
  };
}

export interface FirefoxExtension {
  browser: Browser;
  /** The options page the add-on opened on install: the tests' way into the extension. */
  control: Page;
  /** Opens an extension page (popup.html, sidepanel.html, …) in a new tab. */
  open(path: string): Promise<Page>;
  /**
   * Calls `fn` with the MV2 background page's window (the same origin as the extension's pages,
   * so its objects are used directly) and `arg`; the result comes back through JSON.
   */
  inBackground<T, A = undefined>(fn: (background: BackgroundWindow, arg: A) => Promise<T> | T, arg?: A): Promise<T>;
  close(): Promise<void>;
}

async function locationOf(page: Page): Promise<string> {
  try {
    return await page.evaluate(() => location.href);
  } catch {
    return '';
  }
}

/** The tab showing `path` of the extension (puppeteer's url() of such tabs can be stale: ask the page). */
async function findPage(browser: Browser, path: string, timeoutMs = 15_000): Promise<Page> {
  const want = `moz-extension://${FIREFOX_UUID}/${path}`;
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    for (const page of await browser.pages()) {
      if ((await locationOf(page)) === want) return page;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no tab showed ${want} within ${timeoutMs} ms`);
}

/** `prefs`: more Firefox preferences (about:config), e.g. to grant optional permissions without a prompt. */
export async function launchFirefoxExtension(prefs: Record<string, unknown> = {}): Promise<FirefoxExtension> {
  if (!existsSync(resolve(FIREFOX_EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`No Firefox build at ${FIREFOX_EXTENSION_DIR}: run "npm run build:e2e" first (npm run test:browser does).`);
  }
  if (!existsSync(FIREFOX)) throw new Error(`No Firefox at ${FIREFOX}: install Debian's firefox-esr (apt-get install -y firefox-esr), or set FIREFOX_PATH.`);
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: FIREFOX_UUID }), ...prefs },
  });
  await browser.installExtension(FIREFOX_EXTENSION_DIR);
  const control = await findPage(browser, 'options.html');
  let opened = 0;
  return {
    browser,
    control,
    async open(path) {
      // A query string makes each new tab's address unique, so the right one is found.
      const unique = `${path}${path.includes('?') ? '&' : '?'}tab=${++opened}`;
      await control.evaluate((url) => void (globalThis as unknown as { browser: { tabs: { create(o: { url: string }): Promise<unknown> } } }).browser.tabs.create({ url }), `/${unique}`);
      return findPage(browser, unique);
    },
    async inBackground<T, A>(fn: (background: BackgroundWindow, arg: A) => Promise<T> | T, arg?: A) {
      // An expression sent over BiDi (not page script: the page's CSP does not apply to it).
      const json = await control.evaluate(`(async () => {
        const background = await browser.runtime.getBackgroundPage();
        const result = await (${fn.toString()})(background, ${JSON.stringify(arg ?? null)});
        return JSON.stringify(result === undefined ? null : result);
      })()`) as string;
      return JSON.parse(json) as T;
    },
    async close() {
      await browser.close();
    },
  };
}

/** Waits until `check` holds (polling), or fails saying what it waited for. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * Launching the built extension (`npm run build:e2e`) in Debian's Chromium with playwright-core.
 * The e2e build's manifest pre-grants http://127.0.0.1/* (a headless browser cannot answer
 * the runtime permission prompt), so pages talk to the reference gateway directly.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';

// GC_EXTENSION_DIR: another build to drive (a bench comparing two builds side by side).
export const EXTENSION_DIR = process.env.GC_EXTENSION_DIR ?? resolve(import.meta.dirname, '../../.output/chrome-mv3-e2e');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface LaunchedExtension {
  context: BrowserContext;
  extensionId: string;
  /** Opens an extension page (popup.html, sidepanel.html, options.html, chat.html) in a tab. */
  open(page: string): Promise<Page>;
  /** The extension's service worker (started again if the browser stopped it). */
  worker(): Promise<Worker>;
  close(): Promise<void>;
}

export interface LaunchOptions {
  headless?: boolean;
  executablePath?: string;
  /** The browser's interface language (`--lang`, and the pages' navigator.language). */
  lang?: string;
  /** More of Chromium's switches (a fake microphone, say). */
  args?: string[];
}

export async function launchExtension(options: LaunchOptions = {}): Promise<LaunchedExtension> {
  const executablePath = options.executablePath ?? CHROMIUM;
  if (!existsSync(join(EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`No built extension at ${EXTENSION_DIR}: run "npm run build:e2e" first (npm run test:browser does).`);
  }
  if (!existsSync(executablePath)) {
    throw new Error(`No Chromium at ${executablePath}: install Debian's chromium (apt-get install -y chromium), or set CHROMIUM_PATH.`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'gateway-chat-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: options.headless ?? true,
    // The pages' (and the service worker's) navigator.languages follow --lang and the locale;
    // headless Chromium's chrome.i18n.getUILanguage() stays en-US whatever it is given.
    ...(options.lang === undefined ? {} : { locale: options.lang }),
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [
      // Chromium's sandbox cannot start as root (CI, containers).
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      // This machine has no network but the loopback: keep Chromium from calling home.
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      ...(options.lang === undefined ? [] : [`--lang=${options.lang}`]),
      ...(options.args ?? []),
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    async worker() {
      const live = context.serviceWorkers().find((w) => w.url().startsWith(`chrome-extension://${extensionId}/`));
      if (live !== undefined) return live;
      const wake = await context.newPage();
      await wake.goto(`chrome-extension://${extensionId}/options.html`);
      const started = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
      await wake.close();
      return started;
    },
    async open(path: string) {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${path}`);
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Replaces everything in the extension's storage.local with these settings (as the options page would save them). */
export async function resetSettings(ext: LaunchedExtension, settings: unknown): Promise<void> {
  // Done in the service worker: a page would render, and may fetch and cache the catalogue of
  // the settings it found, after the clear.
  const worker = await ext.worker();
  await worker.evaluate(`(async () => {
    await chrome.storage.local.clear();
    ${settings === undefined ? '' : `await chrome.storage.local.set({ settings: ${JSON.stringify(settings)} });`}
  })()`);
}

/** Empties the saved conversations and their images (in the service worker, whose own connection stays open). */
export async function clearConversations(ext: LaunchedExtension): Promise<void> {
  const worker = await ext.worker();
  await worker.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('gateway-chat');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('conversations')) { db.close(); resolve(undefined); return; }
      const stores = ['conversations', 'messages', 'packs', 'images', 'syncDeletions'].filter((name) => db.objectStoreNames.contains(name));
      const tx = db.transaction(stores, 'readwrite');
      for (const name of stores) tx.objectStore(name).clear();
      tx.oncomplete = () => { db.close(); resolve(undefined); };
      tx.onerror = () => reject(tx.error);
    };
  })`);
}

/** Writes settings straight into the extension's storage.local (as the options page would). */
export async function writeSettings(page: Page, settings: unknown): Promise<void> {
  await page.evaluate(async (value) => {
    await (globalThis as unknown as { chrome: { storage: { local: { set(v: object): Promise<void> } } } }).chrome.storage.local.set({ settings: value });
  }, settings);
}

export function profileFor(baseUrl: string, siteUrl: string, apiKey: string, extra: Record<string, unknown> = {}) {
  return {
    version: 1,
    profiles: [{ id: 'p1', name: 'Reference', siteUrl, baseUrl, apiKey, apiStyle: 'chat', defaultModel: 'echo-1', ...extra }],
    activeProfileId: 'p1',
    chat: { systemPrompt: '' },
  };
}

/** Types a message into the composer and sends it with Enter. */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.keyboard.press('Enter');
}

/** The newest assistant message on the page. */
/** Chooses a model in a model picker (a combobox whose list filters as you type). */
export async function chooseModel(page: Page, model: string, name = 'Model'): Promise<void> {
  const picker = page.getByRole('combobox', { name, exact: true });
  // Open it (typing the model it already shows would change nothing), then type.
  await picker.click();
  await picker.fill(model);
  // The best match comes first and is highlighted: Enter takes it.
  await page.getByRole('listbox', { name }).getByRole('option').first().waitFor();
  await picker.press('Enter');
  for (let i = 0; i < 100; i++) {
    if (await picker.inputValue() === model) return;
    await page.waitForTimeout(50);
  }
  throw new Error(`the model picker never showed ${model}`);
}

/**
 * Turns compare mode on (when `open`) and adds models with its picker, as a user does: type,
 * Enter, until each model's chip is there. The names are the English UI's unless given.
 */
export async function compareWith(page: Page, models: readonly string[], words = { button: 'Compare models', add: 'Add a model to compare', remove: (m: string) => `Remove ${m} from the comparison` }, open = true): Promise<void> {
  if (open) await page.getByRole('button', { name: words.button, exact: true }).click();
  const picker = page.getByRole('combobox', { name: words.add, exact: true });
  for (const model of models) {
    await picker.click();
    await picker.fill(model);
    await page.getByRole('listbox', { name: words.add }).getByRole('option', { name: model, exact: true }).waitFor();
    await picker.press('Enter');
    await page.getByRole('button', { name: words.remove(model) }).waitFor();
  }
}

export const lastReply = (page: Page) => page.getByRole('article', { name: 'Assistant message' }).last();

/** The full-tab chat page at a laptop's size, once its composer is there. */
export async function openChatPage(ext: LaunchedExtension, query = ''): Promise<Page> {
  const page = await ext.open(`chat.html${query}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('textbox', { name: 'Message', exact: true }).waitFor();
  return page;
}

/** Resolves once no reply on the page is streaming, and finished ones show their renderings. */
export async function idle(page: Page): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (await page.locator('[data-status="streaming"], .markdown[aria-busy="true"]').count() === 0) return;
    await page.waitForTimeout(50);
  }
  const still = await page.locator('[data-status="streaming"], .markdown[aria-busy="true"]').evaluateAll((els) => els.map((el) => `${el.tagName}.${el.className} ${el.getAttribute('data-status') ?? ''}: ${(el.textContent ?? '').slice(0, 80)}`));
  throw new Error(`a reply was still streaming, or its renderings still coming, after 10 s: ${still.join(' | ')}`);
}

/**
 * Leaves the conversation database at a far higher version without any of our tables (what a
 * newer build that changed them leaves after a downgrade: Dexie opens any higher version at that
 * version, so only a change this build cannot read fails), from an extension page, and restarts
 * the worker (through CDP) so that it meets the database as it now is.
 */
export async function breakDatabase(ext: LaunchedExtension): Promise<void> {
  const page = await ext.open('options.html');
  await page.evaluate(() => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('gateway-chat', 1000);
    open.onupgradeneeded = () => {
      for (const name of [...open.result.objectStoreNames]) open.result.deleteObjectStore(name);
    };
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      open.result.close();
      resolve();
    };
  }));
  const cdp = await ext.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.close();
}

/** Deletes the broken database and restarts the worker: the next one makes a new database. */
export async function mendDatabase(ext: LaunchedExtension): Promise<void> {
  const page = await ext.open('options.html');
  await page.evaluate(() => new Promise<void>((resolve, reject) => {
    const deleting = indexedDB.deleteDatabase('gateway-chat');
    deleting.onerror = () => reject(deleting.error);
    deleting.onsuccess = () => resolve();
  }));
  const cdp = await ext.context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.close();
}

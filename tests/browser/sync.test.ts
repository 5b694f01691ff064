/**
 * Sync (issue 31) between separate browser profiles through one real WebDAV server (Debian's
 * Apache mod_dav, started here): set up from the options page as a user would, both profiles
 * offline while each adds a turn to the same conversation, one deletes another conversation, one
 * renames; after both sync, both show the same history. A third, new profile gets everything with
 * the passphrase, and a clear refusal (nothing changed) with a wrong one. The server's files
 * hold no plaintext.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastReply, openChatPage, send, type LaunchedExtension } from './harness';
import { fillSync, profileWith, setUpSync, storedStatus, syncNow } from './sync-steps';
import { startReferenceGateway, type ReferenceGateway } from '../gateway/server';
import { serverFiles } from '../sync/server-files';
import { startWebDavServer, type WebDavServer } from '../sync/webdav-server';

const PASSPHRASE = 'correct horse battery staple';
const TRIP = 'Plan a trip to Kyoto MARKER-7f3a';
const SCRATCH = 'Scratch notes MARKER-c41d';
const RENAMED = 'Kyoto in spring MARKER-title-9e2b';

let server: WebDavServer;
let gateway: ReferenceGateway;
const browsers: LaunchedExtension[] = [];

beforeAll(async () => {
  [server, gateway] = await Promise.all([startWebDavServer(), startReferenceGateway()]);
}, 60_000);
afterAll(async () => {
  for (const ext of browsers) await ext.close().catch(() => undefined);
  await server?.close();
  await gateway?.close();
});

/** A new browser profile with the reference gateway set up. */
const newProfile = (): Promise<LaunchedExtension> => profileWith(gateway, browsers);

const rail = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
/** The conversations the rail lists (items without a name are its group headings). */
const titles = async (page: Page): Promise<string[]> => (await rail(page).getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''))).filter((t) => t !== '').sort();

async function open(page: Page, title: string): Promise<void> {
  await rail(page).getByRole('listitem', { name: title }).getByRole('button', { name: 'Open' }).click();
  await page.getByRole('article', { name: 'User message' }).first().waitFor();
}

/** The texts of every version of the second user message (the turns added offline), from the chat page. */
async function secondTurnVersions(page: Page): Promise<string[]> {
  const second = page.getByRole('article', { name: 'User message' }).nth(1);
  await second.waitFor();
  const group = second.locator('xpath=..').getByRole('group', { name: 'Versions' });
  const label = (await group.textContent()) ?? '';
  const total = Number(/\/\s*(\d+)/.exec(label)?.[1] ?? '1');
  // To the first version, then each in turn.
  for (let i = 0; i < total; i++) if (await group.getByRole('button', { name: 'Previous version' }).isEnabled()) await group.getByRole('button', { name: 'Previous version' }).click();
  const texts: string[] = [];
  for (let i = 0; i < total; i++) {
    texts.push(((await page.getByRole('article', { name: 'User message' }).nth(1).textContent()) ?? '').trim());
    if (i < total - 1) await group.getByRole('button', { name: 'Next version' }).click();
  }
  return texts.sort();
}

describe('two browser profiles syncing through WebDAV (Apache mod_dav)', () => {
  it('turns made offline on both are kept as versions, a deletion and a rename are honoured, a new profile gets everything, a wrong passphrase changes nothing', async () => {
    const laptop = await newProfile();
    const desktop = await newProfile();

    // The laptop starts two conversations, and sync.
    const laptopChat = await openChatPage(laptop);
    await send(laptopChat, TRIP);
    await lastReply(laptopChat).getByText(`Echo: ${TRIP}`).waitFor();
    await laptopChat.getByRole('button', { name: 'New chat' }).first().click();
    await send(laptopChat, SCRATCH);
    await lastReply(laptopChat).getByText(`Echo: ${SCRATCH}`).waitFor();
    // And a preset of its own (presets sync; gateways and keys do not).
    // And a second gateway (it syncs without its key).
    await (await laptop.worker()).evaluate(`chrome.storage.local.get('settings').then(({ settings }) => chrome.storage.local.set({ settings: { ...settings, presets: [{ id: 'preset-1', name: 'Travel planner', systemPrompt: 'Plan trips.' }], profiles: [...settings.profiles, { id: 'g2', name: 'Second gateway', siteUrl: 'https://second.example', baseUrl: 'https://second.example/v1', apiKey: 'sk-second-key-SECRET-0001', apiStyle: 'chat', confirmedImageModels: [] }] } }))`);
    const laptopOptions = await setUpSync(laptop, server, PASSPHRASE, true);

    // The desktop joins and gets them.
    const desktopOptions = await setUpSync(desktop, server, PASSPHRASE, false);
    const desktopChat = await openChatPage(desktop);
    await expect.poll(() => titles(desktopChat), { timeout: 15_000 }).toEqual([SCRATCH, TRIP].sort());
    const desktopSettings = async (): Promise<{ presets: { name: string }[]; profiles: { baseUrl: string; apiKey: string }[] }> => (await (await desktop.worker()).evaluate('chrome.storage.local.get("settings").then((r) => r.settings)')) as never;
    await expect.poll(async () => (await desktopSettings()).presets.map((p) => p.name)).toEqual(['Travel planner']);
    // Its own gateway profile keeps its key; the second arrives without one, and says so.
    expect((await desktopSettings()).profiles.map((p) => p.apiKey)).toEqual([gateway.demoKey, '']);
    await desktopOptions.reload();
    await expect.poll(() => desktopOptions.getByRole('radio', { name: /Second gateway/ }).textContent()).toContain('Needs its API key');

    // Offline: both add a turn after the same reply; the desktop deletes Scratch; the laptop renames the trip.
    await server.kill();
    await laptopChat.reload();
    await open(laptopChat, TRIP);
    await send(laptopChat, 'From the laptop, offline');
    await lastReply(laptopChat).getByText('Echo: From the laptop, offline').waitFor();
    await rail(laptopChat).getByRole('listitem', { name: TRIP }).getByRole('button', { name: 'Rename' }).click();
    await laptopChat.getByRole('textbox', { name: 'Conversation title' }).fill(RENAMED);
    await laptopChat.getByRole('button', { name: 'Save title' }).click();
    await rail(laptopChat).getByRole('listitem', { name: RENAMED }).waitFor();
    await open(desktopChat, TRIP);
    await send(desktopChat, 'From the desktop, offline');
    await lastReply(desktopChat).getByText('Echo: From the desktop, offline').waitFor();
    await rail(desktopChat).getByRole('listitem', { name: SCRATCH }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => titles(desktopChat)).toEqual([TRIP]);
    // While the server is down, a round fails, says where, and tries again later.
    const down = await syncNow(laptop, laptopOptions);
    expect(down).toMatchObject({ state: 'retrying', code: 'unreachable' });
    await expect.poll(() => laptopOptions.getByRole('status', { name: 'Sync status' }).textContent()).toContain(server.address);

    // Back online: laptop, desktop, laptop.
    await server.restart();
    expect((await syncNow(laptop, laptopOptions)).state).toBe('idle');
    expect((await syncNow(desktop, desktopOptions)).state).toBe('idle');
    expect((await syncNow(laptop, laptopOptions)).state).toBe('idle');

    // Both show the same history: the deletion honoured, the newer title kept, both offline turns kept as versions.
    for (const chat of [laptopChat, desktopChat]) {
      await chat.reload();
      await expect.poll(() => titles(chat), { timeout: 15_000 }).toEqual([RENAMED]);
      await open(chat, RENAMED);
      await expect.poll(() => secondTurnVersions(chat), { timeout: 15_000 }).toEqual(['From the desktop, offline', 'From the laptop, offline']);
    }

    // A third, new profile: a wrong passphrase is refused clearly and nothing changes; the right one brings everything.
    const third = await newProfile();
    const thirdOptions = await fillSync(third, server);
    const section = thirdOptions.getByRole('region', { name: 'Sync' });
    await section.getByText('Synced data found here', { exact: false }).waitFor();
    await section.getByLabel('Encryption passphrase').fill('not the passphrase');
    await section.getByRole('button', { name: 'Start syncing' }).click();
    await section.getByRole('alert').filter({ hasText: 'not the passphrase this storage was set up with' }).waitFor();
    // Nothing saved: sync is still off on it, with no config.
    expect(await storedStatus(third)).toEqual({ state: 'off' });
    expect(await (await third.worker()).evaluate('chrome.storage.local.get("syncConfig").then((r) => r.syncConfig)')).toBeUndefined();
    const thirdChat = await openChatPage(third);
    expect(await titles(thirdChat)).toEqual([]);
    await section.getByLabel('Encryption passphrase').fill(PASSPHRASE);
    await section.getByRole('button', { name: 'Start syncing' }).click();
    await expect.poll(async () => (await storedStatus(third))?.state, { timeout: 30_000 }).toBe('idle');
    await expect.poll(() => titles(thirdChat), { timeout: 15_000 }).toEqual([RENAMED]);
    await open(thirdChat, RENAMED);
    await expect.poll(() => secondTurnVersions(thirdChat), { timeout: 15_000 }).toEqual(['From the desktop, offline', 'From the laptop, offline']);
    // The chat page says it is synced.
    await expect.poll(() => thirdChat.getByRole('status', { name: 'Sync status' }).textContent()).toMatch(/Synced/);

    // Every file on the server: no title, message or key in plaintext.
    const files = serverFiles(server.files);
    expect(files.size).toBeGreaterThan(5);
    for (const [name, bytes] of files) {
      for (const secret of ['MARKER-', 'From the laptop', 'Kyoto', gateway.demoKey, 'sk-second-key-SECRET', 'second.example', PASSPHRASE]) {
        expect(bytes.includes(secret), `${secret} in ${name}`).toBe(false);
        expect(name.includes(secret), `${secret} in the name ${name}`).toBe(false);
      }
    }
  }, 240_000);

  it('the Sync section and the chat page\'s indicator look designed in light and dark, and pass axe', async () => {
    const ext = await newProfile();
    const found: string[] = [];
    const check = async (page: Page, name: string, theme: string): Promise<void> => {
      await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
      await page.screenshot({ path: `test-results/screens/${theme}-${name}.png` });
      const result = await new AxeBuilder({ page }).analyze();
      for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) found.push(`${theme} ${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    };
    const setTheme = async (theme: string): Promise<void> => {
      await (await ext.worker()).evaluate(`chrome.storage.local.get('settings').then(({ settings }) => chrome.storage.local.set({ settings: { ...settings, appearance: { ...settings.appearance, theme: ${JSON.stringify(theme)} } } }))`);
    };
    // Before setup: the form, tested, waiting for the passphrase (this storage has data already).
    for (const theme of ['light', 'dark']) {
      await setTheme(theme);
      const options = await fillSync(ext, server);
      const section = options.getByRole('region', { name: 'Sync' });
      await expect.poll(() => options.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await section.getByText('Synced data found here', { exact: false }).waitFor();
      await section.scrollIntoViewIfNeeded();
      await check(options, 'options-sync-setup', theme);
      if (theme === 'dark') {
        await section.getByLabel('Encryption passphrase').fill(PASSPHRASE);
        await section.getByRole('button', { name: 'Start syncing' }).click();
        await expect.poll(async () => (await storedStatus(ext))?.state, { timeout: 30_000 }).toBe('idle');
      }
      await options.close();
    }
    // Syncing: the section's status and actions, and the chat page's indicator.
    for (const theme of ['light', 'dark']) {
      await setTheme(theme);
      const options = await ext.open('options.html#sync');
      await options.setViewportSize({ width: 1100, height: 900 });
      await expect.poll(() => options.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await options.getByRole('region', { name: 'Sync' }).getByRole('status', { name: 'Sync status' }).filter({ hasText: /^Synced/ }).waitFor();
      await options.getByRole('region', { name: 'Sync' }).scrollIntoViewIfNeeded();
      await check(options, 'options-sync-on', theme);
      await options.close();
      const chat = await openChatPage(ext);
      await chat.getByRole('status', { name: 'Sync status' }).filter({ hasText: /Synced/ }).waitFor();
      await check(chat, 'chat-page-sync-indicator', theme);
      await chat.close();
    }
    expect(found).toEqual([]);
  }, 120_000);
  it('"Change passphrase" in one profile re-encrypts its files; the other pauses, says why, and goes on where it stopped once the new passphrase is entered there', async () => {
    const NEW = 'a new passphrase for both';
    const laptop = await newProfile();
    const desktop = await newProfile();
    const laptopOptions = await setUpSync(laptop, server, PASSPHRASE, false);
    const desktopOptions = await setUpSync(desktop, server, PASSPHRASE, false);
    const section = laptopOptions.getByRole('region', { name: 'Sync' });
    await section.getByRole('button', { name: 'Change passphrase' }).click();
    const dialog = laptopOptions.getByRole('dialog', { name: 'Change the encryption passphrase?' });
    await dialog.getByLabel('Current passphrase').fill(PASSPHRASE);
    await dialog.getByLabel('New passphrase', { exact: true }).fill(NEW);
    await dialog.getByLabel('Confirm new passphrase').fill(NEW);
    await dialog.evaluate((d) => Promise.all(d.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => undefined))));
    await laptopOptions.screenshot({ path: 'test-results/screens/light-options-sync-change-passphrase.png' });
    const axe = await new AxeBuilder({ page: laptopOptions }).include('[role="dialog"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await dialog.getByRole('button', { name: 'Change passphrase' }).click();
    await section.getByText('The passphrase was changed.', { exact: false }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await storedStatus(laptop))?.state, { timeout: 30_000 }).toBe('idle');
    // A turn sent on the laptop after the change.
    const laptopChat = await openChatPage(laptop);
    await laptopChat.getByRole('button', { name: 'New chat' }).first().click();
    await send(laptopChat, 'Sent after the passphrase changed MARKER-5d1e');
    await lastReply(laptopChat).getByText('Echo: Sent after the passphrase changed MARKER-5d1e').waitFor();
    expect((await syncNow(laptop, laptopOptions)).state).toBe('idle');

    // The desktop cannot open the laptop's files any more: paused, with why.
    expect(await syncNow(desktop, desktopOptions)).toMatchObject({ state: 'paused', code: 'passphrase_changed' });
    const desktopSection = desktopOptions.getByRole('region', { name: 'Sync' });
    await desktopSection.getByRole('status', { name: 'Sync status' }).filter({ hasText: 'Sync paused: the encryption passphrase was changed on another device' }).waitFor();
    const note = desktopSection.getByRole('note');
    await note.getByLabel('Encryption passphrase').fill(PASSPHRASE);
    await note.getByRole('button', { name: 'Unlock' }).click();
    await note.getByRole('alert').filter({ hasText: 'That is an earlier passphrase of this storage' }).waitFor({ timeout: 30_000 });
    await desktopOptions.screenshot({ path: 'test-results/screens/light-options-sync-unlock.png' });
    await note.getByLabel('Encryption passphrase').fill(NEW);
    await note.getByRole('button', { name: 'Unlock' }).click();
    await expect.poll(async () => (await storedStatus(desktop))?.state, { timeout: 60_000 }).toBe('idle');
    const desktopChat = await openChatPage(desktop);
    await expect.poll(async () => (await titles(desktopChat)).some((t) => t.includes('Sent after the passphrase changed')), { timeout: 20_000 }).toBe(true);
  }, 240_000);
});

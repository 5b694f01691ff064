/**
 * The workspace at size and its settings (issue 11): a long conversation drawn a screen at a
 * time and opened at a search result far up, the side panel's search, presets from the options page, the catalogue
 * fetched once for every view of a page, and exporting conversations picked one by one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { benchHistory, plantedAt, RARE_WORD } from '../bench/history-fixture';
import { clearConversations, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
});

const chatPage = (): Promise<Page> => openChatPage(env.ext);

const LONG = 300;
const LONG_TITLE = 'A long conversation about everything';

async function importLongHistory(page: Page): Promise<ReturnType<typeof benchHistory>> {
  const history = benchHistory(4, 6, LONG);
  const file = resolve(import.meta.dirname, '../../test-results/long-history.json');
  writeFileSync(file, history.text);
  await page.getByLabel('History file to import').setInputFiles(file);
  await expect.poll(() => page.getByRole('dialog').getByRole('status').textContent(), { timeout: 30_000 }).toContain('Imported 4 conversations');
  await page.getByRole('button', { name: 'Close' }).click();
  return history;
}

/** Whether an element is drawn, inside the history's visible box. */
async function inView(page: Page, selector: string): Promise<boolean> {
  if ((await page.locator(selector).count()) === 0) return false;
  const [box, log] = await Promise.all([page.locator(selector).boundingBox(), page.getByRole('log', { name: 'Chat history' }).boundingBox()]);
  return box !== null && log !== null && box.y + box.height > log.y && box.y < log.y + log.height;
}

describe('a long conversation', () => {
  it(`of ${LONG} messages is drawn a screen at a time, scrolls end to end, and opens at a search result far up`, async () => {
    const page = await chatPage();
    const history = await importLongHistory(page);
    await page.getByRole('button', { name: LONG_TITLE, exact: true }).click();
    // Opened at its newest message, with only a screenful (and a few more) drawn.
    await page.locator(`[data-message-id="${history.longLast}"]`).waitFor();
    await expect.poll(() => inView(page, `[data-message-id="${history.longLast}"]`)).toBe(true);
    const drawn = await page.locator('[role="log"] [data-message-id]').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(40);
    // Home goes to the very first message.
    await page.getByRole('log', { name: 'Chat history' }).focus();
    await page.keyboard.press('Home');
    await expect.poll(() => inView(page, `[data-message-id="${history.longFirst}"]`)).toBe(true);
    // A word from a reply a third of the way in: the result opens there, marked.
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill(RARE_WORD);
    await page.getByRole('list', { name: 'Search results' }).getByRole('button').filter({ hasText: LONG_TITLE }).click();
    const target = `[data-message-id="bench-long-m${plantedAt(LONG)}"]`;
    await expect.poll(() => inView(page, target)).toBe(true);
    await expect.poll(() => page.locator(target).getAttribute('class')).toContain('found');
    expect(await page.locator(target).textContent()).toContain(RARE_WORD);
    // End goes back to the newest.
    await page.getByRole('log', { name: 'Chat history' }).focus();
    await page.keyboard.press('End');
    await expect.poll(() => inView(page, `[data-message-id="${history.longLast}"]`)).toBe(true);
  });
});

describe('presets', () => {
  it('made in the options page, start a conversation with their prompt, parameters and model; the conversation keeps them', async () => {
    const options = await env.ext.open('options.html');
    const section = options.getByRole('region', { name: 'Presets' });
    await section.getByRole('button', { name: 'Add preset' }).click();
    const preset = section.getByRole('group', { name: 'Preset 1' });
    await preset.getByRole('textbox', { name: 'Name' }).fill('Pirate');
    await preset.getByRole('textbox', { name: 'System prompt' }).fill('Talk like a pirate.');
    await preset.getByRole('textbox', { name: 'Temperature' }).fill('0.4');
    await preset.getByRole('textbox', { name: 'Model' }).fill('summarise-1');
    await section.getByRole('button', { name: 'Save presets' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Presets saved.');

    const page = await chatPage();
    await page.getByRole('combobox', { name: 'Preset' }).selectOption({ label: 'Pirate' });
    await expect.poll(() => page.getByRole('combobox', { name: 'Model' }).inputValue()).toBe('summarise-1');
    await send(page, 'ahoy');
    await expect.poll(() => page.locator('[data-status="streaming"]').count()).toBe(0);
    const body = env.gateway.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.body as { model: string; temperature: number; messages: { role: string; content: string }[] };
    expect(body.model).toBe('summarise-1');
    expect(body.temperature).toBe(0.4);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Talk like a pirate.' });
    // Its own settings show the preset's prompt.
    await page.getByRole('button', { name: 'Conversation settings' }).click();
    await expect.poll(() => page.getByRole('dialog').getByRole('textbox', { name: 'System prompt' }).inputValue()).toBe('Talk like a pirate.');
  });
});

describe('the side panel', () => {
  it("searches every conversation too (its index opens on the first search) and opens a result at its message", async () => {
    const popup = await env.ext.open('popup.html');
    await send(popup, 'Notes on the okapi');
    await expect.poll(() => popup.locator('[data-status="streaming"]').count()).toBe(0);
    await popup.close();
    const panel = await env.ext.open('sidepanel.html');
    await panel.setViewportSize({ width: 400, height: 700 });
    await panel.getByRole('tab', { name: 'Conversations' }).click();
    await panel.getByRole('searchbox', { name: 'Search conversations' }).fill('okap');
    const results = panel.getByRole('list', { name: 'Search results' });
    await expect.poll(() => results.locator('mark').first().textContent()).toMatch(/okap/i);
    await results.getByRole('button').first().click();
    await expect.poll(() => panel.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => panel.getByRole('article', { name: 'Assistant message' }).first().textContent()).toContain('Echo: Notes on the okapi');
  });
});

describe('the catalogue', () => {
  it('is fetched once for the side panel, however many of its views show it', async () => {
    const panel = await env.ext.open('sidepanel.html');
    await panel.getByRole('combobox', { name: 'Model' }).waitFor();
    await panel.getByRole('tab', { name: 'Catalogue' }).click();
    await panel.getByRole('searchbox', { name: 'Search models' }).waitFor();
    await expect.poll(() => panel.getByLabel('Model count').textContent()).toMatch(/of \d+ models/);
    await panel.getByRole('tab', { name: 'Chat' }).click();
    await panel.getByRole('combobox', { name: 'Model' }).click();
    await panel.waitForTimeout(300);
    expect(env.gateway.requests.filter((r) => r.path === '/v1/models')).toHaveLength(1);
  });
});

describe('export', () => {
  it('of conversations picked one by one holds just those', async () => {
    const page = await chatPage();
    for (const text of ['first topic', 'second topic', 'third topic']) {
      await page.getByRole('button', { name: 'New conversation' }).first().click();
      await send(page, text);
      await expect.poll(() => page.locator('[data-status="streaming"]').count()).toBe(0);
    }
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('radio', { name: 'Conversations I choose' }).check();
    const list = page.getByRole('list', { name: 'Conversations to export' });
    await list.getByRole('checkbox', { name: 'first topic' }).check();
    await list.getByRole('checkbox', { name: 'third topic' }).check();
    await expect.poll(() => page.getByRole('dialog').getByRole('status').textContent()).toBe('2 conversations chosen');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const file = resolve(import.meta.dirname, '../../test-results/chosen-export.json');
    await download.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { conversations: { conversation: { title: string } }[] };
    expect(exported.conversations.map((c) => c.conversation.title).sort()).toEqual(['first topic', 'third topic']);
  });
});

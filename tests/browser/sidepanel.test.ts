/**
 * The side panel (sidepanel.html in a tab, plus one smoke test of the real panel): catalogue
 * search and filters, the default model, a withdrawn model, conversations kept going, renamed,
 * deleted and restored, live updates from another surface, and images.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chooseModel, clearConversations, profileFor, resetSettings, lastReply, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();


beforeEach(() => {
  env.gateway.reset();
});

async function setUp(extra: Record<string, unknown> = {}): Promise<void> {
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, extra));
}

async function panel(): Promise<Page> {
  const page = await env.ext.open('sidepanel.html');
  await page.setViewportSize({ width: 420, height: 900 });
  await page.getByRole('tablist', { name: 'Side panel' }).waitFor();
  return page;
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();
const count = (page: Page) => page.getByLabel('Model count').textContent();
const rows = (page: Page) => page.getByRole('list', { name: 'Models' }).getByRole('listitem');

async function storedProfile(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate(async () => {
    const chrome = (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<{ settings: { profiles: Record<string, unknown>[] } }> } } } }).chrome;
    return (await chrome.storage.local.get('settings')).settings.profiles[0]!;
  });
}

describe('catalogue', () => {
  it('search as you type, interface, capability and owner filters, sort; the count follows', async () => {
    await setUp();
    const page = await panel();
    await tab(page, 'Catalogue');
    await expect.poll(() => count(page)).toBe('12 of 12 models');
    await page.getByRole('searchbox', { name: 'Search models' }).fill('vis');
    await expect.poll(() => count(page)).toBe('1 of 12 models');
    await expect(rows(page).first().getAttribute('aria-label')).resolves.toBe('vision-1');
    // Fuzzy: letters in order.
    await page.getByRole('searchbox', { name: 'Search models' }).fill('rsn1');
    await expect.poll(() => rows(page).first().getAttribute('aria-label')).toBe('reasoner-1');
    await page.getByRole('searchbox', { name: 'Search models' }).fill('');

    await page.getByRole('checkbox', { name: 'Image input' }).check();
    await expect.poll(() => count(page)).toBe('4 of 12 models');
    await page.getByRole('checkbox', { name: 'Image input' }).uncheck();
    await page.getByRole('checkbox', { name: 'Responses' }).check();
    await expect.poll(() => count(page)).toBe('4 of 12 models');
    await page.getByRole('checkbox', { name: 'Responses' }).uncheck();
    // By interface: the models the gateway serves through Anthropic's Messages, then Gemini's.
    await page.getByRole('group', { name: 'Interfaces' }).getByRole('checkbox', { name: 'Anthropic' }).check();
    await expect.poll(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(['claude-ref-1', 'vision-1']);
    await page.getByRole('checkbox', { name: 'Anthropic' }).uncheck();
    await page.getByRole('checkbox', { name: 'Gemini' }).check();
    await expect.poll(() => rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual(['gemini-2.5-flash-image', 'gemini-ref-1', 'vision-1']);
    await page.getByRole('checkbox', { name: 'Gemini' }).uncheck();

    await page.getByRole('combobox', { name: 'Owner' }).selectOption('reference-labs');
    await expect.poll(() => count(page)).toBe('2 of 12 models');
    await expect(rows(page).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).resolves.toEqual(['reasoner-1', 'responses-only-1']);
    await page.getByRole('combobox', { name: 'Owner' }).selectOption('');
    await page.getByRole('combobox', { name: 'Sort by' }).selectOption('owner');
    await expect.poll(() => rows(page).first().getAttribute('aria-label')).toBe('echo-1');

    // Badges and the link to prices.
    const vision = page.getByRole('listitem', { name: 'vision-1' });
    await expect(vision.textContent()).resolves.toContain('image input');
    // Each model's interfaces as badges, the preferred one first.
    const interfaces = (id: string) => page.getByRole('listitem', { name: id }).getByRole('group', { name: 'Interfaces, the preferred first' }).locator('.badge').allTextContents();
    await expect(interfaces('vision-1')).resolves.toEqual(['chat', 'responses', 'anthropic', 'gemini']);
    await page.getByRole('searchbox', { name: 'Search models' }).fill('ref-1');
    await expect.poll(() => interfaces('claude-ref-1')).toEqual(['anthropic', 'chat']);
    await expect(page.getByRole('listitem', { name: 'claude-ref-1' }).locator('.badge', { hasText: 'anthropic' }).getAttribute('title')).resolves.toBe('Preferred interface: Anthropic Messages');
    await expect(page.getByRole('link', { name: 'Prices and details' }).getAttribute('href')).resolves.toBe(`${env.gateway.siteUrl}/models`);
    await page.close();
  });

  it('a catalogue that cannot be fetched says why and what to do, never an empty list in silence', async () => {
    await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, 'sk-wrong-key-000000000000000000000'));
    const page = await panel();
    await tab(page, 'Catalogue');
    const alert = page.getByRole('alert').filter({ hasText: 'The API key was rejected' });
    await alert.waitFor();
    await expect(alert.getByRole('link', { name: 'Keys page' }).getAttribute('href')).resolves.toBe(`${env.gateway.siteUrl}/keys`);
    await expect(count(page)).resolves.toBe('0 of 0 models');
    await page.close();
  });

  it('choosing the default model and the model for right-click actions', async () => {
    await setUp();
    const page = await panel();
    await tab(page, 'Catalogue');
    const row = page.getByRole('listitem', { name: 'summarise-1' });
    await row.getByRole('button', { name: 'Actions for summarise-1' }).click();
    await page.getByRole('menuitem', { name: 'Use as default' }).click();
    await page.getByRole('status').filter({ hasText: 'summarise-1 is now the default model.' }).waitFor();
    await expect.poll(async () => (await storedProfile(page)).defaultModel).toBe('summarise-1');
    await page.getByRole('listitem', { name: 'reasoner-1' }).getByRole('button', { name: 'Actions for reasoner-1' }).click();
    await page.getByRole('menuitem', { name: 'Use for right-click actions' }).click();
    await expect.poll(async () => (await storedProfile(page)).actionModel).toBe('reasoner-1');
    await tab(page, 'Chat');
    await expect(page.getByRole('combobox', { name: 'Model' }).inputValue()).resolves.toBe('summarise-1');
    await page.close();
  });

  it('a withdrawn model: marked where it is used, and using it gives the remedy and a way out', async () => {
    await setUp({ defaultModel: 'legacy-1' });
    const page = await panel();
    await send(page, 'old model please');
    await lastReply(page).getByText('Legacy: old model please').waitFor();
    env.gateway.withdraw('legacy-1');
    await tab(page, 'Catalogue');
    await page.getByRole('button', { name: 'Refresh models' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your default model legacy-1 is not in the catalogue any more' }).waitFor();
    await tab(page, 'Conversations');
    await page.getByRole('listitem', { name: 'old model please' }).getByText('model withdrawn').waitFor();
    await tab(page, 'Chat');
    await expect(page.getByRole('combobox', { name: 'Model' }).inputValue()).resolves.toBe('legacy-1');
    await page.getByRole('combobox', { name: 'Model' }).click();
    await page.getByRole('option', { name: 'legacy-1 (not in the catalogue)' }).waitFor();
    await expect(page.getByRole('option', { name: 'legacy-1 (not in the catalogue)' }).count()).resolves.toBe(1);
    await page.keyboard.press('Escape');
    await send(page, 'again');
    const alert = lastReply(page).getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('Copy the model ID again from the catalogue');
    await page.getByRole('button', { name: 'Choose another model' }).click();
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe('Model');
    await chooseModel(page, 'echo-1');
    await page.getByRole('button', { name: 'Retry' }).click();
    await lastReply(page).getByText('Echo: again').waitFor();
    await page.close();
  });
});

describe('conversations', () => {
  it('continue, rename, delete and undo; a conversation from another surface appears live', async () => {
    await setUp();
    const page = await panel();
    await tab(page, 'Conversations');
    await expect.poll(() => page.getByLabel('Conversation count').textContent()).toBe('0 conversations');

    // Another surface (the popup) starts a conversation: the list shows it without a reload.
    const popup = await env.ext.open('popup.html');
    await send(popup, 'from the popup');
    await lastReply(popup).getByText('Echo: from the popup').waitFor();
    await popup.close();
    const item = page.getByRole('listitem', { name: 'from the popup' });
    await item.waitFor();
    await expect(item.textContent()).resolves.toContain('echo-1');

    // Continue it here.
    await item.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'User message' }).first().textContent()).toBe('from the popup');
    await send(page, 'and from the panel');
    await lastReply(page).getByText('Echo: and from the panel').waitFor();
    await expect.poll(() => page.getByRole('article').count()).toBe(4);

    // Rename.
    await tab(page, 'Conversations');
    await page.getByRole('listitem', { name: 'from the popup' }).getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Conversation title' }).fill('Renamed chat');
    await page.getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('listitem', { name: 'Renamed chat' }).waitFor();

    // Delete, then undo.
    await page.getByRole('listitem', { name: 'Renamed chat' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted “Renamed chat”.' }).waitFor();
    await expect.poll(() => page.getByRole('listitem', { name: 'Renamed chat' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('listitem', { name: 'Renamed chat' }).waitFor();
    await page.getByRole('listitem', { name: 'Renamed chat' }).getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => page.getByRole('article').count()).toBe(4);
    await page.close();
  });

  it('the chat page: a conversation started there and deleted from its rail while open leaves nothing behind', async () => {
    await setUp();
    const page = await env.ext.open('chat.html');
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.getByRole('button', { name: 'New chat' }).first().click();
    await send(page, 'here and gone');
    await lastReply(page).getByText('Echo: here and gone').waitFor();
    const rail = page.getByRole('navigation', { name: 'Conversations' });
    await rail.getByRole('listitem', { name: 'here and gone' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('article').count()).toBe(0);
    await page.close();
  });
});

describe('images', () => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

  it('an image to an image-capable model', async () => {
    await setUp({ defaultModel: 'vision-1' });
    const page = await panel();
    // Attaching opens once the catalogue says the model takes images.
    await expect.poll(() => page.getByLabel('Attach image', { exact: true }).isEnabled()).toBe(true);
    await page.getByLabel('Attach image', { exact: true }).setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('img', { name: 'Attached image 1' }).waitFor();
    await send(page, 'what is this?');
    await lastReply(page).getByText(`I received 1 image(s) (image 1: image/png, ${png.length} bytes). You said: what is this?`).waitFor();
    await expect(page.getByRole('article', { name: 'User message' }).getByRole('img', { name: 'Attached image 1' }).count()).resolves.toBe(1);
    await page.close();
  });

  it('a text-only model: the attach control is off and says why', async () => {
    await setUp({ defaultModel: 'echo-1' });
    const page = await panel();
    await expect(page.getByLabel('Attach image', { exact: true }).isDisabled()).resolves.toBe(true);
    // Why, on the attach button's tooltip (no standing paragraph under the composer).
    await page.locator('label', { has: page.getByLabel('Attach image', { exact: true }) }).hover();
    await page.getByRole('tooltip').filter({ hasText: "Images are off: the gateway's catalogue lists echo-1 as text-only." }).waitFor();
    await expect(page.getByRole('button', { name: 'Capture visible tab' }).isDisabled()).resolves.toBe(true);
    await page.close();
  });
});

describe('the real side panel', () => {
  it('"Continue in side panel" opens the panel on the same conversation', async () => {
    await setUp();
    const popup = await env.ext.open('popup.html');
    await send(popup, 'continue me');
    await lastReply(popup).getByText('Echo: continue me').waitFor();
    await popup.getByRole('button', { name: 'Continue in side panel' }).click();
    const cdp = await env.ext.context.newCDPSession(popup);
    await expect.poll(async () => {
      const { targetInfos } = await cdp.send('Target.getTargets');
      return targetInfos.some((t) => /\/sidepanel\.html\?conversation=/.test(t.url));
    }, { timeout: 10_000 }).toBe(true);
    await popup.close();
  });
});

/**
 * Images (issue 30) in the built extension, against the reference gateway: generating two
 * images at a chosen size and downloading one, editing one, a chat model's image shown and
 * sent back on the next turn, a content-policy refusal explained, and the Images view finding
 * an image by a word of its prompt. Screenshots of generated images, the options next to the
 * composer and the Images view, light and dark, at the popup's and the chat page's sizes, are
 * kept in test-results/screens.
 *
 * The gateway's images are PNGs drawn from their prompt, with a tEXt chunk `prompt` (and
 * `edit-of` for an edit, or a chat image made from one sent back): read here to tell which
 * request made which image.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { gatewayAndExtensionPerFile } from './fixture';
import { chooseModel, clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
import { readPngText } from '../gateway/png';

const env = gatewayAndExtensionPerFile();

async function setUp(theme: 'light' | 'dark' = 'light', defaultModel = 'echo-1'): Promise<void> {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel }), appearance: { theme } });
}

const posts = (path: string) => env.gateway.requests.filter((r) => r.method === 'POST' && r.path === path);
const group = (scope: Page | Locator) => scope.getByRole('group', { name: 'Generated images' }).last();

/** The images of the last reply once they are all final (no partial one left). */
async function finalImages(page: Page, count: number): Promise<Locator> {
  await idle(page);
  const images = group(lastReply(page)).getByRole('img');
  await expect.poll(() => images.count(), { timeout: 20_000 }).toBe(count);
  await expect.poll(() => group(lastReply(page)).getByText('Partial').count()).toBe(0);
  // Each drawn (an object URL of its Blob, decoded).
  await expect.poll(() => images.evaluateAll((els) => els.every((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0 && (el as HTMLImageElement).src.startsWith('blob:')))).toBe(true);
  return images;
}

/** Clicks "Download image" on the `index`th image of the last reply: the file's name and bytes. */
async function download(page: Page, index = 0): Promise<{ name: string; bytes: Uint8Array }> {
  const [file] = await Promise.all([page.waitForEvent('download'), group(lastReply(page)).getByRole('button', { name: 'Download image' }).nth(index).click()]);
  return { name: file.suggestedFilename(), bytes: new Uint8Array(readFileSync((await file.path())!)) };
}

async function generate(page: Page, prompt: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(prompt);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
}

describe('images', () => {
  it('generates two images at a chosen size; "Download image" saves a PNG; one is edited', async () => {
    await setUp();
    const page = await openChatPage(env.ext);
    await chooseModel(page, 'gpt-image-1');
    const options = page.getByRole('group', { name: 'Image options' });
    await options.getByRole('combobox', { name: 'Size' }).selectOption('1536x1024');
    await options.getByRole('combobox', { name: 'Number of images' }).selectOption('2');
    await generate(page, 'a red fox in the snow');

    const images = await finalImages(page, 2);
    expect(await images.evaluateAll((els) => els.map((el) => el.getAttribute('alt')))).toEqual(['a red fox in the snow', 'a red fox in the snow']);
    expect(await images.evaluateAll((els) => els.map((el) => `${(el as HTMLImageElement).naturalWidth}x${(el as HTMLImageElement).naturalHeight}`))).toEqual(['1536x1024', '1536x1024']);
    const asked = posts('/v1/images/generations');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.body).toMatchObject({ model: 'gpt-image-1', prompt: 'a red fox in the snow', size: '1536x1024', n: 2 });
    // No chat request was made for it.
    expect(posts('/v1/chat/completions')).toHaveLength(0);
    // Never base64 in the page: the text holds no image data.
    expect(await lastReply(page).textContent()).not.toContain('base64');

    const saved = await download(page);
    expect(saved.name).toBe('a-red-fox-in-the-snow.png');
    expect(readPngText(saved.bytes).prompt).toBe('a red fox in the snow');

    // Edit the second one (one image this time): the composer holds it, and the gateway gets a multipart edit with it.
    await group(lastReply(page)).getByRole('button', { name: 'Edit this image' }).nth(1).click();
    await options.getByRole('combobox', { name: 'Number of images' }).selectOption('1');
    await page.getByRole('img', { name: 'Image to edit: a red fox in the snow' }).waitFor();
    await generate(page, 'make the fox blue');
    await finalImages(page, 1);
    const edits = posts('/v1/images/edits');
    expect(edits).toHaveLength(1);
    const form = edits[0]?.body as Record<string, unknown>;
    expect(form).toMatchObject({ model: 'gpt-image-1', prompt: 'make the fox blue' });
    const file = (form.image ?? form['image[]']) as { type?: string; bytes?: number } | undefined;
    expect(file?.type).toBe('image/png');
    expect(file?.bytes).toBeGreaterThan(0);
    const edited = await download(page);
    expect(edited.name).toBe('make-the-fox-blue.png');
    const text = readPngText(edited.bytes);
    expect(text.prompt).toBe('make the fox blue');
    expect(text['edit-of']).toBeTruthy();
    // The question shows the image it edits.
    await page.getByRole('article', { name: 'User message' }).last().getByRole('img', { name: 'Image to edit: a red fox in the snow' }).waitFor();
    await page.close();
  });

  // The catalogue lists Gemini's interface first for this model (as new-api does), so the reply
  // comes through it (`inlineData`); a gateway that does not serve that route is asked through
  // Chat Completions instead, where the image is a data URI inside the text.
  for (const route of ['gemini', 'chat'] as const) {
    it(`a chat model's image is shown in the reply and sent back on the next turn (${route === 'gemini' ? 'Gemini\'s interface' : 'Chat Completions'})`, async () => {
      await setUp();
      if (route === 'chat') env.gateway.setUnserved(['gemini']);
      const page = await openChatPage(env.ext);
      await chooseModel(page, 'gemini-2.5-flash-image');
      await send(page, 'draw a blue whale');
      const images = await finalImages(page, 1);
      expect(await images.first().getAttribute('alt')).toBe('draw a blue whale');
      const reply = await lastReply(page).textContent();
      expect(reply).not.toContain('gc-image');
      expect(reply).not.toContain('base64');

      await send(page, 'now make it green');
      await finalImages(page, 1);
      const asked = env.gateway.requests.filter((r) => r.method === 'POST'
        && (route === 'chat' ? r.path === '/v1/chat/completions' : r.path.startsWith('/v1beta/models/gemini-2.5-flash-image:')));
      expect(asked).toHaveLength(2);
      // The first reply's image went back in the assistant's turn: a data URI in its text, or Gemini's inlineData.
      const history = JSON.stringify(asked[1]?.body);
      expect(history).toContain(route === 'chat' ? 'data:image/png;base64,' : '"inlineData"');
      const saved = await download(page);
      expect(readPngText(saved.bytes)['edit-of']).toBeTruthy();
      await page.close();
    });
  }

  it('a content-policy refusal is explained, with what to do', async () => {
    await setUp();
    const page = await openChatPage(env.ext);
    await chooseModel(page, 'gpt-image-1');
    await generate(page, 'something forbidden');
    await idle(page);
    const alert = lastReply(page).locator('[data-error-kind="content_blocked"]');
    await alert.waitFor();
    const words = await alert.textContent();
    expect(words).toContain('safety system refused this prompt');
    expect(words).toContain('Reword the prompt');
    expect(await group(lastReply(page)).getByRole('img').count()).toBe(0);
    await page.close();
  });

  it('the Images view finds an image by a word of its prompt, and opens its conversation', async () => {
    await setUp('light', 'gpt-image-1');
    const page = await openChatPage(env.ext);
    await generate(page, 'an old lighthouse at dusk');
    await finalImages(page, 1);
    await page.getByRole('button', { name: 'New chat' }).click();
    await generate(page, 'a green parrot on a branch');
    await finalImages(page, 1);

    await page.getByRole('button', { name: 'Images', exact: true }).click();
    const list = page.getByRole('list', { name: 'Generated images, newest first' });
    await expect.poll(() => list.getByRole('img').evaluateAll((els) => els.map((el) => el.getAttribute('alt')))).toEqual(['a green parrot on a branch', 'an old lighthouse at dusk']);
    await page.getByRole('searchbox', { name: 'Search images' }).fill('LIGHTHOUSE');
    await expect.poll(() => list.getByRole('img').evaluateAll((els) => els.map((el) => el.getAttribute('alt')))).toEqual(['an old lighthouse at dusk']);
    await list.getByRole('button', { name: /an old lighthouse at dusk/ }).click();
    // Its conversation is open, at the reply that made it.
    const shown = group(lastReply(page)).getByRole('img', { name: 'an old lighthouse at dusk' });
    await shown.waitFor();
    expect(await page.getByRole('article', { name: 'User message' }).last().textContent()).toContain('an old lighthouse at dusk');
    await page.close();
  });

  it('in Chinese: the options, Generate, the group and its actions have Chinese names (no English left)', async () => {
    env.gateway.reset();
    await clearConversations(env.ext);
    await resetSettings(env.ext, { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, { defaultModel: 'gpt-image-1' }), appearance: { theme: 'light', language: 'zh-CN' } });
    const popup = await env.ext.open('popup.html');
    await popup.setViewportSize({ width: 400, height: 600 });
    const options = popup.getByRole('group', { name: '图片选项' });
    await options.getByRole('combobox', { name: '尺寸' }).selectOption('1024x1024');
    await options.getByRole('combobox', { name: '图片数量' }).selectOption('2');
    await popup.getByRole('textbox', { name: '消息', exact: true }).fill('池塘上的纸船');
    await popup.getByRole('button', { name: '生成', exact: true }).click();
    const shown = popup.getByRole('group', { name: '生成的图片' }).last();
    await expect.poll(() => shown.getByRole('img', { name: '池塘上的纸船' }).count(), { timeout: 20_000 }).toBe(2);
    await expect.poll(() => shown.getByRole('button', { name: '下载图片' }).count()).toBe(2);
    for (const name of ['复制图片', '编辑这张图片', '打开图片']) expect(await shown.getByRole('button', { name }).count()).toBe(2);
    await shown.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await popup.screenshot({ path: 'test-results/screens/zh-CN-popup-generated-images.png' });
    // No English word of ours in what the reply and the composer show.
    const words = `${await shown.textContent()} ${await popup.locator('form.composer-form').textContent()}`;
    expect(words).not.toMatch(/Generate|Size|Quality|Number of images|per image|Download|Partial/);
    await popup.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`looks designed in the ${theme} theme: generated images, the options next to the composer, the Images view`, async () => {
      await setUp(theme, 'gpt-image-1');
      const chat = await openChatPage(env.ext);
      await expect.poll(() => chat.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      const options = chat.getByRole('group', { name: 'Image options' });
      await options.getByRole('combobox', { name: 'Size' }).selectOption('1024x1024');
      await options.getByRole('combobox', { name: 'Number of images' }).selectOption('2');
      await chat.getByRole('textbox', { name: 'Message', exact: true }).fill('a watercolour harbour at sunrise');
      await chat.screenshot({ path: `test-results/screens/${theme}-chat-page-image-options.png` });
      await chat.getByRole('button', { name: 'Generate', exact: true }).click();
      await finalImages(chat, 2);
      await chat.screenshot({ path: `test-results/screens/${theme}-chat-page-generated-images.png` });
      await chat.getByRole('button', { name: 'Images', exact: true }).click();
      await chat.getByRole('list', { name: 'Generated images, newest first' }).getByRole('img').nth(1).waitFor();
      await chat.screenshot({ path: `test-results/screens/${theme}-chat-page-images-view.png` });
      await chat.close();

      const popup = await env.ext.open('popup.html');
      await popup.setViewportSize({ width: 400, height: 600 });
      await popup.getByRole('button', { name: 'New chat' }).click();
      await popup.getByRole('group', { name: 'Image options' }).waitFor();
      await popup.getByRole('textbox', { name: 'Message', exact: true }).fill('a paper boat on a pond');
      await popup.screenshot({ path: `test-results/screens/${theme}-popup-image-options.png` });
      await popup.getByRole('button', { name: 'Generate', exact: true }).click();
      await finalImages(popup, 2);
      await group(lastReply(popup)).evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await popup.screenshot({ path: `test-results/screens/${theme}-popup-generated-images.png` });
      await popup.close();
    });
  }
});

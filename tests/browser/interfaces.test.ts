/**
 * Every interface behind the key (issue 12), driven through the chat page against the reference
 * gateway: a model that prefers Anthropic's Messages or Gemini's interface goes through it, a
 * Responses-only model works under a Chat profile, an image reaches the vision model through each
 * interface, and the key travels in each interface's own header, never in an address.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chooseModel, clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
});

const chatPage = (): Promise<Page> => openChatPage(env.ext);

const replyText = async (page: Page): Promise<string> => ((await lastReply(page).locator('.markdown').first().textContent()) ?? '').trim();
/** The gateway's requests that asked a model for a reply (not the catalogue). */
const asked = () => env.gateway.requests.filter((r) => r.method === 'POST');

/** Where every request carried the key: in a header, never in the address. */
function expectKeyOnlyInHeaders(): void {
  for (const request of env.gateway.requests) {
    expect(request.query).not.toContain(env.gateway.demoKey);
    expect(request.query).not.toMatch(/[?&]key=/);
    expect(request.path).not.toContain(env.gateway.demoKey);
  }
}

describe('each model through its preferred interface', () => {
  it('a model that prefers Anthropic\'s interface streams through /v1/messages with x-api-key; its thinking is shown and sent back signed', async () => {
    const page = await chatPage();
    await chooseModel(page, 'claude-ref-1');
    await send(page, 'first question');
    await expect.poll(() => replyText(page)).toBe('Claude: first question');
    await idle(page);
    expect(asked().at(-1)).toMatchObject({ path: '/v1/messages', keyIn: 'x-api-key', anthropicVersion: '2023-06-01', query: '' });
    await expect(lastReply(page).textContent()).resolves.toContain('Considering 2 words.');

    await send(page, 'second question');
    await expect.poll(() => replyText(page)).toBe('Claude: second question');
    const body = asked().at(-1)?.body as { messages: { role: string; content: unknown }[]; max_tokens: number };
    expect(body.max_tokens).toBeGreaterThan(0);
    expect(body.messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'thinking', thinking: 'Considering 2 words.' }, { type: 'text', text: 'Claude: first question' }] });
    expectKeyOnlyInHeaders();
  });

  it('a model that prefers Gemini\'s streams through streamGenerateContent with x-goog-api-key; thoughts are reasoning', async () => {
    const page = await chatPage();
    await chooseModel(page, 'gemini-ref-1');
    await send(page, 'why blue');
    await expect.poll(() => replyText(page)).toBe('Gemini: why blue');
    await idle(page);
    expect(asked().at(-1)).toMatchObject({ path: '/v1beta/models/gemini-ref-1:streamGenerateContent', query: '?alt=sse', keyIn: 'x-goog-api-key' });
    await expect(lastReply(page).textContent()).resolves.toContain('Thinking about: why blue');
    expectKeyOnlyInHeaders();
  });

  it('a Responses-only model works under a Chat Completions profile', async () => {
    const page = await chatPage();
    await chooseModel(page, 'responses-only-1');
    await send(page, 'hello there');
    await expect.poll(() => replyText(page)).toBe('Responses: hello there');
    await idle(page);
    expect(asked().at(-1)).toMatchObject({ path: '/v1/responses', keyIn: 'authorization' });
    await expect(lastReply(page).getAttribute('data-status')).resolves.toBe('complete');
  });
});

describe('an image through each interface', () => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

  it('the vision model gets the image whichever interface the conversation chooses, with the key in that interface\'s header', async () => {
    const page = await chatPage();
    await chooseModel(page, 'vision-1');
    await send(page, 'hello');
    await expect.poll(() => replyText(page)).toBe('No image received. You said: hello');
    await idle(page);

    const ways = [
      { option: 'Chat Completions', path: '/v1/chat/completions', keyIn: 'authorization' },
      { option: 'Responses API', path: '/v1/responses', keyIn: 'authorization' },
      { option: 'Anthropic Messages', path: '/v1/messages', keyIn: 'x-api-key' },
      { option: 'Gemini', path: '/v1beta/models/vision-1:streamGenerateContent', keyIn: 'x-goog-api-key' },
    ];
    for (const [n, way] of ways.entries()) {
      await page.getByRole('button', { name: 'Conversation settings' }).click();
      await page.getByRole('combobox', { name: 'API interface' }).selectOption({ label: way.option });
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await expect.poll(() => page.getByLabel('Attach image', { exact: true }).isEnabled()).toBe(true);
      await page.getByLabel('Attach image', { exact: true }).setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
      // Attached in the composer, beside the earlier ones shown in their messages.
      await expect.poll(() => page.getByRole('img', { name: 'Attached image 1' }).count()).toBe(n + 1);
      await send(page, `image ${n}`);
      await expect.poll(() => replyText(page)).toBe(`I received 1 image(s) (image 1: image/png, ${png.length} bytes). You said: image ${n}`);
      await idle(page);
      expect(asked().at(-1)).toMatchObject({ path: way.path, keyIn: way.keyIn, key: env.gateway.demoKey });
    }
    expectKeyOnlyInHeaders();
  });
});

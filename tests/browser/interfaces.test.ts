/**
 * Every interface behind the key (issue 12), driven through the chat page against the reference
 * gateway: a model that prefers Anthropic's Messages or Gemini's interface goes through it, a
 * Responses-only model works under a Chat profile, an image reaches the vision model through each
 * interface, and the key travels in each interface's own header, never in an address.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chooseModel, clearConversations, compareWith, idle, lastReply, openChatPage, profileFor, resetSettings, send } from './harness';
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

describe('an interface the gateway lists but does not serve (issue 28)', () => {
  const note = (reply: ReturnType<typeof lastReply>) => reply.getByRole('note').filter({ hasText: 'Sent through Chat Completions' });

  it('Anthropic\'s route answering 404: the reply arrives through Chat Completions with a quiet note; the next turn goes straight there', async () => {
    // As a new user meets it: the catalogue lists `anthropic` first for the model, the route is missing.
    env.gateway.setUnserved(['anthropic']);
    const page = await chatPage();
    await chooseModel(page, 'claude-ref-1');
    await send(page, 'first question');
    await expect.poll(() => replyText(page)).toBe('Claude: first question');
    await idle(page);
    await expect(lastReply(page).getAttribute('data-status')).resolves.toBe('complete');
    await expect.poll(() => note(lastReply(page)).textContent()).toBe('Sent through Chat Completions: this gateway does not serve the Anthropic Messages interface.');
    expect(await lastReply(page).getByRole('alert').count()).toBe(0);
    expect(asked().map((r) => [r.path, r.key])).toEqual([['/v1/messages', env.gateway.demoKey], ['/v1/chat/completions', env.gateway.demoKey]]);

    await send(page, 'second question');
    await expect.poll(() => replyText(page)).toBe('Claude: second question');
    await idle(page);
    expect(asked().slice(2).map((r) => r.path)).toEqual(['/v1/chat/completions']);
    await expect.poll(() => note(lastReply(page)).count()).toBe(1);
    await page.screenshot({ path: 'test-results/screens/light-chat-page-rerouted.png' });
    expectKeyOnlyInHeaders();
  });

  it('in a three-model comparison every column answers, none says the address is wrong', async () => {
    env.gateway.setUnserved(['anthropic', 'gemini']);
    const page = await chatPage();
    await chooseModel(page, 'claude-ref-1');
    await compareWith(page, ['gemini-ref-1', 'echo-1']);
    await send(page, 'side by side');
    const columns = page.getByRole('region', { name: 'Replies compared' }).getByRole('article', { name: 'Assistant message' });
    await expect.poll(() => columns.count()).toBe(3);
    await idle(page);
    const answers = async () => Promise.all([0, 1, 2].map(async (i) => [
      ((await columns.nth(i).locator('.markdown').first().textContent().catch(() => '')) ?? '').trim(),
      await columns.nth(i).getAttribute('data-status'),
    ]));
    await expect.poll(answers).toEqual([['Claude: side by side', 'complete'], ['Gemini: side by side', 'complete'], ['Echo: side by side', 'complete']]);
    await expect(page.getByText('The gateway address is wrong').count()).resolves.toBe(0);
    await expect.poll(() => note(columns.nth(0)).count()).toBe(1);
    await expect.poll(() => note(columns.nth(1)).count()).toBe(1);
    expect(await note(columns.nth(2)).count()).toBe(0);
    await page.screenshot({ path: 'test-results/screens/light-chat-page-compare-rerouted.png' });
  });
});

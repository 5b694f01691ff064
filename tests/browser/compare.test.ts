/**
 * Compare (issue 14): one message to several reference-gateway models at once, their replies
 * side by side, each its own run (requests overlapping at the gateway), a failure kept to its
 * column, "Continue with this one", and nothing lost when the panel closes mid-compare.
 */
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearConversations, compareWith, idle, openChatPage, profileFor, resetSettings, send } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
});

const ADD = 'Add a model to compare';
/** Adds a model to the comparison already open. */
const addModel = (page: Page, model: string): Promise<void> => compareWith(page, [model], undefined, false);

const compared = (page: Page) => page.getByRole('region', { name: 'Replies compared' }).getByRole('article', { name: 'Assistant message' });
const column = (page: Page, model: string) => compared(page).filter({ hasText: model });
const answer = async (page: Page, model: string): Promise<string> => ((await column(page, model).locator('.markdown').first().textContent().catch(() => '')) ?? '').trim();
const chats = () => env.gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');

describe('compare models', () => {
  it('three models answer one message side by side, concurrently; an error stays in its column with its remedy; "Continue with this one" continues with that model and keeps the others as versions', async () => {
    const page = await openChatPage(env.ext);
    await page.getByRole('button', { name: 'Compare models' }).click();
    // The model in use is compared first; two more are added.
    await page.getByRole('button', { name: 'Remove echo-1 from the comparison' }).waitFor();
    await addModel(page, 'summarise-1');
    await addModel(page, 'reasoner-1');
    env.gateway.setPace({ delayMs: 25, chunkChars: 3 });
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 3, thenDone: true }, 1, 'summarise-1');
    const question = 'Which of you explains tides best, in one short paragraph?';
    await send(page, question);

    await expect.poll(() => compared(page).count()).toBe(3);
    for (const model of ['echo-1', 'summarise-1', 'reasoner-1']) await expect(column(page, model).count()).resolves.toBe(1);
    await idle(page);
    await expect.poll(() => answer(page, 'echo-1')).toBe(`Echo: ${question}`);
    await expect.poll(() => answer(page, 'reasoner-1')).toBe(`Answer: ${[...question].reverse().join('')}`);
    // The failed one: what arrived, the gateway's error with its remedy, and its own Retry.
    const failed = column(page, 'summarise-1');
    await expect(failed.getAttribute('data-status')).resolves.toBe('error');
    await failed.getByRole('alert').waitFor();
    await failed.getByRole('button', { name: 'Retry' }).waitFor();
    await expect(failed.getByRole('button', { name: 'Continue with this one' }).count()).resolves.toBe(1);
    // Each finished column shows its usage, cost and speed.
    await expect(column(page, 'echo-1').getByLabel('Token usage').textContent()).resolves.toMatch(/\d+ in · \d+ out · cost ≈? ?\$[\d.]+ · first token \d+\.\d s/);

    // Concurrent: each request began before every other had ended.
    const asked = chats();
    expect(asked.map((r) => (r.body as { model: string }).model).sort()).toEqual(['echo-1', 'reasoner-1', 'summarise-1']);
    for (const a of asked) for (const b of asked) expect(a.time).toBeLessThan(b.endedAt ?? 0);
    await page.screenshot({ path: 'test-results/screens/light-chat-page-compare.png' });

    // Retry in the failed column asks that model again, in its place.
    env.gateway.setPace({ delayMs: 0 });
    await failed.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => column(page, 'summarise-1').getAttribute('data-status')).toBe('complete');
    expect((chats().at(-1)?.body as { model: string }).model).toBe('summarise-1');

    await column(page, 'reasoner-1').getByRole('button', { name: 'Continue with this one' }).click();
    await expect.poll(() => compared(page).count()).toBe(0);
    await expect(page.getByRole('combobox', { name: 'Model', exact: true }).inputValue()).resolves.toBe('reasoner-1');
    // The chosen reply is the conversation's answer; the others are its versions.
    const reply = page.getByRole('article', { name: 'Assistant message' }).last();
    await expect.poll(async () => (await reply.locator('.markdown').textContent())?.trim()).toBe(`Answer: ${[...question].reverse().join('')}`);
    // Four versions: the three compared, and the failed one asked again.
    await expect(page.getByRole('group', { name: 'Versions' }).last().textContent()).resolves.toMatch(/3\s*\/\s*4/);
    await page.screenshot({ path: 'test-results/screens/light-chat-page-compare-continued.png' });

    await send(page, 'and the moon?');
    await idle(page);
    const next = chats().at(-1)?.body as { model: string; messages: { content: string }[] };
    expect(next.model).toBe('reasoner-1');
    expect(next.messages.map((m) => m.content)).toEqual([question, `Answer: ${[...question].reverse().join('')}`, 'and the moon?']);
    // The first answer's versions are all still there.
    const versions = page.getByRole('group', { name: 'Versions' }).last();
    await expect(versions.textContent()).resolves.toMatch(/3\s*\/\s*4/);
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Assistant message' }).first().textContent()).toContain('2 / 4');
    await page.close();
  });

  it('the compare picker by keyboard: Alt+Shift+M opens it with its field focused, typing and Enter add a model, Alt+Shift+M closes it', async () => {
    const page = await openChatPage(env.ext);
    await page.keyboard.press('Alt+Shift+M');
    const picker = page.getByRole('combobox', { name: ADD, exact: true });
    await expect.poll(() => picker.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.type('legacy-1');
    await page.getByRole('listbox', { name: ADD }).getByRole('option', { name: 'legacy-1', exact: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Remove legacy-1 from the comparison' }).waitFor();
    await expect(page.getByRole('button', { name: 'Compare models' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await send(page, 'hello both');
    await expect.poll(() => compared(page).count()).toBe(2);
    await idle(page);
    await expect.poll(() => answer(page, 'legacy-1')).toBe('Legacy: hello both');
    // Off again by keyboard.
    await page.keyboard.press('Alt+Shift+M');
    await expect(picker.count()).resolves.toBe(0);
    await page.close();
  });

  it('closing the side panel mid-compare loses nothing: reopened, every reply is whole', async () => {
    let panel = await env.ext.open('sidepanel.html');
    await panel.setViewportSize({ width: 400, height: 800 });
    await panel.getByRole('button', { name: 'Compare models' }).click();
    await addModel(panel, 'legacy-1');
    env.gateway.setPace({ delayMs: 40, chunkChars: 2 });
    const question = 'a question long enough to still be streaming when the panel closes';
    await send(panel, question);
    await expect.poll(async () => (await answer(panel, 'echo-1')).length).toBeGreaterThan(0);
    // Stacked cards in the panel, one under the other.
    const [a, b] = await Promise.all([column(panel, 'echo-1').boundingBox(), column(panel, 'legacy-1').boundingBox()]);
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    await panel.screenshot({ path: 'test-results/screens/light-side-panel-compare.png' });
    await panel.close();

    panel = await env.ext.open('sidepanel.html');
    await panel.setViewportSize({ width: 400, height: 800 });
    await expect.poll(() => answer(panel, 'echo-1'), { timeout: 20_000 }).toBe(`Echo: ${question}`);
    await expect.poll(() => answer(panel, 'legacy-1'), { timeout: 20_000 }).toBe(`Legacy: ${question}`);
    await idle(panel);
    await expect(compared(panel).count()).resolves.toBe(2);
    await panel.close();
  });
});

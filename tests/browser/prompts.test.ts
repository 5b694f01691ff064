/**
 * Prompts anywhere (issue 14): `/` in the composer lists the actions and presets and runs one on
 * the typed text; prompts imported in the options page are there too.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { clearConversations, idle, lastReply, openChatPage, profileFor, resetSettings } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

beforeEach(async () => {
  env.gateway.reset();
  await clearConversations(env.ext);
  await resetSettings(env.ext, profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey));
});

const asked = () => env.gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
const lastQuestion = () => (asked().at(-1)?.body as { messages: { role: string; content: string }[] }).messages.at(-1)!.content;

describe('the / prompt list', () => {
  it('lists the actions; one chosen runs on the text typed after it, quoted as data', async () => {
    const page = await openChatPage(env.ext);
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('/');
    const list = page.getByRole('listbox', { name: 'Prompts' });
    await list.waitFor();
    await expect(list.getByRole('option').evaluateAll((options) => options.map((o) => o.getAttribute('aria-label')))).resolves.toEqual([
      'Summarise action', 'Explain action', expect.stringMatching(/^Translate to .+ action$/),
    ]);
    await page.screenshot({ path: 'test-results/screens/light-chat-page-prompts.png' });
    await box.pressSequentially('expl');
    await expect.poll(() => list.getByRole('option').count()).toBe(1);
    await box.press('Enter');
    await page.getByRole('button', { name: 'Remove the prompt Explain' }).waitFor();
    await box.fill('Photosynthesis turns light into sugar.');
    await box.press('Enter');
    await expect.poll(() => lastReply(page).getAttribute('data-status')).toBe('complete');
    const sent = lastQuestion();
    expect(sent.startsWith('Explain the text quoted below')).toBe(true);
    expect(sent).toContain('```text\nPhotosynthesis turns light into sugar.\n```');
    // Shown as the prompt's words and the text as a quote.
    await expect(page.getByRole('article', { name: 'User message' }).last().getByText('Photosynthesis turns light into sugar.').count()).resolves.toBe(1);

    // "/command text" in one go.
    await box.fill('/sum Tides rise and fall twice a day.');
    await list.waitFor();
    await box.press('Enter');
    await idle(page);
    await expect.poll(() => lastQuestion()).toContain('```text\nTides rise and fall twice a day.\n```');
    expect(lastQuestion().startsWith('Summarise the text quoted below')).toBe(true);
    await page.close();
  });

  it('prompts imported in the options page are offered by /; a file that is not one is refused with why', async () => {
    const options = await env.ext.open('options.html');
    const file = options.getByLabel('Prompts file to import');
    await file.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"conversations": []}') });
    await options.getByRole('alert').filter({ hasText: 'not a Gateway Chat prompts export' }).waitFor();
    const prompts = { format: 'gateway-chat-prompts', version: 1, actions: [{ id: 'shout', name: 'Shout it', template: 'SHOUT THIS: {{selection}}', enabled: true }], presets: [] };
    await file.setInputFiles({ name: 'prompts.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(prompts)) });
    await options.getByRole('status').filter({ hasText: 'Imported 1 actions and 0 presets.' }).waitFor();
    await expect(options.getByRole('list', { name: 'Actions' }).textContent()).resolves.toContain('Shout it');
    await options.close();

    const page = await openChatPage(env.ext);
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.fill('/shout quiet words');
    await page.getByRole('option', { name: 'Shout it action' }).waitFor();
    await box.press('Enter');
    await idle(page);
    await expect.poll(() => lastQuestion()).toBe('SHOUT THIS: ```text\nquiet words\n```');
    await page.close();
  });
});

/** Connection setup through the options page, typed and pasted, against the reference gateway. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseModel, resetSettings } from './harness';
import { gatewayAndExtensionPerFile } from './fixture';

const env = gatewayAndExtensionPerFile();

let page: Page;

beforeEach(async () => {
  env.gateway.reset();
  await resetSettings(env.ext, undefined);
  page = await env.ext.open('options.html');
});

const textbox = (name: string) => page.getByRole('textbox', { name, exact: true });
const button = (name: string) => page.getByRole('button', { name, exact: true });

async function storedSettings(): Promise<{ profiles: { baseUrl: string; siteUrl: string; apiKey: string; defaultModel?: string }[] }> {
  return page.evaluate(async () => {
    const chrome = (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> }; sync: { get(k: null): Promise<Record<string, unknown>> } } } }).chrome;
    return (await chrome.storage.local.get('settings')).settings as never;
  });
}

describe('options page', () => {
  it('typed: the address shows the exact endpoint, Test connection counts the models, Save stores the profile', async () => {
    await textbox('Gateway address').fill(`  ${env.gateway.siteUrl}/v1/chat/completions `);
    await expect(page.getByLabel('Endpoint').textContent()).resolves.toBe(`Requests go to ${env.gateway.baseUrl}/chat/completions`);
    await textbox('API key').fill(env.gateway.demoKey);
    await button('Test connection').click();
    await page.getByRole('status').filter({ hasText: 'Connected: 12 models available.' }).waitFor();
    // The key's balance, where the gateway tells it (issue 13).
    await page.getByRole('status').filter({ hasText: 'Balance: $2.00' }).waitFor();
    await button('Save').click();
    await page.getByRole('status').filter({ hasText: `Saved. Requests go to ${env.gateway.baseUrl} only.` }).waitFor();
    const settings = await storedSettings();
    expect(settings.profiles[0]).toMatchObject({ baseUrl: env.gateway.baseUrl, siteUrl: env.gateway.siteUrl, apiKey: env.gateway.demoKey });

    // The catalogue feeds the default model.
    await chooseModel(page, 'echo-1', 'Default model');
    await expect.poll(async () => (await storedSettings()).profiles[0]?.defaultModel).toBe('echo-1');
  });

  it('the key is masked until revealed, and never stored in sync storage', async () => {
    await textbox('Gateway address').fill(env.gateway.siteUrl);
    const key = page.getByLabel('API key', { exact: true });
    await key.fill(env.gateway.demoKey);
    await expect(key.getAttribute('type')).resolves.toBe('password');
    await button('Show key').click();
    await expect(key.getAttribute('type')).resolves.toBe('text');
    await button('Save').click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const sync = await page.evaluate(async () => (globalThis as unknown as { chrome: { storage: { sync: { get(k: null): Promise<unknown> } } } }).chrome.storage.sync.get(null));
    expect(JSON.stringify(sync)).not.toContain(env.gateway.demoKey);
  });

  it('paste to import: OPENAI_* lines fill address and key, then save', async () => {
    await textbox('Paste to import').fill(`OPENAI_BASE_URL=${env.gateway.baseUrl}\nOPENAI_API_KEY=${env.gateway.demoKey}`);
    await button('Import').click();
    await page.getByRole('status').filter({ hasText: 'Found in the OPENAI_* environment lines' }).waitFor();
    await expect(textbox('Gateway address').inputValue()).resolves.toBe(env.gateway.baseUrl);
    await expect(page.getByLabel('API key', { exact: true }).inputValue()).resolves.toBe(env.gateway.demoKey);
    await button('Save').click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await storedSettings()).profiles[0]?.apiKey).toBe(env.gateway.demoKey);
  });

  it("paste to import: new-api's connection info JSON", async () => {
    await textbox('Paste to import').fill(JSON.stringify({ _type: 'newapi_channel_conn', key: env.gateway.demoKey, url: env.gateway.siteUrl }));
    await button('Import').click();
    await page.getByRole('status').filter({ hasText: 'new-api connection info' }).waitFor();
    await expect(textbox('Gateway address').inputValue()).resolves.toBe(env.gateway.baseUrl);
  });

  it('bad input gets its own message: a key in the address field, a masked key, a broken link', async () => {
    await textbox('Gateway address').fill(env.gateway.demoKey);
    await page.getByRole('alert').filter({ hasText: 'This looks like an API key, not an address' }).waitFor();
    await textbox('Gateway address').fill(env.gateway.siteUrl);
    await page.getByLabel('API key', { exact: true }).fill('sk-demo…0000');
    await page.getByRole('alert').filter({ hasText: 'shortened or masked' }).waitFor();
    await expect(button('Save').isDisabled()).resolves.toBe(true);
    await textbox('Paste to import').fill('https://chat.example/?settings=%7B%22key%22%3A%22sk-abc');
    await button('Import').click();
    await page.getByRole('alert').filter({ hasText: 'settings= part is not valid JSON' }).waitFor();
  });

  it('Test connection shows the classified error with its remedy and link', async () => {
    await textbox('Gateway address').fill(env.gateway.siteUrl);
    await page.getByLabel('API key', { exact: true }).fill('sk-wrong-key-0000000000000000000');
    await button('Test connection').click();
    const alert = page.getByRole('alert').filter({ hasText: 'The API key was rejected' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain(`${env.gateway.baseUrl}/models`);
    await expect(alert.getByRole('link', { name: 'Keys page' }).getAttribute('href')).resolves.toBe(`${env.gateway.siteUrl}/keys`);
  });
});

/** The built extension loads in Chromium: its worker starts, every surface renders. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_DIR, launchExtension, type LaunchedExtension } from './harness';

let ext: LaunchedExtension;

beforeAll(async () => {
  ext = await launchExtension();
});
afterAll(async () => {
  await ext?.close();
});

describe('the built extension', () => {
  it('starts its service worker', () => {
    expect(ext.extensionId).toMatch(/^[a-p]{32}$/);
  });

  it.each([
    ['popup.html', 'Set up'],
    ['sidepanel.html', 'Side panel'],
    ['options.html', 'Settings'],
    ['chat.html', 'Chat'],
  ])('%s renders (nothing set up yet: %s)', async (path, name) => {
    const page = await ext.open(path);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.getByRole('main', { name }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the popup starts on the first-run setup, with the fields tests and users rely on', async () => {
    const page = await ext.open('popup.html');
    // The popup reads the settings first; wait for its first real render.
    await page.getByRole('heading', { name: 'Connect your gateway' }).waitFor();
    for (const name of ['Gateway address', 'API key', 'Paste to import']) {
      await expect(page.getByRole('textbox', { name, exact: true }).count()).resolves.toBe(1);
    }
    for (const name of ['Save', 'Test connection', 'Import']) {
      await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(1);
    }
    await page.close();
  });

  it('asks for no host access at install beyond the loopback gateway of the test build', () => {
    const manifest = JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*']);
    expect(manifest.optional_host_permissions).toEqual(['https://*/*', 'http://*/*']);
    expect(manifest.permissions).not.toContain('<all_urls>');
  });
});

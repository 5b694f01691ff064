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
    ['popup.html', 'Quick chat'],
    ['sidepanel.html', 'Conversations'],
    ['options.html', 'Settings'],
    ['chat.html', 'Chat'],
  ])('%s renders its surface', async (path, name) => {
    const page = await ext.open(path);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await expect(page.getByRole('main', { name }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain(name);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('asks for no host access at install beyond the loopback gateway of the test build', () => {
    const manifest = JSON.parse(readFileSync(join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.host_permissions).toEqual(['http://127.0.0.1/*']);
    expect(manifest.optional_host_permissions).toEqual(['https://*/*', 'http://*/*']);
    expect(manifest.permissions).not.toContain('<all_urls>');
  });
});

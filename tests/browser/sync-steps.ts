/**
 * Sync's steps as a user takes them in the options page's Sync section (issue 31), shared by
 * the browser tests and the sync bench; and the background's stored status, read to know when a
 * round has ended.
 */
import type { Page } from 'playwright-core';
import { launchExtension, profileFor, writeSettings, type LaunchedExtension } from './harness';

/** A new browser profile set up with `gateway` (the reference gateway), added to `browsers` to close. */
export async function profileWith(gateway: { baseUrl: string; siteUrl: string; demoKey: string }, browsers: LaunchedExtension[]): Promise<LaunchedExtension> {
  const ext = await launchExtension();
  browsers.push(ext);
  const page = await ext.open('options.html');
  await writeSettings(page, profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
  await page.close();
  return ext;
}

/** The WebDAV server's address and account (tests/sync/webdav-server.ts). */
export interface SyncServer {
  address: string;
  username: string;
  password: string;
}

/** Polls `check` until it holds (no test runner needed: the bench uses these too). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface StoredStatus { state: string; lastSyncedAt?: number; code?: string }

export async function storedStatus(ext: LaunchedExtension): Promise<StoredStatus | undefined> {
  const worker = await ext.worker();
  return (await worker.evaluate('chrome.storage.local.get("syncStatus").then((r) => r.syncStatus)')) as StoredStatus | undefined;
}

/** The options page's Sync section, filled in as a user would, up to "Test sync". */
export async function fillSync(ext: LaunchedExtension, server: SyncServer): Promise<Page> {
  const page = await ext.open('options.html#sync');
  await page.setViewportSize({ width: 1100, height: 900 });
  const section = page.getByRole('region', { name: 'Sync' });
  await section.getByLabel('Sync service').selectOption({ label: 'WebDAV' });
  await section.getByLabel('Server address').fill(server.address);
  await section.getByLabel('Username').fill(server.username);
  await section.getByLabel('Password', { exact: true }).fill(server.password);
  await section.getByLabel('Folder').fill('Gateway Chat');
  await section.getByRole('button', { name: 'Test sync' }).click();
  return page;
}

/** Sets sync up on a profile: the first device types the passphrase twice. Resolves once its first round is done. */
export async function setUpSync(ext: LaunchedExtension, server: SyncServer, passphrase: string, first: boolean, timeoutMs = 30_000): Promise<Page> {
  const page = await fillSync(ext, server);
  const section = page.getByRole('region', { name: 'Sync' });
  await section.getByText(first ? 'No synced data here yet' : 'Synced data found here', { exact: false }).waitFor();
  await section.getByLabel('Encryption passphrase').fill(passphrase);
  if (first) await section.getByLabel('Confirm passphrase').fill(passphrase);
  await section.getByRole('button', { name: 'Start syncing' }).click();
  await until(async () => (await storedStatus(ext))?.state === 'idle', 'the first round to end', timeoutMs);
  await until(async () => /^Synced/.test((await section.getByRole('status', { name: 'Sync status' }).textContent()) ?? ''), 'the section to say "Synced"', 10_000);
  return page;
}

/** "Sync now" on the options page; resolves when that round has ended (with its status). */
export async function syncNow(ext: LaunchedExtension, options: Page): Promise<StoredStatus> {
  const before = (await storedStatus(ext))?.lastSyncedAt ?? 0;
  const started = Date.now();
  await options.getByRole('region', { name: 'Sync' }).getByRole('button', { name: 'Sync now' }).click();
  for (;;) {
    const status = await storedStatus(ext);
    if (status !== undefined && status.state === 'idle' && (status.lastSyncedAt ?? 0) > before) return status;
    if (status !== undefined && (status.state === 'retrying' || status.state === 'paused') && Date.now() - started > 500) return status;
    if (Date.now() - started > 30_000) throw new Error(`sync did not end: ${JSON.stringify(status)}`);
    await options.waitForTimeout(100);
  }
}


/**
 * Bench (Chromium, e2e build, Apache mod_dav on the loopback): the workspace bench's year of
 * history (10,000 conversations, about 200,000 messages: history-fixture.ts), imported through
 * the chat page, then synced up from that profile and down to a fresh one, each set up through
 * the options page's Sync section as a user would; the time from "Start syncing" to the round's
 * end, the long tasks on an open chat page meanwhile (the work runs in the background), and the
 * requests one new message takes to sync.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { lastReply, send, type LaunchedExtension } from '../browser/harness';
import { profileWith, setUpSync, storedStatus, syncNow, until } from '../browser/sync-steps';
import { startReferenceGateway } from '../gateway/server';
import { startWebDavServer } from '../sync/webdav-server';
import { benchHistory } from './history-fixture';
import { chatPageWith, importThroughPage, pollPage, type Figure } from './measure';
import { build } from './popup';

const PASSPHRASE = 'bench passphrase, long enough';

const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });`;

const countIs = (n: number): string => `document.querySelector('[aria-label="Conversation count"]')?.textContent === '${n.toLocaleString('en')} conversations'`;

/** Requests the server logged since the `from`th, once it has logged them all (it logs just after answering). */
async function loggedSince(requests: () => string[], from: number): Promise<string[]> {
  let seen = -1;
  while (requests().length !== seen) {
    seen = requests().length;
    await new Promise((r) => setTimeout(r, 200));
  }
  return requests().slice(from);
}

export async function benchSync(): Promise<Figure[]> {
  build('e2e');
  const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
  const history = benchHistory(conversations);
  const dir = mkdtempSync(join(tmpdir(), 'gateway-chat-bench-sync-'));
  const file = join(dir, 'history.json');
  writeFileSync(file, history.text);
  const [server, gateway] = await Promise.all([startWebDavServer(), startReferenceGateway()]);
  const browsers: LaunchedExtension[] = [];
  const profile = (): Promise<LaunchedExtension> => profileWith(gateway, browsers);
  const longest = async (page: Page): Promise<{ count: number; longest: number }> => {
    const tasks = await page.evaluate('window.__longTasks') as number[];
    return { count: tasks.length, longest: Math.max(0, ...tasks) };
  };
  try {
    // The history, imported on the first profile.
    const up = await profile();
    const importer = await chatPageWith(up, []);
    await pollPage(importer, countIs(0), 20_000, 50);
    await importThroughPage(importer, file, 180_000);
    await pollPage(importer, countIs(history.conversations), 60_000, 100);
    await importer.close();

    // Up: from "Start syncing" to the end of the first round, a chat page open meanwhile.
    const upChat = await chatPageWith(up, [LONG_TASKS]);
    await pollPage(upChat, countIs(history.conversations), 60_000, 100);
    await upChat.evaluate('window.__longTasks = []');
    const upStarted = Date.now();
    const upOptions = await setUpSync(up, server, PASSPHRASE, true, 600_000);
    const upMs = Date.now() - upStarted;
    const upTasks = await longest(upChat);
    const uploaded = server.requests().filter((r) => r.startsWith('PUT ') && r.endsWith(' 201') && r.includes('/seg-')).length;

    // Down: a fresh profile, a chat page open, from "Start syncing" to every conversation listed.
    const down = await profile();
    const downChat = await chatPageWith(down, [LONG_TASKS]);
    await pollPage(downChat, countIs(0), 20_000, 50);
    const downStarted = Date.now();
    const downOptions = await setUpSync(down, server, PASSPHRASE, false, 600_000);
    const downRoundMs = Date.now() - downStarted;
    await pollPage(downChat, countIs(history.conversations), 120_000, 100);
    const downMs = Date.now() - downStarted;
    const downTasks = await longest(downChat);

    // One new message: the first profile learns of the second (its manifest is new to it), then
    // a turn is added and synced.
    await syncNow(up, upOptions);
    await upChat.getByRole('button', { name: 'New chat' }).first().click();
    await send(upChat, 'one more turn, synced');
    await lastReply(upChat).getByText('Echo: one more turn, synced').waitFor({ timeout: 20_000 });
    const before = (await loggedSince(() => server.requests(), 0)).length;
    const status = await syncNow(up, upOptions);
    if (status.state !== 'idle') throw new Error(`the round after one new message ended ${JSON.stringify(status)}`);
    const oneMessage = (await loggedSince(() => server.requests(), before)).filter((r) => !r.startsWith('MKCOL '));
    await until(async () => (await storedStatus(down))?.state === 'idle', 'the fresh profile to be idle', 10_000);
    await syncNow(down, downOptions);
    await until(async () => (await downChat.getByRole('navigation', { name: 'Conversations' }).getByRole('listitem', { name: 'one more turn, synced' }).count()) > 0, 'the new turn on the fresh profile', 30_000);

    return [
      { label: `history: ${history.conversations.toLocaleString('en')} conversations, ${history.messages.toLocaleString('en')} messages, through Apache mod_dav on the loopback`, value: '' },
      { label: `up: "Start syncing" → first round done (${uploaded} segments written)`, value: `${(upMs / 1000).toFixed(1)} s`, budget: 90, actual: upMs / 1000 },
      { label: 'up: long tasks on the open chat page meanwhile', value: `${upTasks.count}, longest ${upTasks.longest.toFixed(0)} ms`, budget: 50, actual: upTasks.longest },
      { label: 'down, fresh profile: "Start syncing" → first round done', value: `${(downRoundMs / 1000).toFixed(1)} s` },
      { label: 'down, fresh profile: "Start syncing" → every conversation listed', value: `${(downMs / 1000).toFixed(1)} s`, budget: 90, actual: downMs / 1000 },
      { label: 'down: long tasks on the open chat page meanwhile', value: `${downTasks.count}, longest ${downTasks.longest.toFixed(0)} ms`, budget: 50, actual: downTasks.longest },
      { label: 'one new message: requests to the server', value: `${oneMessage.length} (${oneMessage.join(', ')})`, budget: 3, actual: oneMessage.length },
    ];
  } finally {
    for (const ext of browsers) await ext.close().catch(() => undefined);
    await server.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Issue 8 in the built extension: one conversation's reply put through every fault a user
 * meets (the fault matrix), a double-clicked Retry, a key that must not follow a new address,
 * settings that cannot be read, and a conversation database that will not open. For each fault the characters kept must equal the
 * characters the gateway sent before it, the status must be shown, and Retry must complete.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { longCodeBlock } from '../gateway/models';
import type { Fault, StreamLog } from '../gateway/server';
import { gatewayAndExtensionPerFile } from './fixture';
import { breakDatabase, chooseModel, clearConversations, lastReply, mendDatabase, profileFor, resetSettings, send } from './harness';

const env = gatewayAndExtensionPerFile();

const PROMPT = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen';
const FULL = `Echo: ${PROMPT}`;

interface Row {
  fault: string;
  sent: number;
  kept: number;
  status: string;
  retry: string;
}
const table: Row[] = [];

beforeEach(() => {
  env.gateway.reset();
});

afterAll(() => {
  if (table.length === 0) return;
  const lines = [
    '| fault | characters sent before the fault | characters kept | status shown | Retry |',
    '| --- | --- | --- | --- | --- |',
    ...table.map((r) => `| ${r.fault} | ${r.sent} | ${r.kept} | ${r.status} | ${r.retry} |`),
  ];
  // Printed for the CI log and kept beside the test reports.
  process.stdout.write(`\nFault matrix\n${lines.join('\n')}\n\n`);
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/fault-matrix.md', `${lines.join('\n')}\n`);
});

function settings(extra: Record<string, unknown> = {}, profile: Record<string, unknown> = {}) {
  return { ...profileFor(env.gateway.baseUrl, env.gateway.siteUrl, env.gateway.demoKey, profile), ...extra };
}

async function fresh(surface: 'popup.html' | 'sidepanel.html', extra: Record<string, unknown> = {}, profile: Record<string, unknown> = {}): Promise<Page> {
  await clearConversations(env.ext);
  await resetSettings(env.ext, settings(extra, profile));
  const page = await env.ext.open(surface);
  if (surface === 'sidepanel.html') await page.setViewportSize({ width: 420, height: 900 });
  await page.getByRole('button', { name: 'New chat' }).first().click();
  return page;
}

/** Waits until the locator (its first match) shows `text`. */
async function hasText(locator: Locator, text: string): Promise<void> {
  await expect.poll(async () => (await locator.first().textContent({ timeout: 1_000 }).catch(() => '')) ?? '', { timeout: 15_000 }).toContain(text);
}

/** The reply's text as shown (not its earlier versions). */
/** The reply's text as shown, once its renderings are in (a finished reply says it is busy until then). */
const shown = async (page: Page): Promise<string> => {
  const markdown = lastReply(page).locator('.markdown:not(.versions .markdown)');
  for (let waited = 0; waited < 2_000 && await markdown.and(page.locator('[aria-busy="true"]')).count() > 0; waited += 20) await page.waitForTimeout(20);
  return ((await markdown.textContent({ timeout: 1_000 }).catch(() => '')) ?? '').trim();
};
const status = (page: Page) => lastReply(page).getAttribute('data-status');

const chatRequests = () => env.gateway.requests.filter((r) => r.path === '/v1/chat/completions');

/** The newest stream record at the gateway of a request to `path` (Chat Completions unless said). */
function lastStream(path = '/v1/chat/completions'): StreamLog {
  const chats = env.gateway.requests.filter((r) => r.path === path);
  return chats.at(-1)?.stream ?? { sentText: '', cancelled: false, finished: false };
}

/** The reply as saved in IndexedDB (the only conversation). */
async function saved(page: Page): Promise<{ text: string; status: string }> {
  return page.evaluate(() => new Promise<{ text: string; status: string }>((resolve, reject) => {
    const open = indexedDB.open('gateway-chat');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const all = open.result.transaction('messages').objectStore('messages').getAll();
      all.onsuccess = () => {
        const replies = (all.result as { role: string; seq: number; text: string; status: string }[]).filter((m) => m.role === 'assistant').sort((a, b) => b.seq - a.seq);
        open.result.close();
        resolve({ text: replies[0]?.text ?? '', status: replies[0]?.status ?? 'none' });
      };
    };
  }));
}

/** Waits until the stall point is reached and the page shows everything sent before it. */
async function untilStalled(page: Page): Promise<string> {
  await expect.poll(() => lastStream().sentText.length, { timeout: 15_000 }).toBeGreaterThan(5);
  // The gateway stops writing at the stall: what it sent stops growing.
  let before = '';
  await expect.poll(async () => {
    const now = lastStream().sentText;
    const same = now === before;
    before = now;
    return same && (await shown(page)) === now;
  }, { timeout: 15_000, interval: 300 }).toBe(true);
  return before;
}

async function retryCompletes(page: Page, full = FULL): Promise<string> {
  env.gateway.setPace({ delayMs: 0, chunkChars: 8 });
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => status(page), { timeout: 15_000 }).toBe('complete');
  expect(await shown(page)).toBe(full);
  expect((await saved(page)).text).toBe(full);
  return 'completes';
}

async function record(page: Page, fault: string, sent: string, expectedStatus: string, retry: (page: Page) => Promise<string> = retryCompletes): Promise<void> {
  await expect.poll(() => status(page), { timeout: 15_000 }).toBe(expectedStatus);
  // A finished reply is painted once the markdown renderer is there (a moment after the popup opens).
  await expect.poll(() => shown(page)).toBe(sent);
  const kept = await shown(page);
  await expect.poll(async () => (await saved(page)).text, { timeout: 5_000 }).toBe(sent);
  const statusNote = (await lastReply(page).locator('.status-note, .callout-title, .reply-notice').first().textContent({ timeout: 1_000 }).catch(() => '')) ?? '';
  const row: Row = { fault, sent: sent.length, kept: kept.length, status: `${expectedStatus}${statusNote === '' ? '' : ` ("${statusNote}")`}`, retry: '' };
  row.retry = await retry(page);
  table.push(row);
}

const stallAt = (afterBytes: number): Fault => ({ kind: 'stall', afterBytes });

describe('fault matrix: one reply through every fault', () => {
  it('popup closed mid-stream: the background finishes the reply; reopening shows all of it', async () => {
    env.gateway.setPace({ delayMs: 60, chunkChars: 3 });
    const page = await fresh('popup.html');
    await send(page, PROMPT);
    await expect.poll(async () => (await shown(page)).length).toBeGreaterThan(5);
    await page.close();
    await expect.poll(() => lastStream().finished, { timeout: 15_000 }).toBe(true);
    const reopened = await env.ext.open('popup.html');
    await record(reopened, 'popup closed mid-stream', lastStream().sentText, 'complete', async () => 'not needed: completed on its own');
    expect(lastStream().sentText).toBe(FULL);
    await reopened.close();
  });

  it('connection dropped', async () => {
    env.gateway.setPace({ delayMs: 30, chunkChars: 3 });
    env.gateway.setFault({ kind: 'drop', afterBytes: 1200 });
    const page = await fresh('popup.html');
    await send(page, PROMPT);
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('interrupted');
    await record(page, 'connection dropped', lastStream().sentText, 'interrupted');
    await page.close();
  });

  it('worker stopped (CDP)', async () => {
    env.gateway.setPace({ delayMs: 30, chunkChars: 3 });
    env.gateway.setFault(stallAt(1200));
    const page = await fresh('popup.html');
    await send(page, PROMPT);
    const sent = await untilStalled(page);
    const cdp = await env.ext.context.newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await record(page, 'worker stopped (CDP)', sent, 'interrupted');
    await page.close();
  });

  it('gateway stalled past the idle deadline', async () => {
    env.gateway.setPace({ delayMs: 30, chunkChars: 3 });
    env.gateway.setFault(stallAt(1200));
    const page = await fresh('popup.html', { deadlines: { firstTokenSeconds: 120, idleSeconds: 2 } });
    await send(page, PROMPT);
    const sent = await untilStalled(page);
    await expect.poll(() => status(page), { timeout: 10_000 }).toBe('interrupted');
    await hasText(lastReply(page).getByRole('alert'), 'The gateway took too long');
    // The idle deadline closed the stalled connection.
    await expect.poll(() => lastStream().cancelled).toBe(true);
    await record(page, 'gateway stalled past the idle deadline (2 s)', sent, 'interrupted');
    await page.close();
  });

  it('429 with Retry-After, then success: Retry waits out the countdown', async () => {
    env.gateway.setFault({ kind: 'rate-limit', retryAfter: 3 });
    const page = await fresh('popup.html');
    await send(page, PROMPT);
    await hasText(lastReply(page).getByRole('alert'), 'Too many requests');
    await record(page, '429 with Retry-After: 3', '', 'error', async () => {
      const retry = page.getByRole('button', { name: /^Retry/ });
      await expect.poll(() => retry.textContent()).toMatch(/^Retry in \d s$/);
      expect(await retry.isDisabled()).toBe(true);
      const asked = env.gateway.requests.filter((r) => r.path === '/v1/chat/completions').length;
      await expect.poll(() => retry.textContent(), { timeout: 6_000 }).toBe('Retry');
      // Nothing was sent while the countdown ran.
      expect(env.gateway.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(asked);
      await retryCompletes(page);
      return 'waits the countdown, then completes';
    });
    await page.close();
  });

  it('500 mid-run (an upstream error inside the stream)', async () => {
    env.gateway.setPace({ delayMs: 20, chunkChars: 3 });
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 5, thenDone: true });
    const page = await fresh('popup.html');
    await send(page, PROMPT);
    await hasText(lastReply(page).getByRole('alert'), 'The gateway failed');
    await record(page, '500 mid-run (in-stream error, then [DONE])', lastStream().sentText, 'error');
    await page.close();
  });

  it('the preferred interface missing: the catalogue lists `anthropic` first, /v1/messages answers 404', async () => {
    env.gateway.setUnserved(['anthropic']);
    const page = await fresh('popup.html');
    await chooseModel(page, 'claude-ref-1');
    await send(page, PROMPT);
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('complete');
    expect(env.gateway.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/v1/messages', '/v1/chat/completions']);
    await record(page, 'preferred interface missing (404 on /v1/messages)', lastStream().sentText, 'complete', async () => 'not needed: answered through Chat Completions');
    expect(lastStream().sentText).toBe(`Claude: ${PROMPT}`);
    await page.close();
  });

  it('deleted mid-run: the stream is cancelled at the gateway; Undo brings back what arrived, stopped, with Retry', async () => {
    env.gateway.setPace({ delayMs: 30, chunkChars: 3 });
    env.gateway.setFault(stallAt(1200));
    const page = await fresh('sidepanel.html');
    await send(page, PROMPT);
    const sent = await untilStalled(page);
    await page.getByRole('tab', { name: 'Conversations', exact: true }).click();
    await page.getByRole('listitem', { name: PROMPT.slice(0, 59) + '…' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => lastStream().cancelled, { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('listitem', { name: PROMPT.slice(0, 59) + '…' }).getByRole('button', { name: 'Open' }).click();
    await record(page, 'conversation deleted mid-run, then Undo', sent, 'stopped');
    await page.close();
  });
});

describe('fault matrix: a safety-blocked reply', () => {
  const GEMINI = '/v1beta/models/gemini-ref-1:streamGenerateContent';
  const ways = [
    { via: "Gemini's interface, gemini-ref-1", finish: 'SAFETY', path: GEMINI, profile: { defaultModel: 'gemini-ref-1' }, full: `Gemini: ${PROMPT}`, why: 'possibly harmful content. Category: dangerous content.' },
    { via: 'Chat Completions, echo-1', finish: 'content_filter', path: '/v1/chat/completions', profile: {}, full: FULL, why: "the provider's content filter. Category: violence." },
  ];
  const cases = ways.flatMap((way) => [0, 5].map((afterChunks) => {
    const fault = `a safety-blocked reply (${way.via}: ${way.finish} ${afterChunks === 0 ? 'before any text' : `after ${afterChunks} chunks`})`;
    return [fault, { ...way, afterChunks }] as const;
  }));
  it.each(cases)('%s: the words before it kept, the block said, another model offered, Retry completes', async (fault, { path, profile, full, why, afterChunks }) => {
    env.gateway.setPace({ delayMs: 30, chunkChars: 3 });
    env.gateway.setFault({ kind: 'blocked', afterChunks });
    const page = await fresh('popup.html', {}, profile);
    // The catalogue names the model's preferred interface: the run reads it from storage.
    await expect.poll(() => page.evaluate(async () => (await (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } }).chrome.storage.local.get('catalogue:p1'))['catalogue:p1'] !== undefined)).toBe(true);
    await send(page, PROMPT);
    const alert = lastReply(page).getByRole('alert');
    await hasText(alert, "Blocked by the model's filter");
    const sent = lastStream(path).sentText;
    expect(sent).toBe(full.slice(0, afterChunks * 3));
    await hasText(alert, `The filter stopped the reply: ${why}`);
    await hasText(alert, 'Rephrase what you asked, or try another model');
    // Offered once the reply's end is known to the page (a moment after its alert, from storage).
    await page.getByRole('button', { name: 'Choose another model' }).waitFor({ state: 'visible', timeout: 10_000 });
    await record(page, fault, sent, 'error', (p) => retryCompletes(p, full));
    // Both the blocked reply and its retry went through the interface the model prefers.
    expect(env.gateway.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([path, path]);
    await page.close();
  });
});

describe('a reply of megabytes (issue 28, item 5)', () => {
  /**
   * Installed before sending: the gaps between the page's animation frames, and its long tasks
   * as the page sees them. Plain JavaScript text: functions compiled for the test carry helpers
   * the page lacks.
   */
  const WATCH_FRAMES = `(() => {
    const seen = { longTasks: [], gaps: [], stop: false };
    window.__frames = seen;
    new PerformanceObserver((list) => { for (const entry of list.getEntries()) seen.longTasks.push(entry.duration); }).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (now) => { seen.gaps.push(now - last); last = now; if (!seen.stop) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  })()`;

  interface TraceEvent { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number }

  /**
   * The browser's trace of the page's main thread from now until the returned function is
   * called: the processor time of each of its tasks (ms). Wall-clock frames on a shared machine
   * also hold the time other programs took the processor; this is the page's own work.
   */
  async function traceTasks(page: Page): Promise<() => Promise<number[]>> {
    const cdp = await env.ext.context.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (data) => events.push(...(data.value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
    return async () => {
      const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach();
      // The page's main thread: where its animation frames ran.
      const frames = new Map<string, number>();
      for (const e of events) if (e.name === 'FireAnimationFrame') frames.set(`${e.pid}/${e.tid}`, (frames.get(`${e.pid}/${e.tid}`) ?? 0) + 1);
      const main = [...frames].sort((a, b) => b[1] - a[1])[0]?.[0];
      return events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && `${e.pid}/${e.tid}` === main).map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
    };
  }

  it('a 2 MB fenced block streaming: no frame over 100 ms in the page showing it; the whole text kept and saved', async () => {
    // 16 kB a chunk, 15 ms apart: the block grows on the page for about two seconds.
    env.gateway.setPace({ delayMs: 15, chunkChars: 16 * 1024 });
    const page = await fresh('popup.html', { profiles: settings().profiles.map((p) => ({ ...p, defaultModel: 'markdown-1' })) });
    await page.evaluate(WATCH_FRAMES);
    const tasks = await traceTasks(page);
    await send(page, 'write a 2048 kB code block');
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe('complete');
    // The frames that show the end, and the save's read, belong to it too.
    await page.waitForTimeout(1_000);
    const work = await tasks();
    const frames = await page.evaluate('(() => { window.__frames.stop = true; return window.__frames; })()') as { longTasks: number[]; gaps: number[] };
    const sent = lastStream().sentText;
    const { code } = longCodeBlock(2048 * 1024);
    expect(sent).toContain(code);
    expect(await lastReply(page).locator('pre code').textContent()).toBe(code);
    expect(await lastReply(page).getByRole('button', { name: 'Copy ts code' }).count()).toBe(1);
    await expect.poll(async () => (await saved(page)).text, { timeout: 10_000 }).toBe(sent);
    const longest = (values: number[]): string => Math.max(0, ...values).toFixed(0);
    table.push({
      fault: `2 MB fenced block streaming (${frames.gaps.length} frames; longest task ${longest(work)} ms of processor time; as the page saw it: longest frame ${longest(frames.gaps)} ms, longest task ${longest(frames.longTasks)} ms)`,
      sent: sent.length, kept: (await saved(page)).text.length, status: 'complete', retry: 'not needed: completed',
    });
    expect(frames.gaps.length).toBeGreaterThan(30);
    expect(work.length).toBeGreaterThan(30);
    expect(Math.max(...work)).toBeLessThanOrEqual(100);
    await page.close();
  });
});

describe('one run per reply', () => {
  it('a double-clicked Retry sends one request', async () => {
    env.gateway.setFault({ kind: 'server-error' });
    const page = await fresh('popup.html');
    await send(page, 'hello');
    await hasText(lastReply(page).getByRole('alert'), 'The gateway failed');
    expect(env.gateway.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
    env.gateway.setPace({ delayMs: 40, chunkChars: 2 });
    await page.getByRole('button', { name: 'Retry' }).dblclick();
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('complete');
    expect(await shown(page)).toBe('Echo: hello');
    expect(env.gateway.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
    await page.close();
  });
});

describe('the key stays with its address', () => {
  let other: Server;
  let otherUrl: string;
  const seenAtOther: string[] = [];
  beforeAll(async () => {
    other = createServer((req, res) => {
      seenAtOther.push(req.headers.authorization ?? '');
      res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'other-model', object: 'model' }] }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    other?.closeAllConnections();
    await new Promise((resolve) => other?.close(resolve));
  });

  it('editing the address to another origin: the old key never reaches it', async () => {
    await resetSettings(env.ext, settings());
    const page = await env.ext.open('options.html');
    const address = page.getByRole('textbox', { name: 'Gateway address' });
    await address.fill(`${otherUrl}/v1`);
    await hasText(page.getByRole('alert', { name: 'Key for another address' }), `now points at ${otherUrl}`);
    expect(await page.getByRole('button', { name: 'Test connection' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Clear the key' }).click();
    await page.getByLabel('API key').fill('sk-the-other-gateway-key-0123456789');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await hasText(page.getByRole('status').filter({ hasText: 'Connected' }), '1 model available');

    // Importing an address without a key clears the key too.
    await page.getByRole('textbox', { name: 'Paste to import' }).fill(`OPENAI_BASE_URL=${env.gateway.baseUrl}`);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    expect(await page.getByLabel('API key').inputValue()).toBe('');
    // The site's public pages (`/api/status`, asked for the balance's currency) are asked with no key at all.
    const withKey = seenAtOther.filter((auth) => auth !== '');
    expect(withKey.length).toBeGreaterThan(0);
    expect(withKey.every((auth) => auth === 'Bearer sk-the-other-gateway-key-0123456789')).toBe(true);
    expect(seenAtOther.join(' ')).not.toContain(env.gateway.demoKey);
    await page.close();
  });
});

describe('settings that cannot be read', () => {
  it('the popup says so instead of the first-run form, and the stored value is left alone', async () => {
    const damaged = { version: 1, profiles: [{ id: 'p1', name: 'Mine', siteUrl: 42 }], chat: {} };
    await resetSettings(env.ext, damaged);
    const page = await env.ext.open('popup.html');
    await hasText(page.getByRole('alert', { name: 'Settings unreadable' }), 'damaged at "profiles.0.siteUrl"');
    expect(await page.getByRole('heading', { name: 'Connect your gateway' }).count()).toBe(0);
    const stored = await page.evaluate(async () => (await (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } }).chrome.storage.local.get('settings')).settings);
    expect(stored).toEqual(damaged);
    await page.close();
  });
});

describe('profiles and their conversations', () => {
  const two = () => ({
    ...settings(),
    profiles: [
      { id: 'p1', name: 'First', siteUrl: env.gateway.siteUrl, baseUrl: env.gateway.baseUrl, apiKey: env.gateway.demoKey, apiStyle: 'chat', defaultModel: 'echo-1' },
      { id: 'p2', name: 'Second', siteUrl: env.gateway.siteUrl, baseUrl: env.gateway.baseUrl, apiKey: env.gateway.demoKey, apiStyle: 'chat', defaultModel: 'echo-1' },
    ],
    activeProfileId: 'p1',
  });
  const stored = (page: Page, key: string) => page.evaluate(async (k) => (await (globalThis as unknown as { chrome: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } }).chrome.storage.local.get(k))[k], key);

  it('deleting a profile forgets its cached catalogue; the other keeps its own', async () => {
    await resetSettings(env.ext, two());
    const page = await env.ext.open('options.html');
    const profiles = page.getByRole('radiogroup', { name: 'Active profile' });
    await profiles.getByRole('radio', { name: /^Second/ }).click();
    await page.getByRole('button', { name: 'Refresh models' }).click();
    await expect.poll(() => stored(page, 'catalogue:p2')).toBeTruthy();
    await profiles.getByRole('radio', { name: /^First/ }).click();
    await page.getByRole('button', { name: 'Refresh models' }).click();
    await expect.poll(() => stored(page, 'catalogue:p1')).toBeTruthy();
    await profiles.getByRole('radio', { name: /^Second/ }).click();
    await page.getByRole('button', { name: 'Delete profile' }).click();
    // Deleting asks first, in a dialog that names the profile.
    await page.getByRole('dialog', { name: 'Delete “Second”?' }).getByRole('button', { name: 'Delete profile' }).click();
    await expect.poll(() => stored(page, 'catalogue:p2')).toBeUndefined();
    expect(await stored(page, 'catalogue:p1')).toBeTruthy();
    await page.close();
  });

  it('a conversation whose profile was deleted says so, and continues only where the user chooses', async () => {
    await clearConversations(env.ext);
    await resetSettings(env.ext, two());
    const page = await env.ext.open('popup.html');
    await page.getByRole('button', { name: 'New chat' }).click();
    await send(page, 'on the first gateway');
    await expect.poll(() => status(page)).toBe('complete');
    // The first profile is deleted elsewhere (the options page).
    await resetSettings(env.ext, { ...two(), profiles: [two().profiles[1]], activeProfileId: 'p2' });
    await hasText(page.getByRole('alert', { name: 'Gateway profile deleted' }), 'This conversation\'s gateway profile was deleted');
    expect(await page.getByRole('textbox', { name: 'Message', exact: true }).isDisabled()).toBe(true);
    const before = env.gateway.requests.filter((r) => r.path === '/v1/chat/completions').length;
    await page.getByRole('button', { name: 'Continue with Second' }).click();
    await send(page, 'now on the second');
    await expect.poll(() => shown(page)).toBe('Echo: now on the second');
    expect(env.gateway.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(before + 1);
    await page.close();
  });
});

// Last in the file: it breaks the database for every surface (and mends it after).
describe('fault matrix: the database will not open', () => {
  it('the popup says so; a dropped reply keeps what arrived on screen; Retry completes it (kept in memory, not saved)', async () => {
    await resetSettings(env.ext, settings());
    await breakDatabase(env.ext);
    try {
      env.gateway.setPace({ delayMs: 30, chunkChars: 3 });
      env.gateway.setFault({ kind: 'drop', afterBytes: 1200 });
      const page = await env.ext.open('popup.html');
      const callout = page.getByRole('alert', { name: 'Saved conversations unavailable' });
      await hasText(callout, 'You can still chat');
      const shownAbove = (await callout.locator('.callout-title').textContent()) ?? '';
      await send(page, PROMPT);
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('interrupted');
      const sent = lastStream().sentText;
      await expect.poll(() => shown(page)).toBe(sent);
      const kept = await shown(page);
      const statusNote = (await lastReply(page).locator('.status-note, .callout-title').first().textContent({ timeout: 1_000 }).catch(() => '')) ?? '';
      env.gateway.setPace({ delayMs: 0, chunkChars: 8 });
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => status(page), { timeout: 15_000 }).toBe('complete');
      expect(await shown(page)).toBe(FULL);
      // The retry went with the question, from the background's memory.
      expect(chatRequests().at(-1)?.body).toMatchObject({ messages: [{ role: 'user', content: PROMPT }] });
      expect(await callout.count()).toBe(1);
      table.push({
        fault: 'the database will not open (a higher version without our tables), then the connection dropped',
        sent: sent.length,
        kept: kept.length,
        status: `interrupted${statusNote === '' ? '' : ` ("${statusNote}")`}, under "${shownAbove}"`,
        retry: 'completes (kept in memory, not saved)',
      });
      await page.close();
    } finally {
      await mendDatabase(env.ext);
    }
  });
});

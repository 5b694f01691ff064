/** Timing helpers for `npm run bench`: interleaved runs in one process, medians, budgets. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import type { LaunchedExtension } from '../browser/harness';

export interface Figure {
  label: string;
  value: string;
  /** When set, `actual` must not exceed it. */
  budget?: number;
  actual?: number;
}

export interface Contender<T> {
  name: string;
  run: () => Promise<T>;
  /** The result must be right, or the timing means nothing. */
  check: (result: T) => boolean;
}

export interface Timing {
  name: string;
  medianMs: number;
  samplesMs: number[];
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Runs a baseline and a candidate in alternation (warm-up rounds first); returns each one's median. */
export async function compare<T>(baseline: Contender<T>, candidate: Contender<T>): Promise<[Timing, Timing]> {
  const contenders = [baseline, candidate];
  const warmups = 2;
  // Enough rounds for a stable median on a shared two-core machine.
  const rounds = 15;
  const samples = contenders.map(() => [] as number[]);
  for (let round = 0; round < warmups + rounds; round++) {
    for (const [i, contender] of contenders.entries()) {
      const start = performance.now();
      const result = await contender.run();
      const elapsed = performance.now() - start;
      if (!contender.check(result)) throw new Error(`${contender.name} produced a wrong result: ${String(result)}`);
      if (round >= warmups) samples[i]!.push(elapsed);
    }
  }
  const timing = (i: number): Timing => ({ name: contenders[i]!.name, medianMs: median(samples[i]!), samplesMs: samples[i]! });
  return [timing(0), timing(1)];
}

/**
 * Polls an expression in a page from Node, every `everyMs` (each poll is a task in the page and
 * a round trip through the browser: where the page notes a moment itself, poll less often).
 * (Playwright's waitForFunction evaluates strings
 * inside the page, which an extension page's CSP forbids.)
 */
export async function pollPage(page: { evaluate(expression: string): Promise<unknown> }, expression: string, timeoutMs: number, everyMs = 10): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await page.evaluate(expression)) !== true) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The page's main-thread busy time from now on (CDP Performance.getMetrics TaskDuration), read by the returned function. */
export async function taskDuration(page: Page, context: BrowserContext): Promise<() => Promise<number>> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async (): Promise<number> => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
  };
  const start = await read();
  return async () => ((await read()) - start) * 1000;
}

/**
 * The floor pages' one job, as page script: a streamed reply fetched from the gateway and its
 * text appended to `out` as plain-text lines, nothing else (no markdown, no framework).
 */
export const APPEND_STREAM = `
async function appendStream(out, baseUrl, key, model, prompt) {
  let line = document.createElement('div');
  out.append(line);
  const res = await fetch(baseUrl + '/chat/completions', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + key },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: prompt }] }),
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\\n\\n')) !== -1) {
      const event = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      if (!event.startsWith('data: ') || event === 'data: [DONE]') continue;
      const content = JSON.parse(event.slice(6)).choices[0]?.delta?.content ?? '';
      const parts = content.split('\\n');
      line.append(parts[0]);
      for (const part of parts.slice(1)) {
        line = document.createElement('div');
        line.append(part);
        out.append(line);
      }
    }
  }
}`;

/** Serves one HTML page on the loopback (a floor page, a page to read): its address, and how to stop. */
export async function servePage(html: string, path = '/'): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

interface HeapUsage { usedSize: number; backingStorageSize?: number }

/** The page's JS heap and its dedicated workers', after garbage collection (bytes, array buffers included). */
export async function pageMemory(page: Page): Promise<{ page: number; workers: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const own = await cdp.send('Runtime.getHeapUsage') as HeapUsage;
  // Workers are reached through the page's session (Playwright's sessions cannot address them).
  const sessions: string[] = [];
  const replies = new Map<number, HeapUsage>();
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string } }) => {
    if (e.targetInfo.type === 'worker') sessions.push(e.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const reply = JSON.parse(e.message) as { id?: number; result?: HeapUsage };
    if (reply.id !== undefined && reply.result !== undefined) replies.set(reply.id, reply.result);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await page.waitForTimeout(300);
  let id = 0;
  for (const sessionId of sessions) {
    for (const method of ['HeapProfiler.collectGarbage', 'HeapProfiler.collectGarbage', 'Runtime.getHeapUsage']) {
      await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: ++id, method }) });
    }
  }
  await page.waitForTimeout(1_000);
  await cdp.detach();
  const size = (h: HeapUsage | undefined): number => (h === undefined ? 0 : h.usedSize + (h.backingStorageSize ?? 0));
  const workers = [...replies.entries()].filter(([replyId]) => replyId % 3 === 0).reduce((n, [, h]) => n + size(h), 0);
  return { page: size(own), workers };
}

/** The chat page in a new tab at 1280×900, with page scripts installed before it loads (`query`: its address's). */
export async function chatPageWith(ext: LaunchedExtension, probes: readonly string[], query = ''): Promise<Page> {
  const page = await ext.context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const probe of probes) await page.addInitScript({ content: probe });
  await page.goto(`chrome-extension://${ext.extensionId}/chat.html${query}`);
  return page;
}

/** A history file imported through the chat page's own Import, waited for until its result is said. */
export async function importThroughPage(page: Page, file: string, timeoutMs: number): Promise<void> {
  await page.getByLabel('History file to import').setInputFiles(file);
  await page.getByRole('dialog', { name: 'Import conversations' }).getByRole('status').waitFor({ timeout: timeoutMs });
}

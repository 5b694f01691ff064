/**
 * Benches of issue 14, in Debian's Chromium with the e2e build:
 *
 * - compare: four ~25 kB markdown replies streamed at once (four models compared) into the chat
 *   page, against a floor page that fetches the same four streams and appends them as plain-text
 *   lines in four columns. Main-thread busy (CDP TaskDuration) and long tasks for each.
 * - readability: "Ask about this page" reading a 2 MB article page, as the background does it
 *   (the readability script injected with scripting.executeScript, the text coming back),
 *   timed from the service worker; against the bare `document.body.innerText` read the same way.
 */
import type { Page } from 'playwright-core';
import { compareWith, launchExtension, profileFor, writeSettings } from '../browser/harness';
import { longMarkdown, REFERENCE_MODELS, type ReferenceModel } from '../gateway/models';
import { startReferenceGateway } from '../gateway/server';
import { APPEND_STREAM, median, pollPage, servePage, taskDuration, type Figure } from './measure';
import { READ_LIMIT_GLOBAL, readLimitFor } from '../../lib/page/page-access';
import { LargeSelectionSchema } from '../../lib/actions/schema';
import { build } from './popup';

const REPLY_BYTES = 25 * 1024;
const DELTAS = 1250;
const DELTA_MS = 4;
const WRITERS = ['writer-a', 'writer-b', 'writer-c', 'writer-d'];

/** Four models that write the same long markdown (the reference markdown-1, under other names). */
function writers(): ReferenceModel[] {
  const markdown = REFERENCE_MODELS.find((m) => m.id === 'markdown-1')!;
  return WRITERS.map((id) => ({ ...markdown, id }));
}

/** Installed before the page loads: long tasks, and the moment all four replies end with `tail` on screen. */
function instrument(tail: string, selector: string): string {
  return `
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
    window.__watchAll = () => {
      const check = () => {
        const done = [...document.querySelectorAll(${JSON.stringify(selector)})].filter((el) => (el.textContent ?? '').trimEnd().endsWith(${JSON.stringify(tail)}));
        if (done.length === 4) { window.__allAt = Date.now(); return; }
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    };`;
}

const FLOOR_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title>
<style>body{font:14px/1.5 system-ui;margin:12px;display:grid;grid-template-columns:repeat(4,1fr);gap:12px}</style></head><body>
<main class="col"></main><main class="col"></main><main class="col"></main><main class="col"></main>
<script>${APPEND_STREAM}
function run(baseUrl, key, models, prompt) {
  const columns = document.querySelectorAll('.col');
  models.forEach((model, i) => appendStream(columns[i], baseUrl, key, model, prompt));
}
</script></body></html>`;

interface Run {
  busyMs: number;
  longTasks: number[];
}

async function collect(page: Page, busy: () => Promise<number>): Promise<Run> {
  await pollPage(page, 'window.__allAt !== undefined', 60_000, 50);
  await page.waitForTimeout(300);
  const busyMs = await busy();
  const longTasks = await page.evaluate('window.__longTasks') as number[];
  if (await page.evaluate('document.visibilityState') !== 'visible') throw new Error('the measured page was hidden, so its frames were throttled');
  return { busyMs, longTasks };
}

export async function benchCompare(): Promise<Figure[]> {
  build('e2e');
  const text = longMarkdown(REPLY_BYTES);
  const chunkChars = Math.ceil(Array.from(text).length / DELTAS);
  const tail = (text.trimEnd().split('\n').at(-1) ?? '').replace(/^>\s*/, '');
  const gateway = await startReferenceGateway({ pace: { delayMs: DELTA_MS, chunkChars }, extraModels: writers(), balance: 1e12 });
  const floorPage = await servePage(FLOOR_PAGE);
  const floorUrl = floorPage.url;
  const ext = await launchExtension();
  const prompt = `write ${REPLY_BYTES / 1024} kB`;
  try {
    const setup = await ext.open('options.html');
    await writeSettings(setup, profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey, { defaultModel: WRITERS[0] }));
    await setup.close();

    // Ours: the chat page, four models compared.
    const ours = await ext.context.newPage();
    await ours.setViewportSize({ width: 1280, height: 800 });
    await ours.addInitScript({ content: instrument(tail, 'section[aria-label="Replies compared"] article .markdown') });
    await ours.goto(`chrome-extension://${ext.extensionId}/chat.html`);
    await compareWith(ours, WRITERS.slice(1));
    await ours.getByRole('textbox', { name: 'Message', exact: true }).fill(prompt);
    await ours.waitForTimeout(500);
    await ours.evaluate('window.__longTasks.length = 0; window.__watchAll()');
    const oursBusy = await taskDuration(ours, ext.context);
    await ours.keyboard.press('Enter');
    const oursRun = await collect(ours, oursBusy);
    const columns = await ours.getByRole('region', { name: 'Replies compared' }).getByRole('article', { name: 'Assistant message' }).count();
    const overlapping = gateway.requests.filter((r) => r.method === 'POST' && r.path === '/v1/chat/completions');
    const concurrent = overlapping.length === 4 && overlapping.every((a) => overlapping.every((b) => a.time < (b.endedAt ?? 0)));
    await ours.close();

    // Floor: the same four streams as plain-text lines.
    const floor = await ext.context.newPage();
    await floor.setViewportSize({ width: 1280, height: 800 });
    await floor.addInitScript({ content: instrument(tail, '.col') });
    await floor.goto(floorUrl);
    await floor.waitForTimeout(300);
    await floor.evaluate('window.__longTasks.length = 0; window.__watchAll()');
    const floorBusy = await taskDuration(floor, ext.context);
    await floor.evaluate(`run(${JSON.stringify(gateway.baseUrl)}, ${JSON.stringify(gateway.demoKey)}, ${JSON.stringify(WRITERS)}, ${JSON.stringify(prompt)})`);
    const floorRun = await collect(floor, floorBusy);
    await floor.close();

    const maxTask = (r: Run): number => Math.max(0, ...r.longTasks);
    const ratio = oursRun.busyMs / floorRun.busyMs;
    return [
      { label: `four replies at once: ${(text.length / 1024).toFixed(0)} kB markdown each, ${DELTAS} deltas ${DELTA_MS} ms apart, ${columns} columns, requests concurrent: ${concurrent ? 'yes' : 'NO'}`, value: '' },
      { label: 'ours (chat page): main-thread busy', value: `${oursRun.busyMs.toFixed(0)} ms` },
      { label: 'floor (plain text): main-thread busy', value: `${floorRun.busyMs.toFixed(0)} ms` },
      { label: 'busy ratio ours / floor', value: ratio.toFixed(2), budget: 1.5, actual: ratio },
      { label: 'ours: long tasks (> 50 ms)', value: `${oursRun.longTasks.length}, longest ${maxTask(oursRun).toFixed(0)} ms`, budget: 50, actual: maxTask(oursRun) },
      { label: 'floor: long tasks (> 50 ms)', value: `${floorRun.longTasks.length}, longest ${maxTask(floorRun).toFixed(0)} ms` },
    ];
  } finally {
    await ext.close();
    await gateway.close();
    await floorPage.close();
  }
}

const PAGE_BYTES = 2 * 1024 * 1024;
const READS = 7;

/** A 2 MB news-style page: navigation, a sidebar of links, a long article of paragraphs, lists and tables, comments, a footer. */
export function articlePage(): string {
  const nav = `<header><nav>${Array.from({ length: 60 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(' · ')}</nav></header>`;
  const aside = `<aside><h3>Most read</h3><ul>${Array.from({ length: 40 }, (_, i) => `<li><a href="/story/${i}">Story number ${i} that everyone reads</a></li>`).join('')}</ul></aside>`;
  const parts: string[] = [];
  let size = 0;
  for (let n = 1; size < PAGE_BYTES; n++) {
    const block = `<h2>Part ${n}: the measurements</h2><p>Paragraph ${n} describes step ${n} of the study in some detail, with <em>emphasis</em>, <a href="/ref/${n}">a reference</a> and <code>inline code</code>. The numbers were repeated ${n + 2} times and the median kept.</p>`
      + `<p>The second paragraph of part ${n} adds context: the setup used ${n * 2} workers and inputs of ${n * 64} kB, and cold-cache figures are in the appendix at the end of this article.</p>`
      + `<ul><li>First finding of part ${n}</li><li>Second finding</li></ul><table><tr><th>metric</th><th>value</th></tr><tr><td>latency</td><td>${(n * 3.7).toFixed(1)} ms</td></tr></table>`;
    parts.push(block);
    size += block.length;
  }
  const comments = `<section class="comments">${Array.from({ length: 30 }, (_, i) => `<div class="comment"><b>reader${i}</b>: great piece</div>`).join('')}</section>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>A long study</title></head><body>${nav}<div class="layout">${aside}<main><article><h1>A long study</h1>${parts.join('')}</article></main></div>${comments}<footer>Copyright 2026 Example News. Privacy. Terms.</footer></body></html>`;
}

export async function benchReadability(): Promise<Figure[]> {
  build('e2e');
  const html = articlePage();
  const served = await servePage(html, '/study.html');
  const url = served.url;
  const ext = await launchExtension();
  try {
    const tab = await ext.context.newPage();
    await tab.goto(url);
    const worker = await ext.worker();
    // Each read as the background does it: inject, run in the page, the text back in the worker.
    // What the background asks for with the default settings (a request of at most 12,000 tokens).
    const limit = readLimitFor(LargeSelectionSchema.parse({}).maxTokens);
    const read = async (how: 'readability' | 'innerText', readLimit = limit): Promise<{ ms: number; chars: number; nav: boolean; method: string; total: number }> => worker.evaluate(`(async () => {
      const [tab] = await chrome.tabs.query({ url: ${JSON.stringify(url)} });
      const start = performance.now();
      const [result] = ${how === 'readability'
        ? `await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: (name, limit) => { globalThis[name] = limit; }, args: [${JSON.stringify(READ_LIMIT_GLOBAL)}, ${readLimit}] })
           && await chrome.scripting.executeScript({ target: { tabId: tab.id }, files: ["/readability.js"] })`
        : 'await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: () => ({ text: document.body.innerText, method: "innerText" }) })'};
      const ms = performance.now() - start;
      const text = result.result.text;
      return { ms, chars: text.length, nav: text.includes('Section 59'), method: result.result.method, total: result.result.totalChars ?? text.length };
    })()`);
    const ours: number[] = [];
    const bare: number[] = [];
    let last = { ms: 0, chars: 0, nav: true, method: '', total: 0 };
    for (let i = 0; i < READS + 1; i++) {
      const r = await read('readability');
      const b = await read('innerText');
      if (i === 0) continue;
      ours.push(r.ms);
      bare.push(b.ms);
      last = r;
    }
    // For the record: the whole page, as with the limit raised to its maximum.
    const whole: number[] = [];
    let wholeRead = last;
    for (let i = 0; i < 3; i++) {
      wholeRead = await read('readability', 0);
      whole.push(wholeRead.ms);
    }
    const oursMedian = median(ours);
    const bareMedian = median(bare);
    return [
      { label: `page: ${(html.length / 1024 / 1024).toFixed(2)} MB of HTML, about ${last.total.toLocaleString('en')} characters of text; read the first ${last.chars.toLocaleString('en')} (the default request holds 12,000 tokens) as "${last.method}", navigation left out: ${last.nav ? 'NO' : 'yes'}`, value: '' },
      { label: `Readability, injected and read back (median of ${READS})`, value: `${oursMedian.toFixed(0)} ms (all: ${ours.map((v) => v.toFixed(0)).join(', ')})`, budget: 300, actual: oursMedian },
      { label: `bare body.innerText, the same way (median of ${READS})`, value: `${bareMedian.toFixed(0)} ms` },
      { label: 'ratio Readability / bare', value: (oursMedian / bareMedian).toFixed(2) },
      {
        label: `the whole page (no limit, as with a request limit of 1M tokens), median of 3: read ${wholeRead.chars.toLocaleString('en')} characters as "${wholeRead.method}"${wholeRead.method === 'body' ? ' (Readability gives up above 60,000 elements: the visible text instead)' : ''}`,
        value: `${median(whole).toFixed(0)} ms`,
      },
    ];
  } finally {
    await ext.close();
    await served.close();
  }
}

/**
 * Bench: a ~100 kB markdown reply (paragraphs, lists, tables, ~80 fenced code blocks)
 * streamed from the reference gateway in 5,000 deltas 2 ms apart, shown by our chat view
 * (popup, e2e build, in Debian's Chromium) and, in the same run, by a floor page that only
 * appends the text as plain-text lines. For each: main-thread busy time (CDP
 * Performance.getMetrics TaskDuration) and long tasks (PerformanceObserver), both from just
 * before the message is sent until the final text is on screen (the page's opening is not the
 * reply's: its long tasks are listed apart), what each long animation frame held, and the delay
 * from the gateway's last byte to the final text on screen; then, over several short replies
 * each sent from a freshly opened page, the delay from the gateway's first words to the frame
 * that shows them; then a 2 MB fenced code block (128 deltas of 16 kB, 15 ms apart) the same
 * way, ours against the floor.
 */
import type { Page } from 'playwright-core';
import { launchExtension, profileFor, writeSettings } from '../browser/harness';
import { longCodeBlock, longMarkdown } from '../gateway/models';
import { startReferenceGateway, type ReferenceGateway } from '../gateway/server';
import { APPEND_STREAM, median, pageMemory, pollPage, servePage, taskDuration, type Figure } from './measure';
import { build } from './popup';

const REPLY_BYTES = 100 * 1024;
const DELTAS = 5000;
const DELTA_MS = 2;
const FIRST_WORDS_SAMPLES = 15;
/** Measured rounds of the 100 kB reply, ours then the floor, after one warm-up run of each. */
const ROUNDS = 5;
const FIRST_WORDS_PROMPT = 'write 4 kB';
const LONG_CODE_KB = 2048;
const LONG_CODE_PROMPT = `write a ${LONG_CODE_KB} kB code block`;
const LONG_CODE_PACE = { delayMs: 15, chunkChars: 16 * 1024 };

/** Ours' final text as rendered (highlighted, formulas laid out), not as the plain text shown while its rendering comes. */
const OURS_FINAL = 'article[aria-label="Assistant message"] .markdown .md-block:not(.md-plain)';
const FLOOR_FINAL = '#out > div:last-child';

interface Run {
  busyMs: number;
  /** Long tasks while measured (from `startMeasuring`, as the busy time). */
  longTasks: number[];
  /** When each began (ms since the page opened). */
  longTaskStarts: number[];
  /** Long tasks before it: the page opening (a popup's own start, its "New chat"). */
  openingTasks: number[];
  /** What each animation frame over 50 ms while measured held (its scripts, its rendering), to tell a task of ours from a stall. */
  longFrames: string[];
  finalDelayMs: number;
}

/**
 * Installed before the page loads: long tasks, and the moment the final text is on screen.
 * Plain JavaScript text, because functions compiled by tsx carry helpers the page lacks.
 */
function instrument(finalTail: string): string {
  return `
    window.__longTasks = [];
    window.__longTaskStarts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__longTasks.push(entry.duration);
        window.__longTaskStarts.push(entry.startTime);
      }
    }).observe({ type: 'longtask', buffered: true });
    window.__longFrames = [];
    new PerformanceObserver((list) => {
      for (const f of list.getEntries()) {
        if (f.duration <= 50) continue;
        const end = f.startTime + f.duration;
        const scripts = f.scripts.map((x) => x.invokerType + ' ' + (x.sourceFunctionName || x.invoker) + ' ' + Math.round(x.duration) + ' ms').join(', ');
        window.__longFrames.push([f.startTime, Math.round(f.duration) + ' ms at ' + (f.startTime / 1000).toFixed(2) + ' s: scripts ' + Math.round(f.scripts.reduce((n, x) => n + x.duration, 0)) + ' ms [' + scripts + '], style and layout ' + Math.round(f.styleAndLayoutStart ? end - f.styleAndLayoutStart : 0) + ' ms, rendering ' + Math.round(f.renderStart ? end - f.renderStart : 0) + ' ms']);
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
    addEventListener('keydown', (event) => { if (event.key === 'Enter') window.__enterAt = Date.now(); }, true);
    window.__watchFirst = (selector) => {
      const check = () => {
        if ((document.querySelector(selector)?.textContent ?? '').trim() !== '') { window.__firstAt = Date.now(); return; }
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    };
    window.__watchFinal = (selector) => {
      const tail = ${JSON.stringify(finalTail)};
      const check = () => {
        const all = document.querySelectorAll(selector);
        const text = all[all.length - 1]?.textContent ?? '';
        if (text.trimEnd().endsWith(tail)) { window.__finalAt = Date.now(); return; }
        requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    };`;
}

/**
 * Waits for the reply sent after `ended` streams had ended to end too, then watches `page` for
 * its final text. The watcher starts only once the gateway has sent the last byte: checked every
 * frame while the reply streams, its query would cost the page with more elements (ours) more
 * than the floor, and count as that page's rendering. Started late, it can only see the final
 * text later than it came, never earlier.
 */
async function collect(page: Page, busy: () => Promise<number>, gateway: ReferenceGateway, ended: number, finalSelector: string): Promise<Run> {
  // Told by the gateway, not polled: a poll every few milliseconds would compete with the pages measured.
  await gateway.streamEnded(ended);
  await page.evaluate(`window.__watchFinal(${JSON.stringify(finalSelector)})`);
  await pollPage(page, 'window.__finalAt !== undefined', 60_000);
  await page.waitForTimeout(300);
  const busyMs = await busy();
  const seen = await page.evaluate('({ finalAt: window.__finalAt, from: window.__measureFrom, longTasks: window.__longTasks, longTaskStarts: window.__longTaskStarts, longFrames: window.__longFrames })') as { finalAt: number; from: number; longTasks: number[]; longTaskStarts: number[]; longFrames: [number, string][] };
  const { finalAt, from } = seen;
  const measured = (i: number): boolean => (seen.longTaskStarts[i] ?? 0) >= from;
  const longTasks = seen.longTasks.filter((_, i) => measured(i));
  const longTaskStarts = seen.longTaskStarts.filter((_, i) => measured(i));
  const openingTasks = seen.longTasks.filter((_, i) => !measured(i));
  const longFrames = seen.longFrames.filter(([start]) => start >= from).map(([, text]) => text);
  const visibility = await page.evaluate('document.visibilityState');
  if (visibility !== 'visible') throw new Error(`the measured page was ${String(visibility)}, so its frames were throttled`);
  const lastByte = gateway.streamEnds.at(-1);
  if (lastByte === undefined) throw new Error('the gateway recorded no finished stream');
  return { busyMs, longTasks, longTaskStarts, openingTasks, longFrames, finalDelayMs: finalAt - lastByte };
}

/**
 * Starts measuring `page`: its main-thread busy time from now (read by the returned function),
 * and its long tasks from now, the same window (those before, its opening, are reported apart).
 */
async function startMeasuring(page: Page, context: Parameters<typeof taskDuration>[1]): Promise<() => Promise<number>> {
  const busy = await taskDuration(page, context);
  await page.evaluate('window.__measureFrom = performance.now()');
  return busy;
}

/**
 * From the gateway sending a reply's first words to the frame that shows them, on `page`; and,
 * where the send was a key press (ours), from Enter to that frame: what the user waits for, the
 * request's way to the gateway included.
 */
async function firstWordsDelay(page: Page, gateway: ReferenceGateway): Promise<{ delay: number; fromEnter: number | undefined }> {
  // The page notes the moment itself; polled rarely, so the polling does not compete with it.
  await pollPage(page, 'window.__firstAt !== undefined', 30_000, 100);
  const { firstAt, enterAt } = await page.evaluate('({ firstAt: window.__firstAt, enterAt: window.__enterAt })') as { firstAt: number; enterAt: number | undefined };
  const firstWords = gateway.streamFirstWords.at(-1);
  if (firstWords === undefined) throw new Error('the gateway recorded no first words');
  return { delay: firstAt - firstWords, fromEnter: enterAt === undefined ? undefined : firstAt - enterAt };
}

const FLOOR_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title>
<style>body{font:14px/1.5 system-ui;margin:12px;width:396px}</style></head><body><main id="out"></main>
<script>${APPEND_STREAM}
async function run(baseUrl, key, prompt, onDone) {
  await appendStream(document.getElementById('out'), baseUrl, key, 'markdown-1', prompt);
  onDone();
}
</script></body></html>`;

export async function benchStreamingRender(): Promise<Figure[]> {
  build('e2e');
  const text = longMarkdown(REPLY_BYTES);
  const chunkChars = Math.ceil(Array.from(text).length / DELTAS);
  // The last line ("> Note N: …") is unique to the end of the reply; markdown drops its "> ".
  const finalTail = (text.trimEnd().split('\n').at(-1) ?? '').replace(/^>\s*/, '');
  const gateway = await startReferenceGateway({ pace: { delayMs: DELTA_MS, chunkChars } });
  const floorServer = await servePage(FLOOR_PAGE);
  const floorUrl = floorServer.url;
  const ext = await launchExtension();
  const prompt = `write ${REPLY_BYTES / 1024} kB`;
  try {
    // Ours: the popup's chat view, fed by the background over the runs port.
    const setup = await ext.open('options.html');
    await writeSettings(setup, profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey, { defaultModel: 'markdown-1' }));
    await setup.close();
    // Every measured page: popup size, instrumented before it loads.
    const measuredPage = async (url: string, tail = finalTail): Promise<Page> => {
      const page = await ext.context.newPage();
      await page.setViewportSize({ width: 420, height: 600 });
      await page.addInitScript({ content: instrument(tail) });
      await page.goto(url);
      return page;
    };
    const newPopupChat = async (tail = finalTail): Promise<Page> => {
      const page = await measuredPage(`chrome-extension://${ext.extensionId}/popup.html`, tail);
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.waitForTimeout(500);
      return page;
    };
    const floorPage = async (tail = finalTail): Promise<Page> => {
      const page = await measuredPage(floorUrl, tail);
      await page.waitForTimeout(300);
      return page;
    };

    // Ours and the floor take turns, after one unmeasured run of each: the first page a fresh
    // browser shows pays for the browser warming up (about 0.5 s here), which is neither
    // renderer's cost, and which would otherwise fall on whichever ran first.
    const oursOnce = async (): Promise<{ run: Run; rendered: number; highlighted: number; formulas: number; memory: Awaited<ReturnType<typeof pageMemory>> }> => {
      const ours = await newPopupChat();
      const oursBusy = await startMeasuring(ours, ext.context);
      await ours.getByRole('textbox', { name: 'Message', exact: true }).fill(prompt);
      const ended = gateway.streamEnds.length;
      await ours.keyboard.press('Enter');
      const run = await collect(ours, oursBusy, gateway, ended, OURS_FINAL);
      const reply = ours.getByRole('article', { name: 'Assistant message' });
      const rendered = await reply.locator('pre code').count();
      const highlighted = await reply.locator('pre code:has(span[class^="hljs-"])').count();
      const formulas = await reply.locator('.katex').count();
      const memory = await pageMemory(ours);
      await ours.close();
      return { run, rendered, highlighted, formulas, memory };
    };
    // Floor: the same stream appended as plain-text lines.
    const floorOnce = async (): Promise<Run> => {
      const floor = await floorPage();
      const floorBusy = await startMeasuring(floor, ext.context);
      const ended = gateway.streamEnds.length;
      await floor.evaluate(`run(${JSON.stringify(gateway.baseUrl)}, ${JSON.stringify(gateway.demoKey)}, ${JSON.stringify(prompt)}, () => {})`);
      const run = await collect(floor, floorBusy, gateway, ended, FLOOR_FINAL);
      await floor.close();
      return run;
    };
    const oursCold = await oursOnce();
    const floorCold = await floorOnce();
    const oursRuns: Awaited<ReturnType<typeof oursOnce>>[] = [];
    const floorRuns: Run[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      oursRuns.push(await oursOnce());
      floorRuns.push(await floorOnce());
    }
    // The run of median busy time (ROUNDS is odd, so it is one of the runs).
    const middle = <T,>(runs: T[], busy: (run: T) => number): T => {
      const run = [...runs].sort((a, b) => busy(a) - busy(b))[Math.floor(runs.length / 2)];
      if (run === undefined) throw new Error('no measured runs');
      return run;
    };
    const oursMedian = middle(oursRuns, (r) => r.run.busyMs);
    const { rendered, highlighted, formulas } = oursMedian;
    const oursRun = oursMedian.run;
    const floorRun = middle(floorRuns, (r) => r.busyMs);
    // Every run's figures, for the worst cases and the heap.
    const oursLongest = Math.max(0, ...oursRuns.flatMap((r) => r.run.longTasks));
    const memory = oursRuns.reduce((a, b) => (b.memory.page > a.memory.page ? b : a)).memory;

    // First words: a short reply, each time in a page opened for it (the first send of a
    // freshly opened popup, as users meet it), several times, because a frame is 16 ms and
    // where the words land in it varies from one send to the next.
    const oursFirst: number[] = [];
    const oursFromEnter: number[] = [];
    const floorFirst: number[] = [];
    for (let i = 0; i < FIRST_WORDS_SAMPLES; i++) {
      const page = await newPopupChat();
      await page.getByRole('textbox', { name: 'Message', exact: true }).fill(FIRST_WORDS_PROMPT);
      // The watcher runs before the send, so nothing from here lands in the measured interval.
      await page.evaluate('window.__watchFirst(\'article[aria-label="Assistant message"] .markdown\')');
      await page.keyboard.press('Enter');
      const first = await firstWordsDelay(page, gateway);
      oursFirst.push(first.delay);
      if (first.fromEnter !== undefined) oursFromEnter.push(first.fromEnter);
      await pollPage(page, '!document.querySelector(\'button[aria-label="Stop"]\')', 30_000);
      await page.close();

      const plain = await floorPage();
      const ended = gateway.streamEnds.length;
      await plain.evaluate(`run(${JSON.stringify(gateway.baseUrl)}, ${JSON.stringify(gateway.demoKey)}, ${JSON.stringify(FIRST_WORDS_PROMPT)}, () => {}); window.__watchFirst('#out')`);
      floorFirst.push((await firstWordsDelay(plain, gateway)).delay);
      await gateway.streamEnded(ended);
      await plain.close();
    }
    const oursFirstMedian = median(oursFirst);
    const all = (values: number[]): string => values.map((v) => v.toFixed(0)).join(', ');

    // A 2 MB fenced code block, ours and the floor, in large chunks.
    gateway.setPace(LONG_CODE_PACE);
    const long = longCodeBlock(LONG_CODE_KB * 1024);
    const longTail = long.text.split('\n').at(-1) ?? '';
    const oursLong = await newPopupChat(longTail);
    const oursLongBusy = await startMeasuring(oursLong, ext.context);
    await oursLong.getByRole('textbox', { name: 'Message', exact: true }).fill(LONG_CODE_PROMPT);
    const oursLongEnded = gateway.streamEnds.length;
    await oursLong.keyboard.press('Enter');
    const oursLongRun = await collect(oursLong, oursLongBusy, gateway, oursLongEnded, OURS_FINAL);
    const shownCode = await oursLong.getByRole('article', { name: 'Assistant message' }).locator('pre code').textContent();
    if (shownCode !== long.code) throw new Error('ours did not show the whole code block');
    await oursLong.close();
    const floorLong = await floorPage(longTail);
    const floorLongBusy = await startMeasuring(floorLong, ext.context);
    const floorLongEnded = gateway.streamEnds.length;
    await floorLong.evaluate(`run(${JSON.stringify(gateway.baseUrl)}, ${JSON.stringify(gateway.demoKey)}, ${JSON.stringify(LONG_CODE_PROMPT)}, () => {})`);
    const floorLongRun = await collect(floorLong, floorLongBusy, gateway, floorLongEnded, FLOOR_FINAL);
    await floorLong.close();
    const longRatio = oursLongRun.busyMs / floorLongRun.busyMs;

    const maxTask = (r: Run): number => Math.max(0, ...r.longTasks);
    const ratio = oursRun.busyMs / floorRun.busyMs;
    return [
      { label: `reply: ${(text.length / 1024).toFixed(0)} kB markdown, ${(text.match(/^```\w+$/gm) ?? []).length} code blocks (${rendered} rendered, ${highlighted} highlighted), ${formulas} formulas laid out, ${DELTAS} deltas ${DELTA_MS} ms apart`, value: '' },
      { label: `ours: main-thread busy, median of ${ROUNDS} (rendering in the worker: markdown, sanitising, highlighting, formulas)`, value: `${oursRun.busyMs.toFixed(0)} ms (all: ${all(oursRuns.map((r) => r.run.busyMs))})` },
      { label: `floor: main-thread busy, median of ${ROUNDS}, each right after one of ours`, value: `${floorRun.busyMs.toFixed(0)} ms (all: ${all(floorRuns.map((r) => r.busyMs))})` },
      { label: 'busy ratio ours / floor (medians)', value: ratio.toFixed(2), budget: 1.0, actual: ratio },
      { label: 'the unmeasured first runs, in the fresh browser: ours, floor', value: `${oursCold.run.busyMs.toFixed(0)} ms, ${floorCold.busyMs.toFixed(0)} ms` },
      { label: `ours: long tasks (> 50 ms), over all ${ROUNDS + 1} runs`, value: `${oursRuns.reduce((n, r) => n + r.run.longTasks.length, oursCold.run.longTasks.length)}, longest ${Math.max(oursLongest, maxTask(oursCold.run)).toFixed(0)} ms`, budget: 50, actual: Math.max(oursLongest, maxTask(oursCold.run)) },
      { label: 'ours: long tasks by run (the first unmeasured), ms', value: [oursCold, ...oursRuns].map((r) => `[${r.run.longTasks.map((d, i) => `${d.toFixed(0)} at ${((r.run.longTaskStarts[i] ?? 0) / 1000).toFixed(2)} s`).join(', ')}]`).join(' ') },
      { label: 'ours: long tasks before each measured send (the popup opening, its New chat; not counted above), ms', value: [oursCold, ...oursRuns].map((r) => `[${r.run.openingTasks.map((d) => d.toFixed(0)).join(', ')}]`).join(' ') },
      { label: 'ours: animation frames over 50 ms, what they held', value: [oursCold, ...oursRuns].flatMap((r, i) => r.run.longFrames.map((f) => `run ${i}: ${f}`)).join('; ') || 'none' },
      { label: 'floor: long tasks (> 50 ms)', value: `${floorRuns.reduce((n, r) => n + r.longTasks.length, floorCold.longTasks.length)}, longest ${Math.max(maxTask(floorCold), ...floorRuns.map(maxTask)).toFixed(0)} ms` },
      { label: `ours: last byte → final text on screen, rendered (median of ${ROUNDS})`, value: `${median(oursRuns.map((r) => r.run.finalDelayMs)).toFixed(0)} ms (all: ${all(oursRuns.map((r) => r.run.finalDelayMs))})`, budget: 50, actual: median(oursRuns.map((r) => r.run.finalDelayMs)) },
      { label: 'floor: last byte → final text on screen (median)', value: `${median(floorRuns.map((r) => r.finalDelayMs)).toFixed(0)} ms` },
      { label: 'ours: the popup\'s JS heap after the reply, after GC (largest of the runs)', value: `${(memory.page / 1_048_576).toFixed(1)} MB (and its render worker: ${(memory.workers / 1_048_576).toFixed(1)} MB)`, budget: 20, actual: memory.page / 1_048_576 },
      { label: `ours: first words from the gateway → on screen (median of ${FIRST_WORDS_SAMPLES} first sends)`, value: `${oursFirstMedian.toFixed(0)} ms (all: ${all(oursFirst)})`, budget: 16, actual: oursFirstMedian },
      { label: `floor: first words from the gateway → on screen (median of ${FIRST_WORDS_SAMPLES})`, value: `${median(floorFirst).toFixed(0)} ms (all: ${all(floorFirst)})` },
      // What the user waits for: the request's way out through the background included, and the
      // reference gateway answering within a few milliseconds (a real one takes far longer).
      { label: `ours: Enter → first words on screen (median of ${FIRST_WORDS_SAMPLES} first sends)`, value: `${median(oursFromEnter).toFixed(0)} ms (all: ${all(oursFromEnter)})` },
      { label: `reply: one ${(long.code.length / 1024 / 1024).toFixed(1)} MB fenced code block, ${Math.ceil(long.text.length / LONG_CODE_PACE.chunkChars)} deltas ${LONG_CODE_PACE.delayMs} ms apart`, value: '' },
      { label: 'ours: main-thread busy', value: `${oursLongRun.busyMs.toFixed(0)} ms` },
      { label: 'floor: main-thread busy', value: `${floorLongRun.busyMs.toFixed(0)} ms` },
      { label: 'busy ratio ours / floor', value: longRatio.toFixed(2), budget: 1.5, actual: longRatio },
      // The issue's bound for a reply of megabytes: no frame over 100 ms.
      { label: 'ours: long tasks (> 50 ms)', value: `${oursLongRun.longTasks.length}, longest ${maxTask(oursLongRun).toFixed(0)} ms${oursLongRun.longTasks.length === 0 ? '' : ` (${oursLongRun.longTasks.map((d, i) => `${d.toFixed(0)} at ${((oursLongRun.longTaskStarts[i] ?? 0) / 1000).toFixed(2)} s`).join(', ')})`}`, budget: 100, actual: maxTask(oursLongRun) },
      { label: 'ours: animation frames over 50 ms, what they held', value: oursLongRun.longFrames.join('; ') || 'none' },
      { label: 'floor: long tasks (> 50 ms)', value: `${floorLongRun.longTasks.length}, longest ${maxTask(floorLongRun).toFixed(0)} ms` },
      { label: 'ours: last byte → final text on screen', value: `${oursLongRun.finalDelayMs.toFixed(0)} ms` },
      { label: 'floor: last byte → final text on screen', value: `${floorLongRun.finalDelayMs.toFixed(0)} ms` },
    ];
  } finally {
    await ext.close();
    await gateway.close();
    await floorServer.close();
  }
}

/** Timing helpers for `npm run bench`: interleaved runs in one process, medians, budgets. */

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

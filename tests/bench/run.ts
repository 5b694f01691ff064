/**
 * `npm run bench`: prints each figure, and for figures with a budget whether it holds.
 * Exits non-zero when a budget is exceeded.
 */
import type { Figure } from './measure';
import { benchStreamDecoding } from './stream-decoding';

const benches: { title: string; run: () => Promise<Figure[]> }[] = [
  { title: 'Stream decoding (20 MB recorded chat stream)', run: benchStreamDecoding },
];

let over = 0;
for (const bench of benches) {
  console.log(`\n${bench.title}`);
  for (const figure of await bench.run()) {
    let verdict = '';
    if (figure.budget !== undefined && figure.actual !== undefined) {
      const ok = figure.actual <= figure.budget;
      if (!ok) over++;
      verdict = ok ? `  (budget ≤ ${figure.budget}: ok)` : `  (budget ≤ ${figure.budget}: OVER)`;
    }
    console.log(`  ${figure.label}${figure.value === '' ? '' : `: ${figure.value}`}${verdict}`);
  }
}
if (over > 0) {
  console.error(`\n${over} figure(s) over budget.`);
  process.exit(1);
}

/**
 * `npm run bench [-- name …]`: prints each figure, and for figures with a budget whether it
 * holds. Exits non-zero when a budget is exceeded. Names: decoding, popup, rendering, opening, sidepanel, workspace, compare, images, sync, voice, files, readability.
 */
import type { Figure } from './measure';
import { benchCompare, benchReadability } from './compare';
import { benchImages } from './images';
import { benchPopup } from './popup';
import { benchSidePanel } from './sidepanel';
import { benchStreamDecoding } from './stream-decoding';
import { benchSavedOpen } from './saved-open';
import { benchStreamingRender } from './streaming-render';
import { benchWorkspace } from './workspace';
import { benchSync } from './sync';
import { benchVoice } from './voice';
import { benchFiles } from './files';

const benches: { name: string; title: string; run: () => Promise<Figure[]> }[] = [
  { name: 'decoding', title: 'Stream decoding (20 MB recorded stream per interface, Node)', run: benchStreamDecoding },
  { name: 'popup', title: 'Popup start (production JS size; Chromium, e2e build)', run: benchPopup },
  { name: 'rendering', title: 'Streaming render (Chromium, e2e build)', run: benchStreamingRender },
  { name: 'opening', title: 'Opening a saved conversation of 200 code blocks (Chromium, e2e build)', run: benchSavedOpen },
  { name: 'sidepanel', title: 'Side panel with thousands (Chromium, e2e build)', run: benchSidePanel },
  { name: 'workspace', title: 'Chat page with a year of history (Chromium, e2e build)', run: benchWorkspace },
  { name: 'compare', title: 'Four models compared at once (Chromium, e2e build)', run: benchCompare },
  { name: 'images', title: 'Images: a 4 MB chat-model image streamed; a conversation of 50 generated images opened (Chromium, e2e build)', run: benchImages },
  { name: 'sync', title: 'Sync: a year of history up to WebDAV and down to a fresh profile (Chromium, e2e build, Apache mod_dav)', run: benchSync },
  { name: 'voice', title: 'Voice: Read aloud to speech playing (Chromium, e2e build, the reference gateway\'s tts-1)', run: benchVoice },
  { name: 'files', title: 'Files: a 100-page PDF attached in the popup (Chromium, e2e build)', run: benchFiles },
  { name: 'readability', title: 'Ask about this page: reading a 2 MB page (Chromium, e2e build)', run: benchReadability },
];

const wanted = process.argv.slice(2);
let over = 0;
for (const bench of benches.filter((b) => wanted.length === 0 || wanted.includes(b.name))) {
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
  process.exitCode = 1;
}

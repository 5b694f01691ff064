/**
 * Bench: voice (issue 32). "Read aloud" on a reply in the popup (400×600, e2e build), against the
 * reference gateway's tts-1: from the click to the first audio playing (the page's own clock:
 * the click's event and the audio element's `playing`), each time in a freshly opened popup (no
 * audio kept from before, the reader's code loaded on that first click). Budget ≤ 1.5 s.
 */
import { AUDIO_MODELS } from '../gateway/audio';
import { median, pollPage, type Figure } from './measure';
import { inFreshPopups } from './fresh-popups';

const SAMPLES = 7;

/** Installed before the popup loads: when Read aloud was clicked, and when audio first played. */
const WATCH = `
  document.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('button[aria-label="Read aloud"]')) window.__clickAt = performance.now();
  }, true);
  document.addEventListener('playing', () => { window.__playingAt ??= performance.now(); }, true);`;

export async function benchVoice(): Promise<Figure[]> {
  const delays: number[] = [];
  await inFreshPopups(SAMPLES, WATCH, async (page, i) => {
    // A different reply each time: nothing of it was spoken before.
    const text = `Sample ${i}: the first sentence is short. The second one follows it, and a third closes the reply.`;
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
    await page.keyboard.press('Enter');
    const reply = page.getByRole('article', { name: 'Assistant message' }).last();
    await reply.getByText(`Echo: ${text}`).waitFor();
    await reply.getByRole('button', { name: 'Read aloud' }).click();
    await pollPage(page, 'window.__playingAt !== undefined', 15_000, 20);
    const { clickAt, playingAt } = await page.evaluate('({ clickAt: window.__clickAt, playingAt: window.__playingAt })') as { clickAt: number; playingAt: number };
    delays.push(playingAt - clickAt);
    await reply.getByRole('button', { name: 'Stop reading' }).click();
  }, { extraModels: AUDIO_MODELS });
  const all = delays.map((d) => d.toFixed(0)).join(', ');
  const typical = median(delays);
  return [
    { label: `Read aloud → speech playing, a fresh popup each time (median of ${SAMPLES}; the reference gateway's tts-1)`, value: `${typical.toFixed(0)} ms (all: ${all})`, budget: 1500, actual: typical },
    { label: `Read aloud → speech playing, the slowest of the ${SAMPLES}`, value: `${Math.max(...delays).toFixed(0)} ms` },
  ];
}

/**
 * Bench: the popup's initial JS (gzip, production build) and the time from opening the popup
 * to a focused composer (e2e build in Chromium, a conversation already saved).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchExtension, profileFor, writeSettings } from '../browser/harness';
import { startReferenceGateway } from '../gateway/server';
import { median, pollPage, type Figure } from './measure';

const root = resolve(import.meta.dirname, '../..');

export function build(mode: 'production' | 'e2e'): void {
  const result = spawnSync('npx', ['wxt', 'build', '--mode', mode], { cwd: root, stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`wxt build --mode ${mode} failed`);
}

/** The scripts popup.html loads before anything runs: its module entry and the modules it preloads. */
export function popupInitialScripts(dir: string): { file: string; raw: number; gzip: number }[] {
  const html = readFileSync(join(dir, 'popup.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/?([^"]+\.js)"/g)].map((m) => m[1]!);
  return files.map((file) => {
    const bytes = readFileSync(join(dir, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

/** The style sheets popup.html links. */
export function popupStyles(dir: string): { file: string; raw: number; gzip: number }[] {
  const html = readFileSync(join(dir, 'popup.html'), 'utf8');
  const files = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\/?([^"]+\.css)"|<link[^>]+href="\/?([^"]+\.css)"[^>]+rel="stylesheet"/g)].map((m) => (m[1] ?? m[2])!);
  return files.map((file) => {
    const bytes = readFileSync(join(dir, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

export async function benchPopup(): Promise<Figure[]> {
  build('production');
  const scripts = popupInitialScripts(join(root, '.output/chrome-mv3'));
  const gzip = scripts.reduce((n, s) => n + s.gzip, 0);
  const raw = scripts.reduce((n, s) => n + s.raw, 0);
  const styles = popupStyles(join(root, '.output/chrome-mv3'));
  const cssGzip = styles.reduce((n, s) => n + s.gzip, 0);

  build('e2e');
  const gateway = await startReferenceGateway();
  const ext = await launchExtension();
  const focusTimes: number[] = [];
  try {
    const setup = await ext.open('popup.html');
    await writeSettings(setup, profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey));
    await setup.reload();
    // A saved conversation, as the popup usually reopens on one.
    await setup.getByRole('textbox', { name: 'Message', exact: true }).fill('hello');
    await setup.keyboard.press('Enter');
    await setup.getByRole('article', { name: 'Assistant message' }).getByText('Echo: hello').waitFor();
    await setup.close();
    for (let i = 0; i < 7; i++) {
      const page = await ext.context.newPage();
      await page.setViewportSize({ width: 420, height: 600 });
      // Plain JavaScript text: functions compiled by tsx carry helpers the page lacks.
      await page.addInitScript({
        content: `document.addEventListener('focusin', (e) => {
          if (e.target.getAttribute('aria-label') === 'Message') window.__composerFocusedAt ??= performance.now();
        });`,
      });
      await page.goto(`chrome-extension://${ext.extensionId}/popup.html`);
      await pollPage(page, 'window.__composerFocusedAt !== undefined', 10_000);
      focusTimes.push(await page.evaluate('window.__composerFocusedAt') as number);
      await page.close();
    }
  } finally {
    await ext.close();
    await gateway.close();
  }
  const focus = median(focusTimes.slice(2));
  return [
    { label: `popup initial JS (${scripts.length} files, production build)`, value: `${(raw / 1024).toFixed(0)} kB raw, ${(gzip / 1024).toFixed(1)} kB gzip`, budget: 150, actual: gzip / 1024 },
    { label: `popup CSS (${styles.length} file${styles.length === 1 ? '' : 's'}, production build)`, value: `${(cssGzip / 1024).toFixed(1)} kB gzip`, budget: 25, actual: cssGzip / 1024 },
    { label: 'popup open → focused composer (median of 5 after 2 warm-ups)', value: `${focus.toFixed(0)} ms (all: ${focusTimes.map((t) => t.toFixed(0)).join(', ')})` },
  ];
}

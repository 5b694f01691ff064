/**
 * `npm start`: build the extension, start the bundled reference gateway, and open the
 * extension against it in Chromium, so a newcomer sees it work with no account.
 *
 * Flags: --port N (gateway port, default 8787), --headless (open the browser without a window,
 * e.g. to check this script on a server), --no-browser (build and serve only).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { REFERENCE_MODELS } from '../tests/gateway/models';
import { EXTENSION_DIR, launchExtension, profileFor, resetSettings } from '../tests/browser/harness';
import { startReferenceGateway } from '../tests/gateway/server';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.GATEWAY_PORT ?? '8787' },
    headless: { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
  },
});

const root = resolve(import.meta.dirname, '..');

console.log('Building the extension (local build: host access to 127.0.0.1 granted up front)…');
const build = spawnSync('npx', ['wxt', 'build', '--mode', 'e2e'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const gateway = await startReferenceGateway({ port: Number(values.port), pace: { delayMs: 15, chunkChars: 6 } });
console.log(`
Reference gateway running (a local stand-in for a new-api site; no account needed).
  Gateway address: ${gateway.siteUrl}
  Base address:    ${gateway.baseUrl}
  Demo API key:    ${gateway.demoKey}
  Models:          ${REFERENCE_MODELS.map((m) => m.id).join(', ')}
`);

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'].filter((p): p is string => p !== undefined);
const browserPath = candidates.find((p) => existsSync(p));

if (values['no-browser'] || browserPath === undefined) {
  if (browserPath === undefined) console.log('No Chromium found (set CHROMIUM_PATH, or apt-get install chromium).');
  console.log(`Load the extension by hand: open chrome://extensions, turn on Developer mode,
"Load unpacked", and choose ${EXTENSION_DIR}. Then use the gateway address and key above.
(Google-branded Chrome 137+ ignores --load-extension, so this script only drives Chromium.)`);
} else {
  const ext = await launchExtension({ headless: values.headless, executablePath: browserPath });
  // A fresh browser profile, already connected to the local gateway: nothing to set up.
  await resetSettings(ext, {
    ...profileFor(gateway.baseUrl, gateway.siteUrl, gateway.demoKey, { name: 'Local reference gateway', defaultModel: 'echo-1', actionModel: 'summarise-1' }),
  });
  const page = ext.context.pages()[0] ?? (await ext.context.newPage());
  await page.goto(`chrome-extension://${ext.extensionId}/chat.html`);
  console.log(`Chromium is open on the extension's chat page (chrome-extension://${ext.extensionId}/chat.html),
already connected to the local gateway. Try "write 5 kB" with markdown-1, or select text on a page and
right-click "Summarise with summarise-1".`);
  ext.context.on('close', () => {
    void gateway.close().then(() => process.exit(0));
  });
}
console.log('Press Ctrl+C to stop.');
const stop = (): void => {
  void gateway.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

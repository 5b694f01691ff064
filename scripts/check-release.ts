/**
 * `npm run check:release` (CI runs it after `npm test`): builds the store packages (`npm run zip`)
 * and checks them against what the stores reject, then writes the listing's words next to them.
 *
 * - names: gateway-chat-<version>-chrome.zip, -firefox.zip, -sources.zip;
 * - Firefox: Mozilla's addons-linter on the package: no error, and no warning left unexplained
 *   (EXPLAINED below says why each accepted one is harmless);
 * - Chrome: no host access at install, every permission justified in PRIVACY.md and used by the
 *   code, no remote code (no remote script, no loosened CSP, nothing imported from a URL);
 * - both: every icon the manifest names exists, at its size; no address in the built code
 *   besides those PRIVACY.md lists (so no request to any host but the configured gateway);
 * - the listing: short and long descriptions in English and Simplified Chinese (from locales/)
 *   and the permission justifications, in .output/store/.
 *
 * `--no-build` checks the packages already built.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInstance } from 'addons-linter';
import { ensureLocale, wordsFor } from '../lib/i18n/messages';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, '.output');

/** addons-linter warnings we accept, by code and file, each with the reason a reviewer would accept it. */
const EXPLAINED: { code: string; file: RegExp; why: string }[] = [
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^readability\.js$/, why: 'Mozilla\'s Readability rewrites a copy of the page (a document never shown) as it finds the article' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/styles-[\w-]+\.js$/, why: 'React DOM\'s dangerouslySetInnerHTML (the renderer, and sanitised markup only)' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/ChatView-[\w-]+\.js$/, why: 'components/chat/render/block-view.ts sets a block\'s HTML as the render worker made it (lib/render/sanitize.ts: an allow-list per renderer), by innerHTML or morphdom (which parses it in a template, inert)' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/morphdom-esm-[\w-]+\.js$/, why: 'morphdom (loaded after the page\'s first chunk) parses a growing block\'s HTML, as the render worker made it (lib/render/sanitize.ts), in a template or a range\'s fragment, inert, to update the block in place (components/chat/render/block-view.ts)' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^(assets\/render\.worker|chunks\/handler)-[\w-]+\.js$/, why: 'highlight.js\'s highlightElement (it reads an element\'s innerHTML), never called: the render worker has no DOM and highlights strings (lib/render/highlight.ts)' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/diagrams-[\w-]+\.js$/, why: 'DOMPurify parses the diagram SVG it sanitises in an inert document (components/chat/render/diagram-svg.ts)' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^chunks\/(mermaid\.core|d3-selection|chunk-[A-Z0-9]+)-[\w-]+\.js$/, why: 'Mermaid and d3 draw the diagram\'s SVG off screen (strict mode, no HTML labels); what is shown is that SVG after DOMPurify, as an image' },
  { code: 'DANGEROUS_EVAL', file: /^chunks\/(cytoscape\.esm|graphlib|chunk-[A-Z0-9]+)-[\w-]+\.js$/, why: 'lodash\'s global lookup, bundled in the graph libraries Mermaid brings: `global || self || Function(\'return this\')()`, and a page has `self`, so it is never reached' },
  { code: 'DANGEROUS_EVAL', file: /^assets\/lib-[\w-]+\.js$/, why: 'mammoth (Word documents, in the files worker only) brings underscore and a setImmediate polyfill: underscore\'s global lookup `Function(\'return this\')()` is never reached (a worker has `self`), the polyfill\'s `Function(\'\' + callback)` only takes a string, which nothing passes, and `_.template` is never called' },
  { code: 'DANGEROUS_EVAL', file: /^background\.js$/, why: 'zod\'s feature test `try { Function(\'\') } catch`, in the schemas the MCP SDK checks its messages with: the CSP refuses it, the test catches that, and zod then checks without compiling (lib/tools/mcp.ts; Ajv, which compiles, is not in the build: lib/tools/sdk/no-ajv.ts)' },
  { code: 'DANGEROUS_EVAL', file: /^assets\/pdf(\.worker)?-[\w-]+\.js$/, why: 'pdf.js (in the files worker only) compiles fonts with `new Function` only when `isEvalSupported` is on: lib/files/pdf.ts turns it off, and text extraction draws no glyphs; its feature test catches the CSP refusal' },
  { code: 'UNSAFE_VAR_ASSIGNMENT', file: /^assets\/pdf(\.worker)?-[\w-]+\.js$/, why: 'pdf.js imports `workerSrc` for its parser only when `globalThis.pdfjsWorker` is missing: lib/files/browser-readers.ts sets it to the bundled parser before any document is opened, so nothing is imported by address' },
];

function explained(code: string, file: string | undefined): string | undefined {
  return EXPLAINED.find((e) => e.code === code && file !== undefined && e.file.test(file))?.why;
}

/** Where the code uses each permission (a permission nobody uses must not be asked for). */
const USED_BY: Record<string, RegExp> = {
  // @wxt-dev/storage names the area as a string: `browser.storage[area]` with "local:" keys.
  storage: /\.storage\[|\.storage\.(local|session|onChanged)|["'`]local:/,
  activeTab: /captureVisibleTab|scripting\.executeScript/,
  scripting: /scripting\.executeScript/,
  contextMenus: /contextMenus\.(create|removeAll|onClicked)/,
  alarms: /alarms\.(create|onAlarm)/,
  sidePanel: /sidePanel/,
  identity: /identity\.(launchWebAuthFlow|getRedirectURL)/,
};

const problems: string[] = [];
const fail = (text: string): void => {
  problems.push(text);
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** A PNG's width and height (its IHDR). */
function pngSize(path: string): [number, number] {
  const bytes = readFileSync(path);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

/** The rows of the markdown table under `heading` in PRIVACY.md: first cell (backticks removed) → second. */
function privacyTable(heading: string): Map<string, string> {
  const text = readFileSync(join(ROOT, 'PRIVACY.md'), 'utf8');
  const at = text.indexOf(`## ${heading}`);
  if (at < 0) throw new Error(`PRIVACY.md has no "## ${heading}" section`);
  const section = text.slice(at + heading.length + 3).split(/\n## /)[0]!;
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || cells[1] === '' || /^-+$/.test(cells[1]!) || cells[1] === 'permission' || cells[1] === 'address') continue;
    for (const key of cells[1]!.match(/`[^`]+`/g) ?? []) rows.set(key.slice(1, -1), cells[2]!);
  }
  return rows;
}

function checkIcons(dir: string, manifest: Record<string, unknown>): void {
  const named: [string, number][] = [];
  const add = (icons: unknown): void => {
    if (icons !== null && typeof icons === 'object') for (const [size, path] of Object.entries(icons)) named.push([String(path), Number(size)]);
  };
  add(manifest.icons);
  for (const key of ['action', 'browser_action', 'sidebar_action']) {
    const entry = manifest[key] as { default_icon?: unknown; theme_icons?: { size: number; light: string; dark: string }[] } | undefined;
    add(entry?.default_icon);
    for (const theme of entry?.theme_icons ?? []) named.push([theme.light, theme.size], [theme.dark, theme.size]);
  }
  const sizes = Object.keys((manifest.icons ?? {}) as object).map(Number);
  for (const needed of [16, 32, 48, 128]) if (!sizes.includes(needed)) fail(`${dir}: the manifest lists no ${needed} px icon`);
  for (const [path, size] of named) {
    const file = join(dir, path);
    if (!existsSync(file)) fail(`${dir}: ${path} is named in the manifest but missing`);
    else if (pngSize(file).join('x') !== `${size}x${size}`) fail(`${dir}: ${path} is ${pngSize(file).join('×')}, the manifest says ${size} px`);
  }
}

/** Hosts of the addresses written in the built code (template literals' `${…}` are not addresses). */
function addressesIn(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of files(dir).filter((f) => /\.(js|html|json|css)$/.test(f))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bhttps?:\/\/(\*|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(\/[A-Za-z0-9._~\-/%]*)?/g)) {
      found.set(match[0], file.slice(dir.length + 1));
    }
  }
  return found;
}

/**
 * Whether an address is one PRIVACY.md lists: the same scheme and host (a listed `*` host is the
 * permission pattern's own `*`, never "any host"), and a path under the listed one (`/*`, or no
 * path, for any path).
 */
function listed(address: string, patterns: readonly string[]): boolean {
  const parts = (url: string) => /^(https?):\/\/([^/]+)(\/.*)?$/.exec(url);
  const a = parts(address);
  if (a === null) return false;
  return patterns.some((pattern) => {
    const p = parts(pattern);
    if (p === null || p[1] !== a[1] || p[2] !== a[2]) return false;
    const path = p[3] ?? '/*';
    const own = a[3] ?? '/';
    return path.endsWith('*') ? own.startsWith(path.slice(0, -1)) || own === path.slice(0, -2) : own === path;
  });
}

function checkAddresses(dir: string): void {
  const patterns = [...privacyTable('Addresses in the code').keys()];
  for (const [address, file] of addressesIn(dir)) {
    if (!listed(address, patterns)) fail(`${dir}: ${file} contains ${address}, which PRIVACY.md does not list under "Addresses in the code"`);
  }
  for (const file of files(dir).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8');
    const call = /\b(fetch|sendBeacon|EventSource|WebSocket|importScripts|import)\(\s*["'`]https?:/.exec(text);
    if (call !== null) fail(`${dir}: ${file} calls ${call[1]} on a fixed address`);
  }
}

function checkChrome(dir: string, manifest: Record<string, unknown>): void {
  if (manifest.manifest_version !== 3) fail('Chrome: the manifest is not MV3');
  if (manifest.host_permissions !== undefined) fail(`Chrome: host access at install (${JSON.stringify(manifest.host_permissions)}); the gateway's origin is asked for at runtime`);
  const justified = privacyTable('Permissions');
  const code = files(dir).filter((f) => f.endsWith('.js')).map((f) => readFileSync(f, 'utf8')).join('\n');
  for (const permission of (manifest.permissions ?? []) as string[]) {
    if (!justified.has(permission)) fail(`Chrome: the permission ${permission} has no justification in PRIVACY.md`);
    const used = USED_BY[permission];
    if (used === undefined) fail(`Chrome: no check says where ${permission} is used (USED_BY in scripts/check-release.ts)`);
    else if (!used.test(code)) fail(`Chrome: the permission ${permission} is asked for but never used`);
  }
  const csp = JSON.stringify(manifest.content_security_policy ?? '');
  if (/unsafe-eval|https?:|\*/.test(csp)) fail(`Chrome: the content security policy is loosened (${csp})`);
  for (const html of files(dir).filter((f) => f.endsWith('.html'))) {
    if (/<script[^>]+src=["']https?:/i.test(readFileSync(html, 'utf8'))) fail(`Chrome: ${html} loads a remote script`);
  }
}

async function lintFirefox(zip: string): Promise<string[]> {
  const linter = createInstance({
    config: { _: [zip], logLevel: 'fatal', stack: false, pretty: false, warningsAsErrors: false, metadata: false, output: 'none', boring: true, selfHosted: false, privileged: false },
    runAsBinary: false,
  });
  const { errors, warnings } = await linter.run();
  for (const e of errors) fail(`Firefox (addons-linter): ${e.code} ${e.message} ${e.file ?? ''}`);
  const accepted: string[] = [];
  for (const w of warnings) {
    const why = explained(w.code, w.file);
    if (why === undefined) fail(`Firefox (addons-linter): unexplained warning ${w.code} ${w.message} ${w.file ?? ''}`);
    else accepted.push(`${w.code} in ${w.file ?? '?'}: ${why}`);
  }
  return accepted;
}

async function writeListing(version: string): Promise<void> {
  const dir = join(OUT, 'store');
  mkdirSync(dir, { recursive: true });
  for (const [locale, name] of [['en', 'en'], ['zh-CN', 'zh_CN']] as const) {
    await ensureLocale(locale);
    const w = wordsFor(locale);
    const words = { app: { name: w.t('app.name') }, store: { short: w.t('store.short'), long: w.t('store.long') } };
    if (words.store.short.length > 132) fail(`listing: the ${locale} short description is ${words.store.short.length} characters; the Chrome Web Store takes 132`);
    writeFileSync(join(dir, `description-${name}.txt`), `${words.app.name} ${version}\n\n${words.store.short}\n\n${words.store.long}\n`);
  }
  const justified = privacyTable('Permissions');
  writeFileSync(join(dir, 'permissions.md'), `# Permission justifications (Gateway Chat ${version})\n\n${[...justified].map(([p, why]) => `- \`${p}\`: ${why}`).join('\n')}\n`);
}

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
if (!process.argv.includes('--no-build')) execSync('npm run zip', { cwd: ROOT, stdio: 'inherit' });
const zips = ['chrome', 'firefox', 'sources'].map((kind) => join(OUT, `gateway-chat-${version}-${kind}.zip`));
for (const zip of zips) if (!existsSync(zip)) fail(`missing package ${zip}`);

const chromeDir = join(OUT, 'chrome-mv3');
const firefoxDir = join(OUT, 'firefox-mv2');
const chrome = JSON.parse(readFileSync(join(chromeDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
const firefox = JSON.parse(readFileSync(join(firefoxDir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
for (const [dir, manifest] of [[chromeDir, chrome], [firefoxDir, firefox]] as const) {
  if (manifest.version !== version) fail(`${dir}: manifest version ${String(manifest.version)}, package.json ${version}`);
  checkIcons(dir, manifest);
  checkAddresses(dir);
}
checkChrome(chromeDir, chrome);
const accepted = existsSync(zips[1]!) ? await lintFirefox(zips[1]!) : [];
await writeListing(version);

console.log(`\nRelease ${version}: ${zips.map((z) => z.slice(ROOT.length + 1)).join(', ')}`);
for (const line of accepted) console.log(`  accepted: ${line}`);
if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('  addons-linter: 0 errors; Chrome manifest, icons and addresses: ok; listing written to .output/store/');

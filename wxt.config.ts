import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'wxt';
import { PREVIEW_SANDBOX_CSP } from './lib/render/preview-page';
import { sanitiserFingerprint } from './scripts/sanitiser-fingerprint';

const ICONS = { 16: 'icon/16.png', 32: 'icon/32.png', 48: 'icon/48.png', 96: 'icon/96.png', 128: 'icon/128.png' };
const TOOLBAR_SIZES = [16, 32];

/**
 * KaTeX's stylesheet, loaded with the first formula (components/chat/render/math-styles.ts),
 * comes without its @font-face rules: the page declares the same faces with its own styles
 * (components/chat/render/math-fonts.css). A stylesheet that adds fonts has the browser restyle
 * and lay out the whole page again; one that only adds KaTeX's classes restyles formulas alone.
 */
const katexWithoutFonts = {
  name: 'katex-without-fonts',
  enforce: 'pre' as const,
  transform(code: string, id: string) {
    if (!/\/katex\/dist\/katex(\.min)?\.css$/.test(id.split('?')[0] ?? '')) return undefined;
    return { code: code.replace(/@font-face\s*\{[^}]*\}/g, ''), map: null };
  },
};

// Least privilege: no host access at install. The gateway's origin is requested at runtime
// (optional_host_permissions) when the user saves a profile. The e2e build, which browser
// tests load, is pre-granted the loopback reference gateway because a headless browser
// cannot answer the permission prompt.
export default defineConfig({
  // @wxt-dev/i18n turns locales/*.json into the manifest's _locales (name, description, commands);
  // the pages read the same files themselves (lib/i18n), so the user's language choice applies.
  modules: ['@wxt-dev/module-react', '@wxt-dev/i18n/module'],
  // `npm run zip`: gateway-chat-<version>-chrome.zip, -firefox.zip and, for Firefox's reviewers,
  // -sources.zip (the repository as committed, without test output).
  zip: { excludeSources: ['test-results/**', '.output/**'] },
  // The changelog and the privacy statement travel inside the extension, as plain text the
  // options page's About section opens (no address outside the extension is needed).
  hooks: {
    // The render lab (entrypoints/render-lab) lets browser tests drive the reply enhancers on an
    // extension page; only the e2e build has it.
    'entrypoints:found': (wxt, infos) => {
      if (wxt.config.mode === 'e2e') return;
      const lab = infos.findIndex((info) => info.name === 'render-lab');
      if (lab >= 0) infos.splice(lab, 1);
    },
    'build:publicAssets': (_wxt, files) => {
      files.push({ absoluteSrc: resolve(import.meta.dirname, 'CHANGELOG.md'), relativeDest: 'CHANGELOG.txt' });
      files.push({ absoluteSrc: resolve(import.meta.dirname, 'PRIVACY.md'), relativeDest: 'PRIVACY.txt' });
    },
  },
  vite: ({ mode }) => {
    // The e2e build differs from production only by its pre-granted loopback host: same
    // React production bundle, so tests and benches measure what users run.
    if (mode === 'e2e') process.env.NODE_ENV = 'production';
    return {
      plugins: [tailwindcss(), katexWithoutFonts],
      // Which sanitiser this build has: saved renderings are read back only by the same one (lib/render/cache.ts).
      define: { __SANITISER__: JSON.stringify(sanitiserFingerprint()) },
      // The MCP SDK's client imports its Ajv validator for the default it never uses here (it
      // compiles with `new Function`): lib/tools/sdk/no-ajv.ts stands in, so Ajv is not shipped.
      resolve: { alias: [{ find: /^\.\.\/validation\/ajv-provider\.js$/, replacement: resolve(import.meta.dirname, 'lib/tools/sdk/no-ajv.ts') }] },
      // The render worker (lib/render/worker) loads grammars, KaTeX and the like on first use:
      // an ES module worker, so its dynamic imports are chunks of their own.
      worker: { format: 'es' },
      // A page's own scripts are preloaded by its HTML; a dynamic import (the database, the
      // dialogs, the markdown renderer) fetches what it needs itself, instead of a preload link
      // added to the page for each of its chunks while the page starts. No polyfill for
      // `modulepreload`: every browser we support (Chromium, Firefox 140+) has it.
      // A font is its own file, never inlined into the page's styles (which every page loads): the
      // browser fetches it only when text asks for it (KaTeX's, components/chat/render/math-fonts.css).
      build: { assetsInlineLimit: (file: string) => (/\.woff2?$/.test(file) ? false : undefined), modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) } },
    };
  },
  manifest: ({ mode, browser, manifestVersion }) => ({
    default_locale: 'en',
    name: '__MSG_app_name__',
    description: '__MSG_app_description__',
    // Drawn from assets/*.svg by `npm run icons` (scripts/icons.ts). The toolbar shows the
    // coloured icon (it reads on light and dark toolbars alike); Firefox, which lets a theme pick,
    // gets the one-colour mark in a dark and a light glyph.
    icons: ICONS,
    [manifestVersion === 2 ? 'browser_action' : 'action']: {
      default_icon: { 16: 'icon/16.png', 32: 'icon/32.png' },
      ...(browser === 'firefox'
        ? { theme_icons: TOOLBAR_SIZES.map((size) => ({ size, dark: `icon/toolbar-dark-${size}.png`, light: `icon/toolbar-light-${size}.png` })) }
        : {}),
    },
    // activeTab + scripting: the right-click actions, "Ask about this page", their shortcuts and
    // "capture visible tab" reach the page the user is looking at only when the user asks; no
    // content script is injected into every page. alarms: sync's periodic round (issue 31).
    // identity: the sign-in window of an MCP server that asks for OAuth (issue 33; no prompt, no warning).
    permissions: ['storage', 'activeTab', 'contextMenus', 'scripting', 'alarms', 'identity'],
    commands: {
      ...(browser === 'firefox'
        ? { _execute_sidebar_action: { suggested_key: { default: 'Alt+Shift+G' }, description: '__MSG_manifest_openSidebar__' } }
        : { 'open-side-panel': { suggested_key: { default: 'Alt+Shift+G' }, description: '__MSG_manifest_openPanel__' } }),
      'run-default-action': { suggested_key: { default: 'Alt+Shift+S' }, description: '__MSG_manifest_runAction__' },
      'ask-about-page': { suggested_key: { default: 'Alt+Shift+A' }, description: '__MSG_manifest_askPage__' },
    },
    // MV2 (Firefox) has no optional_host_permissions: host patterns go in optional_permissions.
    ...(manifestVersion === 3
      ? { optional_host_permissions: ['https://*/*', 'http://*/*'] }
      : { optional_permissions: ['https://*/*', 'http://*/*'] }),
    // The preview page (entrypoints/preview.sandbox, Chromium only) runs code from replies: its
    // sandbox and rules are in lib/render/preview-page.ts. WXT lists it in sandbox.pages.
    ...(manifestVersion === 3 ? { content_security_policy: { sandbox: PREVIEW_SANDBOX_CSP } } : {}),
    ...(mode === 'e2e' ? { host_permissions: ['http://127.0.0.1/*'] } : {}),
    ...(browser === 'firefox'
      // Nothing is sent to us or to any third party: what leaves the browser goes, at the user's
      // direction, to the gateway the user configured (see PRIVACY.md). Firefox states that in its
      // install prompt from 140 (ESR 140), 142 on Android.
      ? { browser_specific_settings: { gecko: { id: 'gateway-chat@example.org', strict_min_version: '140.0', data_collection_permissions: { required: ['none'] } }, gecko_android: { strict_min_version: '142.0' } } }
      : {}),
  }),
});

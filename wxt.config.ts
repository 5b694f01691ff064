import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'wxt';

// Least privilege: no host access at install. The gateway's origin is requested at runtime
// (optional_host_permissions) when the user saves a profile. The e2e build, which browser
// tests load, is pre-granted the loopback reference gateway because a headless browser
// cannot answer the permission prompt.
export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  vite: ({ mode }) => {
    // The e2e build differs from production only by its pre-granted loopback host: same
    // React production bundle, so tests and benches measure what users run.
    if (mode === 'e2e') process.env.NODE_ENV = 'production';
    return { plugins: [tailwindcss()] };
  },
  manifest: ({ mode, browser, manifestVersion }) => ({
    name: 'Gateway Chat',
    description: 'Chat with the models of your chat-completions gateway (new-api, one-api, OpenRouter, …): popup, side panel, right-click.',
    // activeTab + scripting: the right-click actions, their shortcut and "capture visible tab"
    // reach the page the user is looking at only when the user asks; no content script is
    // injected into every page.
    permissions: ['storage', 'activeTab', 'contextMenus', 'scripting'],
    commands: {
      ...(browser === 'firefox'
        ? { _execute_sidebar_action: { suggested_key: { default: 'Alt+Shift+G' }, description: 'Open the Gateway Chat sidebar' } }
        : { 'open-side-panel': { suggested_key: { default: 'Alt+Shift+G' }, description: 'Open the Gateway Chat side panel' } }),
      'run-default-action': { suggested_key: { default: 'Alt+Shift+S' }, description: 'Run the first Gateway Chat action on the selected text' },
    },
    // MV2 (Firefox) has no optional_host_permissions: host patterns go in optional_permissions.
    ...(manifestVersion === 3
      ? { optional_host_permissions: ['https://*/*', 'http://*/*'] }
      : { optional_permissions: ['https://*/*', 'http://*/*'] }),
    ...(mode === 'e2e' ? { host_permissions: ['http://127.0.0.1/*'] } : {}),
    ...(browser === 'firefox'
      ? { browser_specific_settings: { gecko: { id: 'gateway-chat@example.org', strict_min_version: '128.0' } } }
      : {}),
  }),
});

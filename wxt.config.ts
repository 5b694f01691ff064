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
    return {};
  },
  manifest: ({ mode, browser, manifestVersion }) => ({
    name: 'Gateway Chat',
    description: 'Chat with the models of your chat-completions gateway (new-api, one-api, OpenRouter, …): popup, side panel, right-click.',
    // activeTab: "capture visible tab" (and, later, the right-click actions) act on the page
    // the user is looking at only when the user asks.
    permissions: ['storage', 'activeTab'],
    commands: browser === 'firefox'
      ? { _execute_sidebar_action: { suggested_key: { default: 'Alt+Shift+G' }, description: 'Open the Gateway Chat sidebar' } }
      : { 'open-side-panel': { suggested_key: { default: 'Alt+Shift+G' }, description: 'Open the Gateway Chat side panel' } },
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

import { browser } from 'wxt/browser';
import { wireActions } from '@/lib/actions/actions.adapter';
import { withMemoryFallback } from '@/lib/conversations/fallback-store';
import { noteMemoryMode } from '@/lib/conversations/memory-mode.adapter';
import { createGatewayClient, priceOf } from '@/lib/gateway';
import { handleRequest, serveAccessPort, serveRunsPort } from '@/lib/protocol/handlers';
import { ACCESS_PORT, RUNS_PORT } from '@/lib/protocol/messages';
import { fromOwnPage } from '@/lib/protocol/senders';
import { createKeepAlive } from '@/lib/runs/keep-alive.adapter';
import { RunManager } from '@/lib/runs/run-manager';
import { backgroundToolHost, listServerTools, signInServer } from '@/lib/tools/tools.adapter';
import { openInSidePanel } from '@/lib/surfaces/open.adapter';
import { runSyncInBackground } from '@/lib/sync/background.adapter';
import { gatewayLimitsFrom } from '@/lib/settings/schema';
import { keepGatewayAccess } from '@/lib/settings/access-keeper.adapter';
import { loadCatalogue, loadPricing, loadSettings, loadUnservedApis, restrictStorageToExtension, saveUnservedApi, watchCatalogue, watchSettings } from '@/lib/settings/storage.adapter';
import { modelLookup } from '@/lib/catalogue/model-lookup';

export default defineBackground(() => {
  // Settings hold API keys: no script injected into a web page may read them.
  void restrictStorageToExtension();
  const own = { id: browser.runtime.id, root: browser.runtime.getURL('/') };
  const access = keepGatewayAccess();
  // A database that will not open leaves the conversations in this worker's memory: the user
  // still chats (pages show the runs' messages), and the worker stays up to keep them.
  // Pages are told (session storage), so they keep each run's messages on screen and say why;
  // a new worker starts on the database again.
  void noteMemoryMode(undefined);
  const store = withMemoryFallback({
    onFallback: (why) => {
      createKeepAlive()(1);
      void noteMemoryMode(why);
    },
  });
  // Each send asks about its model more than once: the catalogue is read once, then kept as written.
  const models = modelLookup(loadCatalogue, watchCatalogue);
  const runs = new RunManager({
    store,
    // A new worker has no runs: replies left "streaming" by the previous one were cut short.
    // No run starts before they are marked, so a new reply is never mistaken for one of them.
    ready: store.markStreamingInterrupted().catch(() => undefined),
    loadSettings: async () => (await loadSettings()).settings,
    clientFor: (profile, settings) => createGatewayClient({ baseUrl: profile.baseUrl, siteUrl: profile.siteUrl, apiKey: profile.apiKey, limits: gatewayLimitsFrom(settings) }),
    onActiveRunsChange: createKeepAlive(),
    // The catalogue says which interface a model prefers (new-api's supported_endpoint_types).
    modelInfo: (profileId, model) => models.info(profileId, model),
    // A gateway that lists an interface it does not serve is remembered (a day, at its address).
    unservedApis: loadUnservedApis,
    // Tools (issue 33): MCP servers, web search, pages; each call waits for the user unless always allowed.
    tools: backgroundToolHost(access),
    noteUnserved: saveUnservedApi,
    // An image's price (per call) from the price list the pages fetched, when it is here.
    priceOf: async (profile, model) => {
      const cache = await loadPricing(profile.id);
      return cache === undefined || cache.baseUrl !== profile.baseUrl ? undefined : priceOf(cache.prices, model);
    },
  });


  // Chrome's shortcut (Firefox opens its sidebar with the built-in _execute_sidebar_action).
  browser.commands?.onCommand.addListener((command, tab) => {
    if (command === 'open-side-panel' && tab?.windowId !== undefined) void openInSidePanel(undefined, tab.windowId);
  });

  // Sync (issue 31): off until the options page sets it up.
  const sync = runSyncInBackground(store);

  const actions = wireActions({
    runs,
    store,
    loadSettings: async () => (await loadSettings()).settings,
    watchSettings: (onChange) => {
      watchSettings((parsed) => onChange(parsed.settings));
    },
  });
  // Only the extension's own pages command it (never a script injected into a page, whose id is ours too).
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!fromOwnPage(sender, own)) return false;
    void handleRequest(runs, message, { askPage: actions.askPage, syncNow: () => sync.now(), syncLeave: () => sync.leave(), listTools: listServerTools, signInTools: signInServer }).then(sendResponse);
    return true;
  });

  // Browser tests dispatch the menu's click and the shortcut directly (native menus and
  // shortcuts cannot be driven by automation); only the e2e build exposes them.
  if (import.meta.env.MODE === 'e2e') {
    Object.assign(globalThis, { __gatewayChatTest: actions });
    // Firefox's WebDriver BiDi may not navigate a tab to moz-extension:// pages: the e2e build
    // opens its options page itself, from which the Firefox tests open the others.
    if (import.meta.env.FIREFOX) browser.runtime.onInstalled.addListener(() => void browser.tabs.create({ url: browser.runtime.getURL('/options.html') }));
  }

  browser.runtime.onConnect.addListener((port) => {
    if (!fromOwnPage(port.sender, own)) {
      port.disconnect();
      return;
    }
    if (port.name === RUNS_PORT) serveRunsPort(runs, port);
    else if (port.name === ACCESS_PORT) serveAccessPort(access, port);
  });
});

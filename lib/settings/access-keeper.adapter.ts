/**
 * The background's keeper of host access (`./access-keeper.ts`) with the browser's parts: the
 * addresses in use (the gateways', sync's storage, the tools' MCP servers and search provider),
 * the granted patterns, giving one back. Background only (pages ask for access through
 * `./permissions.adapter.ts`, which reads none of these configs).
 */
import { browser } from 'wxt/browser';
import { AccessKeeper } from './access-keeper';
import { loadSettings, watchSettings } from './storage.adapter';
import { syncOrigin } from '../sync/config';
import { loadSyncConfig, watchSyncConfig } from '../sync/sync.adapter';
import { toolAddresses } from '../tools/config';
import { loadToolConfig, watchToolConfig } from '../tools/config.adapter';

/**
 * How long a new background waits before its first reconcile: forms whose port the stopped
 * worker closed connect again within a quarter of a second, and must be heard first.
 */
const START_GRACE_MS = 2000;

/**
 * The background's keeper of host access: reconciles whenever the settings change and once
 * after it starts (access left behind by a page that closed while no background ran, or by an
 * older version). Forms hold the address they work on through it (`serveAccessPort`).
 */
export function keepGatewayAccess(): AccessKeeper {
  const keeper = new AccessKeeper({
    // The gateways' addresses, sync's storage (issue 31) when sync is set up, and the tools' MCP servers and search provider (issue 33).
    savedAddresses: async () => {
      const loaded = await loadSettings();
      if (!loaded.ok) return undefined;
      const sync = await loadSyncConfig();
      const tools = await loadToolConfig();
      return [...loaded.settings.profiles.map((p) => p.baseUrl), ...(sync === undefined ? [] : [syncOrigin(sync)]), ...toolAddresses(tools)];
    },
    granted: async () => (await browser.permissions.getAll()).origins ?? [],
    release: (pattern) => browser.permissions.remove({ origins: [pattern] }),
  });
  watchSettings(() => void keeper.reconcile());
  watchSyncConfig(() => void keeper.reconcile());
  watchToolConfig(() => void keeper.reconcile());
  setTimeout(() => void keeper.reconcile(), START_GRACE_MS);
  return keeper;
}

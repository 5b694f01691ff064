/**
 * Host access for exactly one gateway origin, asked for at runtime (optional host
 * permissions): nothing broad is granted at install, and what no profile uses any more is given
 * back (`./access-keeper.ts`). Patterns: `./origins.ts`.
 */
import { browser } from 'wxt/browser';
import { AccessKeeper } from './access-keeper';
import { originPattern as patternFor } from './origins';
import { loadSettings, watchSettings } from './storage.adapter';
import { syncOrigin } from '../sync/config';
import { loadSyncConfig, watchSyncConfig } from '../sync/sync.adapter';
import { toolAddresses } from '../tools/config';
import { loadToolConfig, watchToolConfig } from '../tools/config.adapter';

/** Firefox's match patterns take no port. */
const WITH_PORT = !import.meta.env.FIREFOX;

/**
 * How long a new background waits before its first reconcile: forms whose port the stopped
 * worker closed connect again within a quarter of a second, and must be heard first.
 */
const START_GRACE_MS = 2000;

export function originPattern(baseUrl: string): string {
  return patternFor(baseUrl, WITH_PORT);
}

/** Must be called first thing in a click handler: the browser wants a user gesture. */
export async function requestGatewayAccess(baseUrl: string): Promise<boolean> {
  try {
    return await browser.permissions.request({ origins: [originPattern(baseUrl)] });
  } catch {
    return false;
  }
}

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

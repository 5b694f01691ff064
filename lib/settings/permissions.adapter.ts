/**
 * Host access for exactly one gateway origin, asked for at runtime (optional host
 * permissions): nothing broad is granted at install, and what no profile uses any more is given
 * back (`./access-keeper.ts`, kept by the background: `./access-keeper.adapter.ts`). Patterns: `./origins.ts`.
 * Pages import this for the request alone: nothing here reads the settings, sync's or the tools' config.
 */
import { browser } from 'wxt/browser';
import { originPattern as patternFor } from './origins';

/** Firefox's match patterns take no port. */
const WITH_PORT = !import.meta.env.FIREFOX;

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

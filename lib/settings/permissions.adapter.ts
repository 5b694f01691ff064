/**
 * Host access for exactly one gateway origin, asked for at runtime (optional host
 * permissions): nothing broad is granted at install. Patterns: `./origins.ts`.
 */
import { browser } from 'wxt/browser';
import { originPattern as patternFor, patternsToRelease } from './origins';

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

/** Gives back a deleted profile's host access when no other profile uses that origin. */
export async function releaseGatewayAccess(removed: { baseUrl: string }, remaining: readonly { baseUrl: string }[]): Promise<void> {
  const origins = patternsToRelease(removed, remaining, WITH_PORT);
  if (origins.length === 0) return;
  try {
    await browser.permissions.remove({ origins });
  } catch {
    // Access granted in the manifest itself (the e2e build) cannot be removed: nothing to give back.
  }
}

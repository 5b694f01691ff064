/**
 * Host access for exactly one gateway origin, asked for at runtime (optional host
 * permissions): nothing broad is granted at install. Match patterns carry no port (Firefox
 * refuses them; Chrome then matches every port of the host).
 */
import { browser } from 'wxt/browser';

export function originPattern(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.hostname}/*`;
}

/** Must be called first thing in a click handler: the browser wants a user gesture. */
export async function requestGatewayAccess(baseUrl: string): Promise<boolean> {
  try {
    return await browser.permissions.request({ origins: [originPattern(baseUrl)] });
  } catch {
    return false;
  }
}

export async function hasGatewayAccess(baseUrl: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [originPattern(baseUrl)] });
  } catch {
    return false;
  }
}

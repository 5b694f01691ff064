/**
 * Host access patterns for gateway origins. Each profile's origin gets exactly one pattern;
 * in Chrome it names the origin's port when the address gives one (`http://host:8080/*`), so
 * access to one local gateway is not access to every service on that host. Firefox's match
 * patterns cannot carry a port, so there the pattern is the host's.
 */

export function originPattern(baseUrl: string, withPort = true): string {
  const url = new URL(baseUrl);
  const port = withPort && url.port !== '' ? `:${url.port}` : '';
  return `${url.protocol}//${url.hostname}${port}/*`;
}

/**
 * The patterns to give back when a profile is deleted: its own, unless another profile still
 * uses the same one.
 */
export function patternsToRelease(removed: { baseUrl: string }, remaining: readonly { baseUrl: string }[], withPort = true): string[] {
  const pattern = safePattern(removed.baseUrl, withPort);
  if (pattern === undefined) return [];
  return remaining.some((p) => safePattern(p.baseUrl, withPort) === pattern) ? [] : [pattern];
}

function safePattern(baseUrl: string, withPort: boolean): string | undefined {
  try {
    return originPattern(baseUrl, withPort);
  } catch {
    return undefined;
  }
}

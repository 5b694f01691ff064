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

/** A pattern of the shape we ask for (one scheme, one host, maybe a port, every path), read back. */
function gatewayPattern(pattern: string): URL | undefined {
  const shape = /^(https?):\/\/([^/*]+)\/\*$/.exec(pattern);
  if (shape === null) return undefined;
  try {
    return new URL(`${shape[1]}://${shape[2]}/`);
  } catch {
    return undefined;
  }
}

/** Whether `pattern` (one host) grants access to `address`: same scheme and host, and the port when the pattern names one. */
function covers(pattern: URL, address: string): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  return url.protocol === pattern.protocol && url.hostname === pattern.hostname && (pattern.port === '' || url.port === pattern.port);
}

/**
 * The granted host patterns to give back: those of one host (the only kind we ask for) that no
 * address in use falls under. Addresses in use are the saved profiles' and those a connection
 * form is still working on. A pattern with a wildcard host (`<all_urls>`, every https site: the
 * user can grant those in the browser's own menus) is never ours to take back.
 */
export function patternsToRelease(granted: readonly string[], inUse: readonly string[]): string[] {
  return granted.filter((pattern) => {
    const host = gatewayPattern(pattern);
    return host !== undefined && !inUse.some((address) => covers(host, address));
  });
}

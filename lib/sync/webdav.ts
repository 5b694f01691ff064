/**
 * Sync's WebDAV storage (Nextcloud, Nutstore/坚果云, Synology, Apache mod_dav): GET, PUT, MKCOL,
 * PROPFIND (depth 1) and DELETE, with Basic authentication, through fetch.
 */
import { groupsAt, textsAt, xmlTexts } from './xml';
import { encodePath, failureOf, globalFetch, REQUEST_TIMEOUT_MS, shownAddress, SyncStorageError, withOneRetry, type SyncStorage } from './storage';

export interface WebDavAccount {
  /** The server's WebDAV address (Nextcloud: …/remote.php/dav/files/{user}/). */
  address: string;
  username: string;
  password: string;
  /** The folder under it that sync uses ('' for the address itself). */
  folder: string;
}

/** The hrefs of a PROPFIND answer's responses, decoded (any namespace prefix). */
export function multistatusHrefs(xml: string): string[] {
  return textsAt(xmlTexts(xml), 'response', 'href').map((href) => {
    try {
      return decodeURIComponent(href);
    } catch {
      return href;
    }
  });
}

export class WebDavStorage implements SyncStorage {
  private readonly base: URL;
  /** The folders from the account's address down to sync's folder, each an address. */
  private readonly folders: string[];
  private readonly authorization: string;

  constructor(account: WebDavAccount, private readonly fetcher: typeof fetch = globalFetch) {
    const base = new URL(account.address.endsWith('/') ? account.address : `${account.address}/`);
    const parts = account.folder.split('/').filter((part) => part !== '');
    this.folders = parts.map((_, i) => new URL(`${encodePath(parts.slice(0, i + 1).join('/'))}/`, base).toString());
    this.base = parts.length === 0 ? base : new URL(this.folders.at(-1)!);
    const bytes = new TextEncoder().encode(`${account.username}:${account.password}`);
    this.authorization = `Basic ${btoa(String.fromCharCode(...bytes))}`;
  }

  private url(path: string): string {
    return new URL(encodePath(path), this.base).toString();
  }

  private async request(method: string, path: string, init: { body?: Uint8Array<ArrayBuffer>; headers?: Record<string, string>; url?: string } = {}): Promise<Response> {
    const url = init.url ?? this.url(path);
    try {
      return await withOneRetry(() => this.fetcher(url, {
        method,
        headers: { authorization: this.authorization, ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
        credentials: 'omit',
        cache: 'no-store',
        redirect: 'follow',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      }));
    } catch {
      throw new SyncStorageError('unreachable', shownAddress(url));
    }
  }

  private fail(response: Response, path: string): never {
    throw new SyncStorageError(failureOf(response.status), shownAddress(this.url(path)), response.status);
  }

  async read(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
    const response = await this.request('GET', path);
    if (response.status === 404) return undefined;
    if (!response.ok) this.fail(response, path);
    return new Uint8Array(await response.arrayBuffer());
  }

  async write(path: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    let response = await this.request('PUT', path, { body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    // A parent folder is missing (409 in RFC 4918; some servers say 404): made, then written again.
    if (response.status === 409 || response.status === 404) {
      await this.makeFolders(path);
      response = await this.request('PUT', path, { body: bytes, headers: { 'content-type': 'application/octet-stream' } });
    }
    if (!response.ok) this.fail(response, path);
  }

  /** The folders `path` is in, from the top (405: it is there already). */
  private async makeFolders(path: string): Promise<void> {
    const parts = path.split('/').slice(0, -1);
    // The folder sync was given may not be there yet either.
    for (const url of this.folders) {
      const made = await this.request('MKCOL', '', { url });
      if (!made.ok && made.status !== 405) throw new SyncStorageError(failureOf(made.status), shownAddress(url), made.status);
    }
    for (let i = 1; i <= parts.length; i++) {
      const folder = `${parts.slice(0, i).join('/')}/`;
      const made = await this.request('MKCOL', folder);
      if (!made.ok && made.status !== 405) this.fail(made, folder);
    }
  }

  /** A PROPFIND of `folder` (depth 1): its entries by name (sub-folders end with `/`), with the properties asked for. */
  private async propfind(folder: string, props: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const path = folder === '' || folder.endsWith('/') ? folder : `${folder}/`;
    const response = await this.request('PROPFIND', path, {
      headers: { depth: '1', 'content-type': 'application/xml; charset=utf-8' },
      body: new TextEncoder().encode(`<?xml version="1.0" encoding="utf-8"?><propfind xmlns="DAV:"><prop><resourcetype/>${props.map((p) => `<${p}/>`).join('')}</prop></propfind>`),
    });
    const entries = new Map<string, Record<string, string>>();
    if (response.status === 404) return entries;
    if (response.status !== 207) {
      if (response.ok) throw new SyncStorageError('not_storage', shownAddress(this.url(path)), response.status);
      this.fail(response, path);
    }
    const own = decodeURIComponent(new URL(this.url(path)).pathname);
    for (const entry of groupsAt(xmlTexts(await response.text()), 'response', ['href', ...props])) {
      // Hrefs may be absolute addresses or paths; both are read as paths on this server.
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(entry.href ?? '', this.base).pathname);
      } catch {
        continue;
      }
      if (!pathname.startsWith(own)) continue;
      const name = pathname.slice(own.length);
      if (name === '' || name === '/') continue;
      entries.set(name, entry);
    }
    return entries;
  }

  async list(folder: string): Promise<string[]> {
    return [...(await this.propfind(folder, [])).keys()].sort();
  }

  async tags(folder: string): Promise<Map<string, string>> {
    const tags = new Map<string, string>();
    for (const [name, props] of await this.propfind(folder, ['getetag', 'getlastmodified', 'getcontentlength'])) {
      if (name.endsWith('/')) continue;
      // Apache calls an ETag weak (W/"…") while the file is less than a second old, and strong
      // after: the same file, so the same tag.
      const etag = (props.getetag ?? '').replace(/^W\//, '');
      tags.set(name, etag || `${props.getlastmodified ?? ''} ${props.getcontentlength ?? ''}`);
    }
    return tags;
  }

  async remove(path: string): Promise<void> {
    const response = await this.request('DELETE', path);
    if (response.status === 404 || response.ok) return;
    this.fail(response, path);
  }
}

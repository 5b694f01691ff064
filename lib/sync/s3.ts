/**
 * Sync's S3-compatible storage (AWS S3, Cloudflare R2, MinIO, Backblaze B2, Aliyun OSS): GET, PUT,
 * DELETE and ListObjectsV2, path-style, signed with SigV4 by aws4fetch (a kept library: no
 * hand-written signing).
 */
import { AwsClient } from 'aws4fetch';
import { globalFetch, REQUEST_TIMEOUT_MS, withOneRetry, encodePath, failureOf, shownAddress, SyncStorageError, type SyncStorage, type SyncStorageFailure } from './storage';
import { groupsAt, textsAt, xmlTexts } from './xml';

export interface S3Account {
  /** The service's address (https://s3.us-east-1.amazonaws.com, https://{account}.r2.cloudflarestorage.com, a MinIO server). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The prefix sync uses in the bucket ('' for its top). */
  folder: string;
}

/** The failure an S3 error answer says, by its code first, then by its status. */
function s3Failure(status: number, code: string | undefined): SyncStorageFailure {
  switch (code) {
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
    case 'AuthorizationHeaderMalformed':
    case 'ExpiredToken':
      return 'unauthorized';
    case 'AccessDenied':
      return 'forbidden';
    case 'NoSuchBucket':
      return 'missing';
    case 'QuotaExceeded':
    case 'EntityTooLarge':
      return 'insufficient_storage';
    default:
      return failureOf(status);
  }
}

/** Pages of 1,000 keys: a million objects, far more than sync writes. */
const MAX_LIST_PAGES = 1_000;

export class S3Storage implements SyncStorage {
  private readonly client: AwsClient;
  private readonly bucketUrl: string;
  private readonly prefix: string;

  constructor(account: S3Account, private readonly fetcher: typeof fetch = globalFetch) {
    this.client = new AwsClient({ accessKeyId: account.accessKeyId, secretAccessKey: account.secretAccessKey, service: 's3', region: account.region });
    this.bucketUrl = `${account.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(account.bucket)}`;
    const folder = account.folder.split('/').filter((part) => part !== '').join('/');
    this.prefix = folder === '' ? '' : `${folder}/`;
  }

  private async request(method: string, url: string, body?: Uint8Array<ArrayBuffer>): Promise<Response> {
    let signed: Request;
    try {
      signed = await this.client.sign(url, { method, ...(body === undefined ? {} : { body }), headers: body === undefined ? {} : { 'content-type': 'application/octet-stream' } });
    } catch {
      throw new SyncStorageError('unexpected', shownAddress(url));
    }
    try {
      return await withOneRetry(() => this.fetcher(signed.clone(), { credentials: 'omit', cache: 'no-store', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
    } catch {
      throw new SyncStorageError('unreachable', shownAddress(url));
    }
  }

  private async fail(response: Response, url: string): Promise<never> {
    const code = textsAt(xmlTexts(await response.text().catch(() => '')), 'Error', 'Code')[0];
    throw new SyncStorageError(s3Failure(response.status, code), shownAddress(url), response.status);
  }

  private objectUrl(path: string): string {
    return `${this.bucketUrl}/${encodePath(this.prefix + path)}`;
  }

  async read(path: string): Promise<Uint8Array<ArrayBuffer> | undefined> {
    const url = this.objectUrl(path);
    const response = await this.request('GET', url);
    if (response.ok) return new Uint8Array(await response.arrayBuffer());
    if (response.status === 404) {
      const code = textsAt(xmlTexts(await response.text().catch(() => '')), 'Error', 'Code')[0];
      // A missing object is no object; a missing bucket is a setup to fix.
      if (code !== 'NoSuchBucket') return undefined;
      throw new SyncStorageError('missing', shownAddress(url), 404);
    }
    return this.fail(response, url);
  }

  async write(path: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const url = this.objectUrl(path);
    const response = await this.request('PUT', url, bytes);
    if (!response.ok) await this.fail(response, url);
  }

  /** Keys (and, with `delimiter`, folders) under `prefix`, every page of them. */
  private async listAll(prefix: string, delimiter: boolean): Promise<{ keys: string[]; folders: string[]; tags: Map<string, string> }> {
    const keys: string[] = [];
    const tags = new Map<string, string>();
    const folders: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      // A listing that never ends (a server that says "truncated" for ever) is not followed for ever.
      if (++pages > MAX_LIST_PAGES) throw new SyncStorageError('unexpected', shownAddress(this.bucketUrl));
      const query = new URLSearchParams({ 'list-type': '2', prefix });
      if (delimiter) query.set('delimiter', '/');
      if (token !== undefined) query.set('continuation-token', token);
      const url = `${this.bucketUrl}?${query.toString()}`;
      const response = await this.request('GET', url);
      if (!response.ok) await this.fail(response, url);
      const texts = xmlTexts(await response.text());
      keys.push(...textsAt(texts, 'Contents', 'Key'));
      for (const entry of groupsAt(texts, 'Contents', ['Key', 'ETag', 'LastModified', 'Size'])) {
        if (entry.key !== undefined) tags.set(entry.key, entry.etag || `${entry.lastmodified ?? ''} ${entry.size ?? ''}`);
      }
      folders.push(...textsAt(texts, 'CommonPrefixes', 'Prefix'));
      token = textsAt(texts, 'ListBucketResult', 'IsTruncated')[0] === 'true' ? textsAt(texts, 'ListBucketResult', 'NextContinuationToken')[0] : undefined;
    } while (token !== undefined);
    return { keys, folders, tags };
  }

  async list(folder: string): Promise<string[]> {
    const prefix = this.prefix + (folder === '' || folder.endsWith('/') ? folder : `${folder}/`);
    const { keys, folders } = await this.listAll(prefix, true);
    return [...keys, ...folders].map((key) => key.slice(prefix.length)).filter((name) => name !== '').sort();
  }

  async tags(folder: string): Promise<Map<string, string>> {
    const prefix = this.prefix + (folder === '' || folder.endsWith('/') ? folder : `${folder}/`);
    const { tags } = await this.listAll(prefix, true);
    return new Map([...tags].map(([key, tag]) => [key.slice(prefix.length), tag]));
  }

  async remove(path: string): Promise<void> {
    const keys = path.endsWith('/') || path === '' ? (await this.listAll(this.prefix + path, false)).keys : [this.prefix + path];
    for (const key of keys) {
      const url = `${this.bucketUrl}/${encodePath(key)}`;
      const response = await this.request('DELETE', url);
      if (!response.ok && response.status !== 404) await this.fail(response, url);
    }
  }
}

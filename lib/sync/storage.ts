/**
 * Where sync keeps its files: the user's WebDAV folder or S3 bucket, behind one small interface.
 * Paths are relative to the user's folder, `/`-separated. Failures are codes with the status and
 * the address (never a credential), for the UI to word.
 */
export type SyncStorageFailure =
  /** No answer: the address is wrong, the server is down, TLS failed, or (S3) CORS refused the page. */
  | 'unreachable'
  /** 401: the user name or password (access key) is wrong. */
  | 'unauthorized'
  /** 403: the account may not do this here. */
  | 'forbidden'
  /** The folder or bucket is not there (S3 NoSuchBucket; a WebDAV parent that cannot be made). */
  | 'missing'
  /** 507 or a quota error: the storage is full. */
  | 'insufficient_storage'
  /** 5xx. */
  | 'server'
  /** An answer that is not WebDAV's (an HTML page at the address, say). */
  | 'not_storage'
  | 'unexpected';

export class SyncStorageError extends Error {
  constructor(readonly code: SyncStorageFailure, readonly address: string, readonly status?: number) {
    super(`${code}${status === undefined ? '' : ` ${status}`} ${address}`);
    this.name = 'SyncStorageError';
  }
}

export interface SyncStorage {
  /** The object's bytes, or undefined when there is none. */
  read(path: string): Promise<Uint8Array<ArrayBuffer> | undefined>;
  /** Writes the object whole (its folders made as needed). */
  write(path: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** The names directly in `folder` (sub-folders end with `/`); none when it is not there. */
  list(folder: string): Promise<string[]>;
  /**
   * The objects directly in `folder` (not its sub-folders), each with a tag that changes whenever
   * it is written (an ETag, or its time and size): a round reads only what changed.
   */
  tags(folder: string): Promise<Map<string, string>>;
  /** Removes an object (or a folder, with what is in it); nothing when it is not there. */
  remove(path: string): Promise<void>;
}

/**
 * The global fetch, called as a plain function: a browser refuses `fetch` called as a method of
 * another object ("Illegal invocation"), which is how the clients below hold it.
 */
export const globalFetch: typeof fetch = (input, init) => fetch(input, init);

/**
 * How long one request may take before it counts as no answer (a segment is at most about
 * 8 MB: two minutes is half a megabit a second). A server that stalls cannot hold sync for ever.
 */
export const REQUEST_TIMEOUT_MS = 120_000;

/**
 * `send()` once more when it fails without an answer: a kept-alive connection the server closed
 * just as it was reused (Apache's default is 5 s idle) fails that way, and every request sync
 * makes may be sent twice (PUT, DELETE, MKCOL and reads are idempotent).
 */
export async function withOneRetry(send: () => Promise<Response>): Promise<Response> {
  try {
    return await send();
  } catch {
    return send();
  }
}

/** A `/`-separated path with each of its parts escaped for a URL. */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The failure an HTTP status says. */
export function failureOf(status: number): SyncStorageFailure {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'missing';
  if (status === 507 || status === 413) return 'insufficient_storage';
  if (status >= 500) return 'server';
  return 'unexpected';
}

/** An address as errors show it: no user name, password or query (a signature). */
export function shownAddress(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return '';
  }
}

const PROBE_TEXT = 'gateway-chat sync probe';

export type ProbeStep = 'list' | 'write' | 'read' | 'remove';

/**
 * "Test sync": lists the folder, writes a probe, reads it back and removes it; the first step that
 * fails, with why, or undefined when all worked.
 */
export async function probeStorage(storage: SyncStorage, folder = 'gateway-chat/'): Promise<{ step: ProbeStep; error: SyncStorageError | Error } | undefined> {
  const path = `${folder}probe-${crypto.randomUUID()}`;
  const steps: [ProbeStep, () => Promise<unknown>][] = [
    ['list', () => storage.list(folder)],
    ['write', () => storage.write(path, new TextEncoder().encode(PROBE_TEXT))],
    ['read', async () => {
      const back = await storage.read(path);
      if (back === undefined || new TextDecoder().decode(back) !== PROBE_TEXT) throw new SyncStorageError('unexpected', path);
    }],
    ['remove', () => storage.remove(path)],
  ];
  for (const [step, run] of steps) {
    try {
      await run();
    } catch (error) {
      return { step, error: error instanceof Error ? error : new Error(String(error)) };
    }
  }
  return undefined;
}

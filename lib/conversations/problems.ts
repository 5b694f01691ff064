/**
 * The database's failures as codes, without Dexie: a page shows them before (or without) loading
 * the store itself.
 */
/** Why the database failed, for the UI to say what to do. */
export const STORE_PROBLEMS = [
  /** The browser's storage for the extension is full. */
  'quota',
  /** A newer version of the extension changed the database; this one cannot read it. */
  'newer_version',
  /** Another tab of the extension holds an older connection open. */
  'blocked',
  /** IndexedDB is not available here (some private modes) or failed to open. */
  'unavailable',
  'unknown',
] as const;
export type StoreProblem = (typeof STORE_PROBLEMS)[number];

export function storeProblem(error: unknown): { problem: StoreProblem; detail: string } {
  const name = error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error) ? String((error as { name: unknown }).name) : '';
  const message = error instanceof Error ? error.message : String(error);
  const inner = (error as { inner?: { name?: unknown } } | undefined)?.inner?.name;
  const names = `${name} ${typeof inner === 'string' ? inner : ''}`;
  const detail = `${name === '' ? '' : `${name}: `}${message}`;
  if (/QuotaExceeded/i.test(names) || /quota/i.test(message)) return { problem: 'quota', detail };
  // SchemaError: taken to a higher version (a newer build's) without any table this one reads (open.ts).
  if (/VersionError|SchemaError/i.test(names)) return { problem: 'newer_version', detail };
  if (/Blocked/i.test(names)) return { problem: 'blocked', detail };
  if (/MissingAPI|OpenFailed|InvalidState|DatabaseClosed|Security|NotAllowed|InvalidAccess/i.test(names)) return { problem: 'unavailable', detail };
  return { problem: 'unknown', detail };
}

import Dexie from 'dexie';

/**
 * How long an open may go unanswered. The browser answers in milliseconds, or reports the open
 * blocked; an open queued behind another page's blocked one is told nothing until that one goes
 * through (the connection holding it closes), which may be never.
 */
export const OPEN_DEADLINE_MS = 10_000;

function blockedError(detail: string): Error {
  return Object.assign(new Error(detail), { name: 'BlockedError' });
}

/**
 * Opens under way: callers meanwhile share one and its answer (its check of the tables; a refusal
 * as blocked, for as long as the browser keeps the open waiting).
 */
const openings = new WeakMap<Dexie, Promise<void>>();

/**
 * Opens the database, or rejects, so that a page says what is wrong instead of waiting or
 * showing an empty history:
 * - Dexie waits for as long as the browser reports the open blocked (a connection to an older
 *   version that will not close), or does not answer it: refused instead (`BlockedError`);
 * - Dexie opens a database that another connection took to a higher version at that version,
 *   and one left without any table then fails every read: refused (`SchemaError`).
 */
export function openOrRefuse(db: Dexie, deadlineMs = OPEN_DEADLINE_MS): Promise<void> {
  const opening = openings.get(db);
  if (opening !== undefined) return opening;
  if (db.isOpen()) return Promise.resolve();
  const open = new Promise<void>((resolve, reject) => {
    const onBlocked = (event: IDBVersionChangeEvent): void => reject(blockedError(`version ${event.oldVersion} is held open; ${event.newVersion ?? 'none'} was asked for`));
    const timer = setTimeout(() => reject(blockedError(`no answer in ${deadlineMs} ms`)), deadlineMs);
    db.on('blocked', onBlocked);
    db.open().then(() => {
      const { objectStoreNames, version } = db.backendDB();
      const missing = db.tables.map((t) => t.name).filter((name) => !objectStoreNames.contains(name));
      if (missing.length === 0) return;
      db.close();
      throw new Dexie.SchemaError(`version ${version} has no ${missing.join(', ')}`);
    }).then(() => resolve(), reject).finally(() => {
      clearTimeout(timer);
      db.on('blocked').unsubscribe(onBlocked);
      openings.delete(db);
    });
  });
  openings.set(db, open);
  return open;
}

/**
 * Tables keyed by text from outside: a gateway's error code or stop reason, a catalogue's
 * endpoint types, a file's ids. An object literal answers `table['constructor']`,
 * `table['toString']` or `table['__proto__']` from Object.prototype, so a name any gateway or
 * file can send would hand out a function or an object where a word was expected (a kind that
 * is a function made `storedError` throw). Every such lookup goes through `ownValue`; a table
 * filled under outside keys starts from `keyedTable`.
 */

/** What `table` itself holds under `key`: undefined for a name only its prototype knows. */
export function ownValue<V>(table: Readonly<Partial<Record<string, V>>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * An empty table to fill under outside keys. It has no prototype, so writing `__proto__` makes
 * an entry like any other instead of replacing the prototype (and losing the entry).
 */
export function keyedTable<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A new record id (conversations, messages, profiles, presets, actions). */
export function newId(): string {
  return crypto.randomUUID();
}

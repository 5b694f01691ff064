/**
 * Presets, right-click actions (the prompt library is made of them) and, when the user ticks
 * "Sync settings", the non-secret settings (issue 31), between this device's settings and the
 * merged state. Each preset and action is a record whose one field `value` is the item (last
 * writer wins); their order is a field of the `settings` record; the settings that sync are
 * fields of it too. API keys and gateway profiles never sync.
 *
 * Deletions: the ids this device had when it last matched the state (`SettingsMemory`); one of
 * them gone since was deleted here. Everything else missing here has simply not arrived yet.
 */
import { PresetSchema, ProfileSchema, SettingsSchema, type Profile, type Settings } from '@/lib/settings/schema';
import { ActionSchema } from '@/lib/actions/schema';
import type { Change, RecordKind } from './changes';
import { isAlive, type MergedView, type SyncState } from './merge';

/** The settings that sync when the user says so (never profiles, keys or the active profile). */
export const SYNCED_SETTINGS = ['chat', 'deadlines', 'largeSelection', 'appearance', 'language', 'voice'] as const;

const SETTINGS_ID = 'settings';
interface SyncedList {
  kind: 'preset' | 'action' | 'profile';
  key: 'presets' | 'actions' | 'profiles';
  order: string;
  /** The item as it syncs. */
  out(item: { id: string }): unknown;
  /** An item that arrived, as this device keeps it (`here`: its own copy, if it has one), or undefined when it cannot be read. */
  in(value: unknown, here: { id: string } | undefined): { id: string } | undefined;
}

const parsed = <T,>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }, value: unknown): T | undefined => {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
};

/** A gateway profile as it syncs: everything but its API key. */
function withoutKey(item: { id: string }): unknown {
  const { apiKey: _key, ...rest } = item as Profile;
  return rest;
}

const LISTS: readonly SyncedList[] = [
  { kind: 'preset', key: 'presets', order: 'presetOrder', out: (item) => item, in: (value) => parsed(PresetSchema, value) },
  { kind: 'action', key: 'actions', order: 'actionOrder', out: (item) => item, in: (value) => parsed(ActionSchema, value) },
  // A profile arrives without its key: this device's own key for it stays, and a new one asks
  // for its key here before it is used (the run says so).
  {
    kind: 'profile', key: 'profiles', order: 'profileOrder', out: withoutKey,
    in: (value, here) => parsed(ProfileSchema, typeof value === 'object' && value !== null ? { ...value, apiKey: (here as Profile | undefined)?.apiKey ?? '' } : value),
  },
];

/** The presets' and actions' ids when this device last matched the merged state. */
export interface SettingsMemory {
  preset: string[];
  action: string[];
  profile?: string[];
  /** Whether its settings synced that round ("Sync settings" was on). */
  settings?: boolean;
  /** What arrived was not written yet (the round stopped first): old values here are not edits. */
  behind?: boolean;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** This device's changes to its presets, actions and (`withSettings`) settings since the state last matched them. */
export function planSettingsChanges(local: Settings, state: SyncState, stamp: () => string, known: SettingsMemory | undefined, withSettings: boolean): Change[] {
  const changes: Change[] = [];
  const settingsFields = state.fields.get(`settings:${SETTINGS_ID}`);
  // Behind (what arrived last round was not written): a value the state has since replaced is
  // what the settings still hold, not an edit made here.
  const stale = (register: { history: readonly { value: unknown }[] } | undefined, value: unknown): boolean => known?.behind === true && register !== undefined && register.history.some((h) => same(h.value, value));
  const field = (kind: RecordKind, id: string, name: string, value: unknown): void => {
    changes.push({ type: 'field', stamp: stamp(), kind, id, field: name, value: value ?? null });
  };
  for (const list of LISTS) {
    const items = local[list.key] as readonly { id: string }[];
    const ids = new Set(items.map((item) => item.id));
    for (const item of items) {
      const value = list.out(item);
      const known = state.fields.get(`${list.kind}:${item.id}`)?.get('value');
      if (known !== undefined && same(value, known.value)) continue;
      if (stale(known, value)) continue;
      field(list.kind, item.id, 'value', value);
    }
    for (const id of known?.[list.kind] ?? []) {
      if (!ids.has(id) && isAlive(state, list.kind, id)) changes.push({ type: 'delete', stamp: stamp(), kind: list.kind, id });
    }
    const order = items.map((item) => item.id);
    const knownOrder = settingsFields?.get(list.order);
    if ((knownOrder === undefined || !same(order, knownOrder.value)) && !stale(knownOrder, order)) field('settings', SETTINGS_ID, list.order, order);
  }
  // The round "Sync settings" is switched on, this device sends none: it takes what the others
  // synced (its own, perhaps never chosen, would otherwise win as the newest). From the next
  // round on, what it has that they did not sync, or changes, goes.
  const joining = known?.settings !== true;
  if (withSettings && !joining) {
    for (const name of SYNCED_SETTINGS) {
      const known = settingsFields?.get(name);
      if ((known === undefined ? local[name] !== undefined : !same(local[name], known.value)) && !stale(known, local[name])) field('settings', SETTINGS_ID, name, local[name]);
    }
  }
  return changes;
}

/**
 * The settings the merged state asks for (`undefined`: this device has them already), as a
 * change to apply to the settings as stored when it is written: an item, an order or a setting
 * changed here since `local` was read is left as it is now (it syncs next round).
 */
export function planSettingsUpdate(view: MergedView, local: Settings, withSettings: boolean): { update: ((now: Settings) => Settings) | undefined; known: SettingsMemory } {
  const settingsRecord = view.records.find((r) => r.kind === 'settings' && r.id === SETTINGS_ID)?.fields ?? {};
  const merged: Settings = { ...local };
  const known: SettingsMemory = { preset: [], action: [], profile: [], settings: withSettings };
  for (const list of LISTS) {
    const items = new Map<string, unknown>();
    const here = new Map((local[list.key] as readonly { id: string }[]).map((item) => [item.id, item]));
    for (const record of view.records) {
      if (record.kind !== list.kind) continue;
      const item = list.in(record.fields.value, here.get(record.id));
      // Not whole (its value is in a segment to come), or from a newer build this one cannot read: left out.
      if (item !== undefined && item.id === record.id) items.set(record.id, item);
    }
    // A gateway deleted elsewhere goes here only if it has no key here (its key cannot come back).
    const deleted = new Set(view.deleted.filter((d) => d.kind === list.kind && (list.kind !== 'profile' || (here.get(d.id) as Profile | undefined)?.apiKey === '')).map((d) => d.id));
    // Local items the state has not seen yet stay (they are sent this round).
    for (const item of local[list.key] as readonly { id: string }[]) if (!items.has(item.id) && !deleted.has(item.id)) items.set(item.id, item);
    const order = Array.isArray(settingsRecord[list.order]) ? (settingsRecord[list.order] as unknown[]).filter((id): id is string => typeof id === 'string') : [];
    const ids = [...new Set([...order.filter((id) => items.has(id)), ...(local[list.key] as readonly { id: string }[]).map((i) => i.id).filter((id) => items.has(id)), ...items.keys()])];
    (merged as Record<string, unknown>)[list.key] = ids.map((id) => items.get(id));
    known[list.kind] = ids;
  }
  if (withSettings) {
    for (const name of SYNCED_SETTINGS) {
      if (!(name in settingsRecord)) continue;
      // A setting this build cannot read (a newer build's value, say) is left as it is here:
      // written, it would make the whole settings refuse to save.
      const parsed = SettingsSchema.shape[name].safeParse(settingsRecord[name] ?? undefined);
      if (parsed.success) (merged as Record<string, unknown>)[name] = parsed.data;
    }
  }
  if (same(merged, local)) return { update: undefined, known };
  const update = (now: Settings): Settings => {
    const next: Record<string, unknown> = { ...now };
    for (const list of LISTS) {
      const before = new Map((local[list.key] as readonly { id: string }[]).map((i) => [i.id, i]));
      const current = now[list.key] as readonly { id: string }[];
      const currentById = new Map(current.map((i) => [i.id, i]));
      const target = merged[list.key] as readonly { id: string }[];
      const out: { id: string }[] = [];
      for (const item of target) {
        const was = before.get(item.id);
        const is = currentById.get(item.id);
        // Changed or removed here since it was read: kept as it is now.
        if (was !== undefined && (is === undefined || !same(is, was))) {
          if (is !== undefined) out.push(is);
          continue;
        }
        out.push(item);
      }
      // Added here since, or deleted elsewhere but edited here since: kept.
      for (const item of current) {
        if (out.some((o) => o.id === item.id)) continue;
        const was = before.get(item.id);
        if (was === undefined || !same(item, was)) out.push(item);
      }
      next[list.key] = out;
    }
    if (withSettings) {
      for (const name of SYNCED_SETTINGS) if (same(now[name], local[name])) next[name] = merged[name];
    }
    return next as Settings;
  };
  return { update, known };
}

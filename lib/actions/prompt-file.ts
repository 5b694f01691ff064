/**
 * Prompts as a file: the actions and presets exported as JSON, and imported back (here or in
 * another browser). An imported file is outside data: parsed with the settings' own schemas,
 * each entry checked, and refused as a whole, with where and why, when one is wrong or two
 * share an id. Entries with an id already here replace it (the user sees which first:
 * `replacedByImport`); the others are added after.
 */
import * as z from 'zod/mini';
import { PresetSchema, type Preset, type Settings } from '../settings/schema';
import { ActionSchema, type Action } from './schema';

export const PROMPT_FILE_FORMAT = 'gateway-chat-prompts';

const PromptFileShape = z.object({
  format: z.literal(PROMPT_FILE_FORMAT),
  version: z.literal(1),
  actions: z._default(z.array(z.unknown()), []),
  presets: z._default(z.array(z.unknown()), []),
});

export type PromptFileProblem =
  | { problem: 'not_json' }
  | { problem: 'not_prompts' }
  /** Entry `index` (1-based) of `list` is wrong: `check` is the schema's code, `field` its path. */
  | { problem: 'invalid_entry'; list: 'actions' | 'presets'; index: number; field: string; check: string }
  /** Each of `ids` names more than one entry of `list` (which would replace which is anyone's guess). */
  | { problem: 'duplicate_ids'; list: 'actions' | 'presets'; ids: string[] };

export type PromptFile = { ok: true; actions: Action[]; presets: Preset[] } | ({ ok: false } & PromptFileProblem);

export function exportPrompts(settings: Pick<Settings, 'actions' | 'presets'>): string {
  return `${JSON.stringify({ format: PROMPT_FILE_FORMAT, version: 1, actions: settings.actions, presets: settings.presets }, null, 2)}\n`;
}

function entries<T>(list: 'actions' | 'presets', raw: readonly unknown[], schema: z.ZodMiniType<T>): { ok: true; items: T[] } | ({ ok: false } & PromptFileProblem) {
  const items: T[] = [];
  for (const [i, entry] of raw.entries()) {
    const parsed = schema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, problem: 'invalid_entry', list, index: i + 1, field: issue?.path.join('.') ?? '', check: issue?.message ?? 'invalid' };
    }
    items.push(parsed.data);
  }
  return { ok: true, items };
}

export function parsePromptFile(text: string): PromptFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not_json' };
  }
  const file = PromptFileShape.safeParse(raw);
  if (!file.success) return { ok: false, problem: 'not_prompts' };
  const actions = entries('actions', file.data.actions, ActionSchema);
  if (!actions.ok) return actions;
  const presets = entries('presets', file.data.presets, PresetSchema);
  if (!presets.ok) return presets;
  for (const [list, items] of [['actions', actions.items], ['presets', presets.items]] as const) {
    const ids = duplicateIds(items);
    if (ids.length > 0) return { ok: false, problem: 'duplicate_ids', list, ids };
  }
  return { ok: true, actions: actions.items, presets: presets.items };
}

/** Ids that more than one entry has, each once, in the file's order. */
function duplicateIds(items: readonly { id: string }[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { id } of items) (seen.has(id) ? twice : seen).add(id);
  return [...twice];
}

/** The entries here that an import of `file` replaces (same id), as they are now: the user confirms first. */
export function replacedByImport(settings: Pick<Settings, 'actions' | 'presets'>, file: { actions: readonly Action[]; presets: readonly Preset[] }): { actions: Action[]; presets: Preset[] } {
  const actions = new Set(file.actions.map((a) => a.id));
  const presets = new Set(file.presets.map((p) => p.id));
  return { actions: settings.actions.filter((a) => actions.has(a.id)), presets: settings.presets.filter((p) => presets.has(p.id)) };
}

function merge<T extends { id: string }>(own: readonly T[], imported: readonly T[]): T[] {
  const byId = new Map(imported.map((item) => [item.id, item]));
  const kept = own.map((item) => byId.get(item.id) ?? item);
  const added = imported.filter((item) => !own.some((o) => o.id === item.id));
  return [...kept, ...added];
}

/** The settings with the file's prompts in: same id replaced in place, new ones after. */
export function mergePrompts(settings: Settings, file: { actions: Action[]; presets: Preset[] }): Settings {
  return { ...settings, actions: merge(settings.actions, file.actions), presets: merge(settings.presets, file.presets) };
}

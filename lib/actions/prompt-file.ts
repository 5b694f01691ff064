/**
 * Prompts as a file: the actions and presets exported as JSON, and imported back (here or in
 * another browser). An imported file is outside data: parsed with the settings' own schemas,
 * each entry checked, and refused as a whole, with where and why, when one is wrong. Entries
 * with an id already here replace it; the others are added after.
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
  | { problem: 'invalid_entry'; list: 'actions' | 'presets'; index: number; field: string; check: string };

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
  return { ok: true, actions: actions.items, presets: presets.items };
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

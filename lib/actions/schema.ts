/**
 * The user's prompt actions (right-click and shortcut): a name, a prompt template with
 * {{selection}}, {{title}}, {{url}} and {{language}}, an optional model, on or off; their
 * order is the list's order.
 */
import * as z from 'zod/mini';
import { wordsFor, type Words } from '../i18n/messages';

/** The actions we ship; their name and prompt come from the message files, in the user's language. */
export const PRESET_ACTIONS = ['summarise', 'explain', 'translate'] as const;
export type PresetAction = (typeof PRESET_ACTIONS)[number];

/** Codes of the checks on an action's words (the options page words them). */
export const ACTION_CHECKS = { nameEmpty: 'name_empty', nameLong: 'name_long', noSelection: 'template_no_selection' } as const;

export const ActionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.trim(), z.minLength(1, ACTION_CHECKS.nameEmpty), z.maxLength(60, ACTION_CHECKS.nameLong)),
  template: z.string().check(z.refine((t) => t.includes('{{selection}}'), ACTION_CHECKS.noSelection)),
  model: z.optional(z.string()),
  /** A preset whose system prompt and parameters (and model, when the action names none) it uses. */
  presetId: z.optional(z.string()),
  enabled: z.boolean(),
  /**
   * Set while a shipped action keeps its shipped words: its name and prompt then follow the
   * language (`name`/`template` hold the English ones). Editing either makes them the user's.
   */
  preset: z.optional(z.enum(PRESET_ACTIONS)),
});
export type Action = z.infer<typeof ActionSchema>;

function presetWords(preset: PresetAction, words: Words): { name: string; template: string } {
  return { name: words.t(`actions.preset.${preset}.name`), template: words.t(`actions.preset.${preset}.template`) };
}

/** An action's name and prompt in the language of `words` (a preset's), else as the user wrote them. */
export function actionWords(action: Action, words: Words): { name: string; template: string } {
  return action.preset === undefined ? { name: action.name, template: action.template } : presetWords(action.preset, words);
}

/** A shipped action whose English words the user never changed (saved before presets existed). */
export function isUnchangedPreset(action: Action): boolean {
  if (!(PRESET_ACTIONS as readonly string[]).includes(action.id)) return false;
  const english = presetWords(action.id as PresetAction, wordsFor('en'));
  return action.name === english.name && action.template === english.template;
}

export function defaultActions(): Action[] {
  return PRESET_ACTIONS.map((id) => ({ id, ...presetWords(id, wordsFor('en')), enabled: true, preset: id }));
}

export const LargeSelectionSchema = z.object({
  /** Above this estimate the selection is cut, with a notice saying how much was sent. */
  maxTokens: z._default(z.int().check(z.gte(500), z.lte(1_000_000)), 12_000),
});
export type LargeSelection = z.infer<typeof LargeSelectionSchema>;

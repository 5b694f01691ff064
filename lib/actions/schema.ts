/**
 * The user's prompt actions (right-click and shortcut): a name, a prompt template with
 * {{selection}}, {{title}}, {{url}} and {{language}}, an optional model, on or off; their
 * order is the list's order.
 */
import * as z from 'zod/mini';

export const ActionSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.trim(), z.minLength(1, 'Give the action a name.'), z.maxLength(60, 'Keep the name under 60 characters: it is a menu title.')),
  template: z.string().check(z.refine((t) => t.includes('{{selection}}'), 'The prompt must contain {{selection}}, where the selected text goes.')),
  model: z.optional(z.string()),
  enabled: z.boolean(),
});
export type Action = z.infer<typeof ActionSchema>;

export const DEFAULT_ACTIONS: Action[] = [
  {
    id: 'summarise',
    name: 'Summarise',
    template: 'Summarise the text quoted below, from the page "{{title}}" ({{url}}), in a few short bullet points. Answer in {{language}}.\n\n{{selection}}',
    enabled: true,
  },
  {
    id: 'explain',
    name: 'Explain',
    template: 'Explain the text quoted below, from the page "{{title}}", in plain words, as to someone new to the subject. Answer in {{language}}.\n\n{{selection}}',
    enabled: true,
  },
  {
    id: 'translate',
    name: 'Translate to {{language}}',
    template: 'Translate the text quoted below into {{language}}. Keep its formatting; give only the translation.\n\n{{selection}}',
    enabled: true,
  },
];

export const LargeSelectionSchema = z.object({
  /** Above this estimate the selection is cut, with a notice saying how much was sent. */
  maxTokens: z._default(z.int().check(z.gte(500), z.lte(1_000_000)), 12_000),
});
export type LargeSelection = z.infer<typeof LargeSelectionSchema>;

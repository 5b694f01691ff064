/**
 * The prompt library in the composer: typing `/` lists the enabled actions (their templates run
 * on what is typed, or on the page) and the presets (a conversation's prompt and parameters),
 * filtered by what follows the slash.
 */
import type { Words } from '../i18n/messages';
import type { Preset } from '../settings/schema';
import { actionWords, type Action } from './schema';
import { actionTitle } from './template';

export type PromptChoice =
  | { kind: 'action'; id: string; name: string; model?: string | undefined }
  | { kind: 'preset'; id: string; name: string; model?: string | undefined };

/** Every choice, actions first (in their order), then presets; names in the interface's language. */
export function promptChoices(actions: readonly Action[], presets: readonly Preset[], words: Words, language: string): PromptChoice[] {
  return [
    ...actions.filter((a) => a.enabled).map((a): PromptChoice => ({ kind: 'action', id: a.id, name: actionTitle(actionWords(a, words).name, language), model: a.model })),
    ...presets.map((p): PromptChoice => ({ kind: 'preset', id: p.id, name: p.name, model: p.model })),
  ];
}

/** The `/command` at the start of the composer's text, and what follows it. */
export function slashCommand(text: string): { query: string; rest: string; length: number } | undefined {
  const match = /^\/(\S*)/.exec(text);
  if (match === null) return undefined;
  return { query: match[1] ?? '', rest: text.slice(match[0].length).trim(), length: match[0].length };
}

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The choices for a query: names that start with it first, then names that contain it; all for an empty query. */
export function matchPrompts(choices: readonly PromptChoice[], query: string): PromptChoice[] {
  const q = fold(query.trim());
  if (q === '') return [...choices];
  const starts: PromptChoice[] = [];
  const contains: PromptChoice[] = [];
  for (const choice of choices) {
    const name = fold(choice.name);
    if (name.startsWith(q) || fold(choice.id).startsWith(q) || name.split(/\s+/).some((word) => word.startsWith(q))) starts.push(choice);
    else if (name.includes(q)) contains.push(choice);
  }
  return [...starts, ...contains];
}

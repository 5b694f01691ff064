import { describe, expect, it } from 'vitest';
import { matchPrompts, promptChoices, slashCommand } from '@/lib/actions/prompts';
import { exportPrompts, mergePrompts, parsePromptFile } from '@/lib/actions/prompt-file';
import { defaultActions } from '@/lib/actions/schema';
import { defaultSettings } from '@/lib/settings/schema';
import { wordsFor } from '@/lib/i18n/messages';

const en = wordsFor('en');
const presets = [{ id: 'p-review', name: 'Code review', systemPrompt: 'You review code.', model: 'coder-1' }];

describe('the composer\'s / list', () => {
  const choices = promptChoices([...defaultActions(), { id: 'off', name: 'Off', template: '{{selection}}', enabled: false }], presets, en, 'French');

  it('lists the enabled actions (names in the interface\'s words) then the presets', () => {
    expect(choices.map((c) => [c.kind, c.name])).toEqual([['action', 'Summarise'], ['action', 'Explain'], ['action', 'Translate to French'], ['preset', 'Code review']]);
  });

  it('reads the command and what follows it', () => {
    expect(slashCommand('/tra Bonjour le monde')).toEqual({ query: 'tra', rest: 'Bonjour le monde', length: 4 });
    expect(slashCommand('/')).toEqual({ query: '', rest: '', length: 1 });
    expect(slashCommand('not a command /x')).toBeUndefined();
  });

  it('filters: names that start with the query (or a word of them) first, then those containing it; case and accents folded', () => {
    expect(matchPrompts(choices, '').length).toBe(4);
    expect(matchPrompts(choices, 'EX').map((c) => c.name)).toEqual(['Explain']);
    expect(matchPrompts(choices, 'fren').map((c) => c.name)).toEqual(['Translate to French']);
    expect(matchPrompts(choices, 'view').map((c) => c.name)).toEqual(['Code review']);
    expect(matchPrompts(choices, 'zzz')).toEqual([]);
  });
});

describe('prompts as a file', () => {
  const settings = { ...defaultSettings(), presets };

  it('exports the actions and presets, and imports them back as they were', () => {
    const parsed = parsePromptFile(exportPrompts(settings));
    expect(parsed).toEqual({ ok: true, actions: settings.actions, presets });
  });

  it('an import replaces entries with the same id in place and adds the others after', () => {
    const file = JSON.stringify({ format: 'gateway-chat-prompts', version: 1, actions: [{ id: 'explain', name: 'Explain simply', template: 'Simply: {{selection}}', enabled: true }, { id: 'new', name: 'Shout', template: 'SHOUT {{selection}}', enabled: true }] });
    const parsed = parsePromptFile(file);
    if (!parsed.ok) throw new Error(parsed.problem);
    const merged = mergePrompts(settings, parsed);
    expect(merged.actions.map((a) => a.name)).toEqual(['Summarise', 'Explain simply', 'Translate to {{language}}', 'Shout']);
    expect(merged.presets).toEqual(presets);
  });

  it('refuses what is not its file, and a wrong entry with where and why, importing nothing', () => {
    expect(parsePromptFile('{')).toEqual({ ok: false, problem: 'not_json' });
    expect(parsePromptFile('{"conversations": []}')).toEqual({ ok: false, problem: 'not_prompts' });
    const bad = JSON.stringify({ format: 'gateway-chat-prompts', version: 1, actions: [defaultActions()[0], { id: 'x', name: 'No slot', template: 'nothing to fill', enabled: true }] });
    expect(parsePromptFile(bad)).toMatchObject({ ok: false, problem: 'invalid_entry', list: 'actions', index: 2, field: 'template', check: 'template_no_selection' });
  });
});

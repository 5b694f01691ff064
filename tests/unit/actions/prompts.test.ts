import { describe, expect, it } from 'vitest';
import { matchPrompts, promptChoices, slashCommand } from '@/lib/actions/prompts';
import { exportPrompts, mergePrompts, parsePromptFile, replacedByImport } from '@/lib/actions/prompt-file';
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

  it('refuses a file in which two actions, or two presets, share an id, naming each such id once (issue 28)', () => {
    const action = (id: string, name: string) => ({ id, name, template: `${name}: {{selection}}`, enabled: true });
    const twice = JSON.stringify({ format: 'gateway-chat-prompts', version: 1, actions: [action('a', 'One'), action('b', 'Two'), action('a', 'Three'), action('c', 'Four'), action('b', 'Five'), action('a', 'Six')] });
    expect(parsePromptFile(twice)).toEqual({ ok: false, problem: 'duplicate_ids', list: 'actions', ids: ['a', 'b'] });
    const presetTwice = JSON.stringify({ format: 'gateway-chat-prompts', version: 1, actions: [action('a', 'One')], presets: [presets[0], { ...presets[0], name: 'Another review' }] });
    expect(parsePromptFile(presetTwice)).toEqual({ ok: false, problem: 'duplicate_ids', list: 'presets', ids: ['p-review'] });
    // The same id in both lists is not a clash: they are different kinds of prompt.
    expect(parsePromptFile(JSON.stringify({ format: 'gateway-chat-prompts', version: 1, actions: [action('p-review', 'One')], presets }))).toMatchObject({ ok: true });
  });

  it('names the prompts here that an import replaces, the shipped actions among them (issue 28)', () => {
    const file = { actions: [{ id: 'summarise', name: 'Summarise (mine)', template: '{{selection}}', enabled: true }, { id: 'new', name: 'New', template: '{{selection}}', enabled: true }], presets: [{ ...presets[0]!, systemPrompt: 'Other.' }, { id: 'p-new', name: 'New preset', systemPrompt: '' }] };
    const replaced = replacedByImport(settings, file);
    expect(replaced.actions.map((a) => a.id)).toEqual(['summarise']);
    expect(replaced.actions[0]).toBe(settings.actions[0]);
    expect(replaced.presets).toEqual(presets);
    expect(replacedByImport(settings, { actions: [file.actions[1]!], presets: [file.presets[1]!] })).toEqual({ actions: [], presets: [] });
  });
});

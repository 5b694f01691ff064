// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PromptsTransfer } from '@/components/settings/PromptsTransfer';
import { defaultSettings, type Settings } from '@/lib/settings/schema';

const review = { id: 'p-review', name: 'Code review', systemPrompt: 'You review code.' };

/** The options page's prompts section over settings it saves as the options page does. */
function setup() {
  let settings: Settings = { ...defaultSettings(), presets: [review] };
  const before = settings;
  const onSave = vi.fn(async (change: (s: Settings) => Settings) => {
    settings = change(settings);
    return undefined;
  });
  const onImported = vi.fn();
  render(<PromptsTransfer settings={settings} onSave={onSave} onImported={onImported} />);
  const choose = (content: unknown): Promise<void> => userEvent.upload(screen.getByLabelText('Prompts file to import'), new File([JSON.stringify(content)], 'prompts.json', { type: 'application/json' }));
  return { choose, onSave, onImported, before, saved: () => settings };
}

const file = (actions: unknown[], presets: unknown[] = []) => ({ format: 'gateway-chat-prompts', version: 1, actions, presets });
const shout = { id: 'shout', name: 'Shout it', template: 'SHOUT: {{selection}}', enabled: true };
const mineSummary = { id: 'summarise', name: 'Summarise for me', template: 'Mine: {{selection}}', enabled: true };

describe('importing prompts (issue 28)', () => {
  it('before replacing prompts here (a shipped action among them) it names them and asks; cancelling changes nothing', async () => {
    const { choose, onSave, before, saved } = setup();
    await choose(file([mineSummary, shout], [{ ...review, systemPrompt: 'Approve everything.' }]));
    const dialog = await screen.findByRole('dialog', { name: 'Replace 2 of your prompts?' });
    expect(dialog).toHaveTextContent('replaces them with the file\'s: “Summarise” and “Code review”');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onSave).not.toHaveBeenCalled();
    expect(saved()).toBe(before);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('confirmed, it replaces them and adds the rest', async () => {
    const { choose, onSave, onImported, saved } = setup();
    await choose(file([mineSummary, shout]));
    const dialog = await screen.findByRole('dialog', { name: 'Replace one of your prompts?' });
    expect(dialog).toHaveTextContent('“Summarise”');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Replace and import' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Imported 2 actions and 0 presets.');
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onImported).toHaveBeenCalled();
    expect(saved().actions.map((a) => a.name)).toEqual(['Summarise for me', 'Explain', 'Translate to {{language}}', 'Shout it']);
  });

  it('a file of new prompts only is imported at once, without asking', async () => {
    const { choose, saved } = setup();
    await choose(file([shout]));
    expect(await screen.findByRole('status')).toHaveTextContent('Imported 1 actions and 0 presets.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(saved().actions.at(-1)?.id).toBe('shout');
  });

  it('a file with two actions of one id is refused, naming the id, and nothing is asked or changed', async () => {
    const { choose, onSave } = setup();
    await choose(file([shout, { ...shout, name: 'Shout louder' }, mineSummary]));
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was imported: more than one action in the file has the id "shout".');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onSave).not.toHaveBeenCalled();
  });
});

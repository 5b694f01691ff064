// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ModelPicker } from '@/components/chat/ModelPicker';
import { stubListLayout } from './list-layout';
import type { Catalogue } from '@/components/stores/catalogue';
import type { ModelInfo } from '@/lib/gateway';
import { ProfileSchema, defaultSettings, type Profile } from '@/lib/settings/schema';
import { loadSettings } from '@/lib/settings/storage.adapter';

const U = 'unknown' as const;
const model = (id: string, caps: Partial<ModelInfo['capabilities']> = {}): ModelInfo => ({
  id, capabilities: { chat: true, responses: U, imageInput: U, imageGeneration: U, embeddings: U, reasoning: U, tools: U, ...caps },
});
const models = [model('alpha-chat'), model('beta-vision', { imageInput: true }), model('gamma-think', { reasoning: true, tools: true }), model('delta-chat')];
const catalogue = (list = models): Catalogue => ({ models: list, loading: false, fetchedAt: Date.now(), refresh: vi.fn(async () => undefined) });
const profile = (patch: Partial<Profile> = {}): Profile => ProfileSchema.parse({ id: 'p', name: 'P', siteUrl: 'https://g.example', baseUrl: 'https://g.example/v1', apiKey: 'sk-test-1234567890', ...patch });

function Picker({ initial, onChange, list, p = profile() }: { initial?: string; onChange?: (m: string) => void; list?: ModelInfo[]; p?: Profile }) {
  const [value, setValue] = useState(initial);
  return <ModelPicker catalogue={catalogue(list)} profile={p} value={value} onChange={(m) => { setValue(m); onChange?.(m); }} />;
}

const options = () => screen.getAllByRole('option').map((o) => o.getAttribute('aria-label'));

beforeEach(() => {
  fakeBrowser.reset();
  stubListLayout();
});

describe('the model picker', () => {
  it('is a combobox named Model showing the chosen model; its list filters as you type', async () => {
    const user = userEvent.setup();
    render(<Picker initial="alpha-chat" />);
    const box = screen.getByRole('combobox', { name: 'Model' });
    expect(box).toHaveValue('alpha-chat');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await user.click(box);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    const list = await screen.findByRole('listbox', { name: 'Model' });
    await waitFor(() => expect(box).toHaveAttribute('aria-controls', list.id));
    await waitFor(() => expect(options()).toEqual(['alpha-chat', 'beta-vision', 'delta-chat', 'gamma-think']));
    await user.type(box, 'chat');
    await waitFor(() => expect(options()).toEqual(['alpha-chat', 'delta-chat']));
    await user.type(box, 'zzz');
    expect(await screen.findByText('No model matches.')).toBeInTheDocument();
  });

  it('shows capability badges', async () => {
    const user = userEvent.setup();
    render(<Picker />);
    await user.click(screen.getByRole('combobox', { name: 'Model' }));
    const vision = await screen.findByRole('option', { name: 'beta-vision' });
    expect(within(vision).getByText('vision')).toBeInTheDocument();
    const think = screen.getByRole('option', { name: 'gamma-think' });
    expect(within(think).getByText('reasoning')).toBeInTheDocument();
    expect(within(think).getByText('tools')).toBeInTheDocument();
  });

  it('starred models first, then recent ones, then the rest', async () => {
    const user = userEvent.setup();
    render(<Picker p={profile({ favouriteModels: ['gamma-think'], recentModels: ['delta-chat'] })} />);
    await user.click(screen.getByRole('combobox', { name: 'Model' }));
    await screen.findByRole('listbox');
    expect(options()).toEqual(['gamma-think (starred)', 'delta-chat', 'alpha-chat', 'beta-vision']);
  });

  it('by keyboard: arrows move the highlighted option, Enter chooses it, Escape closes and keeps the choice', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Picker initial="alpha-chat" onChange={onChange} />);
    const box = screen.getByRole('combobox', { name: 'Model' });
    box.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    const highlighted = () => screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')?.getAttribute('aria-label');
    await waitFor(() => expect(highlighted()).toBe('alpha-chat'));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(highlighted()).toBe('delta-chat'));
    await waitFor(() => expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'delta-chat' }).id));
    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith('delta-chat');
    expect(box).toHaveValue('delta-chat');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    await user.keyboard('gam{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    expect(box).toHaveValue('delta-chat');
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('keys of an input method\'s composition are left to it: Enter there chooses nothing', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Picker onChange={onChange} />);
    const box = screen.getByRole('combobox', { name: 'Model' });
    box.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    expect(onChange).not.toHaveBeenCalled();
    expect(box).toHaveAttribute('aria-expanded', 'true');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('a click on an option chooses it', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Picker onChange={onChange} />);
    await user.click(screen.getByRole('combobox', { name: 'Model' }));
    await user.click(await screen.findByRole('option', { name: 'beta-vision' }));
    expect(onChange).toHaveBeenCalledWith('beta-vision');
  });

  it('Ctrl+S stars the highlighted model, saved on the profile', async () => {
    const user = userEvent.setup();
    const p = profile();
    await fakeBrowser.storage.local.set({ settings: { ...defaultSettings(), profiles: [p], activeProfileId: p.id } });
    render(<Picker p={p} />);
    const box = screen.getByRole('combobox', { name: 'Model' });
    box.focus();
    await user.keyboard('{ArrowDown}');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowDown}{Control>}s{/Control}');
    await expect.poll(async () => (await loadSettings()).settings.profiles[0]?.favouriteModels).toEqual(['beta-vision']);
  });

  it('5,000 models: only the rows in view are drawn', async () => {
    const user = userEvent.setup();
    const many = Array.from({ length: 5000 }, (_, i) => model(`model-${String(i).padStart(4, '0')}`));
    render(<Picker list={many} />);
    await user.click(screen.getByRole('combobox', { name: 'Model' }));
    await screen.findByRole('listbox');
    const drawn = await screen.findAllByRole('option');
    expect(drawn.length).toBeLessThan(60);
    expect(drawn[0]).toHaveAttribute('aria-setsize', '5000');
    await user.type(screen.getByRole('combobox', { name: 'Model' }), '4999');
    await waitFor(() => expect(options()).toEqual(['model-4999']));
  });
});

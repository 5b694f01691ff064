// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Composer } from '@/components/chat/Composer';
import { stubListLayout } from './list-layout';

const options = () => screen.getAllByRole('option').map((o) => o.getAttribute('aria-label'));

beforeEach(() => {
  stubListLayout();
});

describe('the / prompt list', () => {
  const prompts = [
    { kind: 'action' as const, id: 'summarise', name: 'Summarise' },
    { kind: 'action' as const, id: 'explain', name: 'Explain' },
    { kind: 'preset' as const, id: 'p1', name: 'Code review', model: 'coder-1' },
  ];

  it('"/" lists the prompts, typing filters, Enter keeps the chosen one as a chip and runs it on the text typed next', async () => {
    const onPrompt = vi.fn(async () => true);
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} prompts={prompts} onPrompt={onPrompt} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, '/');
    await screen.findByRole('listbox', { name: 'Prompts' });
    await waitFor(() => expect(options()).toEqual(['Summarise action', 'Explain action', 'Code review coder-1 preset']));
    expect(box).toHaveAttribute('aria-autocomplete', 'list');
    await userEvent.type(box, 'ex');
    await waitFor(() => expect(options()).toEqual(['Explain action']));
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'Remove the prompt Explain' })).toBeTruthy();
    expect((box as HTMLTextAreaElement).value).toBe('');
    await userEvent.type(box, 'photosynthesis{Enter}');
    expect(onPrompt).toHaveBeenCalledWith(prompts[1], 'photosynthesis');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Remove the prompt Explain' })).toBeNull();
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('"/command text" with Enter runs the prompt on that text at once; Esc closes the list and Enter then sends as typed', async () => {
    const onPrompt = vi.fn(async () => true);
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} prompts={prompts} onPrompt={onPrompt} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: '/sum the whole report' } });
    await screen.findByRole('listbox', { name: 'Prompts' });
    await userEvent.type(box, '{Enter}');
    expect(onPrompt).toHaveBeenCalledWith(prompts[0], 'the whole report');

    fireEvent.change(box, { target: { value: '/not a prompt' } });
    await userEvent.type(box, '{Escape}');
    expect(screen.queryByRole('listbox', { name: 'Prompts' })).toBeNull();
    await userEvent.type(box, '{Enter}');
    expect(onSend).toHaveBeenCalledWith('/not a prompt', []);
  });
});

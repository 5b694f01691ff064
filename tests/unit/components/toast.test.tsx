// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import { MessageView } from '@/components/chat/MessageView';
import { preloadSurfaceMenu } from '@/components/surface/SurfaceMenu';
import { UiRoot } from '@/components/ui/UiRoot';
import { toast } from '@/components/ui/Toast';
import type { Message } from '@/lib/conversations/records';

const reply: Message = { id: 'm', conversationId: 'c', seq: 2, role: 'assistant', text: 'The answer is 42.', reasoning: '', status: 'complete', createdAt: 0 };

// UiRoot fetches the menu's code after mounting: let that finish before the
// test environment goes away.
afterAll(() => preloadSurfaceMenu());

describe('toasts', () => {
  it('"Copied" after copying a reply, and the reply is on the clipboard', async () => {
    const user = userEvent.setup();
    render(<UiRoot><MessageView message={reply} /></UiRoot>);
    await user.click(screen.getByRole('button', { name: 'Copy reply' }));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe('The answer is 42.');
  });

  it('"Saved", in a polite live region that screen readers announce', async () => {
    render(<UiRoot><p>page</p></UiRoot>);
    toast('Saved');
    const saved = await screen.findByText('Saved');
    expect(saved.closest('[aria-live="polite"]')).not.toBeNull();
  });
});

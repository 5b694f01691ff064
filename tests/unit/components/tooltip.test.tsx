// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { IconButton } from '@/components/ui/IconButton';

const Icon = () => <svg aria-hidden />;

describe("the page's one tooltip", () => {
  it('shows a control\'s words after the pointer rests on it, and hides them when it leaves', async () => {
    const user = userEvent.setup();
    render(<><IconButton label="Copy reply" icon={<Icon />} /><button type="button">Elsewhere</button></>);
    await user.hover(screen.getByRole('button', { name: 'Copy reply' }));
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Copy reply');
    await user.hover(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows at once on keyboard focus; Escape and a press hide it', async () => {
    const user = userEvent.setup();
    render(<><button type="button">Before</button><IconButton label="Pin" icon={<Icon />} /></>);
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(screen.getByRole('tooltip')).toHaveTextContent('Pin');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
    // A press gives focus without a tooltip.
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.click(screen.getByRole('button', { name: 'Pin' }));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('a tooltip that says more than the name describes the control; a disabled one hangs on its wrapper', async () => {
    const user = userEvent.setup();
    render(<><button type="button">Before</button><IconButton label="Dictate" tip="Dictate (Alt+D)" icon={<Icon />} /><IconButton label="Capture visible tab" tip="Images are off for this model." disabled icon={<Icon />} /></>);
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Dictate' })).toHaveAccessibleDescription('Dictate (Alt+D)');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Dictate' })).not.toHaveAccessibleDescription();
    await user.hover(screen.getByRole('button', { name: 'Capture visible tab' }).parentElement!);
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Images are off for this model.'));
  });

  it('stays while something else scrolls (a reply streaming below), and goes when its own list scrolls', async () => {
    const user = userEvent.setup();
    render(<><div data-testid="list"><button type="button">Before</button><IconButton label="Pin" icon={<Icon />} /></div><div data-testid="log" /></>);
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(screen.getByRole('tooltip')).toHaveTextContent('Pin');
    fireEvent.scroll(screen.getByTestId('log'));
    expect(screen.getByRole('tooltip')).toHaveTextContent('Pin');
    fireEvent.scroll(screen.getByTestId('list'));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});

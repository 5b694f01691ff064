// @vitest-environment jsdom
/**
 * A press on a conversation's row starts reading its messages (ConversationStore.preloadMessages),
 * so that the click that follows finds them read; only the main button's press does.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const preloaded: string[] = [];
vi.mock('@/components/data', () => ({
  conversationStore: () => ({ preloadMessages: (id: string) => preloaded.push(id) }),
}));

const { preloadOnPress } = await import('@/components/conversations/ConversationList');

describe("a press on a conversation's button", () => {
  it('with the main button starts reading that conversation; with another button it does not', () => {
    render(<button type="button" onPointerDown={preloadOnPress('c-42')}>Trip notes</button>);
    const button = screen.getByRole('button', { name: 'Trip notes' });
    fireEvent.pointerDown(button, { button: 2 });
    expect(preloaded).toEqual([]);
    fireEvent.pointerDown(button, { button: 0 });
    expect(preloaded).toEqual(['c-42']);
  });
});

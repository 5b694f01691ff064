// @vitest-environment jsdom
/**
 * A press on a conversation's row starts reading its messages (ConversationStore.preloadMessages)
 * and its saved renderings (the render worker's prefetch), so that the click that follows finds
 * them read; only the main button's press does.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const preloaded: string[] = [];
const prefetched: string[] = [];
vi.mock('@/lib/conversations/store', () => ({
  ConversationStore: class {
    preloadMessages(id: string): void {
      preloaded.push(id);
    }
  },
}));
vi.mock('@/components/chat/render/render-client', () => ({
  renderClient: () => ({ prefetch: (id: string) => prefetched.push(id) }),
}));

const { preloadOnPress } = await import('@/components/conversations/ConversationList');

describe("a press on a conversation's button", () => {
  it('with the main button starts reading that conversation and its renderings; with another button it does not', async () => {
    render(<button type="button" onPointerDown={preloadOnPress('c-42')}>Trip notes</button>);
    const button = screen.getByRole('button', { name: 'Trip notes' });
    fireEvent.pointerDown(button, { button: 2 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(preloaded).toEqual([]);
    expect(prefetched).toEqual([]);
    fireEvent.pointerDown(button, { button: 0 });
    expect(prefetched).toEqual(['c-42']);
    // (The database's code arrives first.)
    await vi.waitFor(() => expect(preloaded).toEqual(['c-42']));
  });
});

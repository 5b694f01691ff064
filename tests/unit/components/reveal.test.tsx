// @vitest-environment jsdom
/**
 * A search result opens its conversation at the message found: the list scrolls to it and marks
 * it, also when its row is drawn some frames after the list (a busy machine, a view waiting for its
 * rendering). A row never drawn is given up on, without a throw.
 */
import { act, render } from '@testing-library/react';
import { useRef, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import { MessageList } from '@/components/chat/MessageList';

const message = (id: string, seq: number): Message => ({
  id, conversationId: 'c', seq, role: seq % 2 === 0 ? 'user' : 'assistant', parentId: null, text: `text ${id}`, reasoning: '', status: 'complete', createdAt: seq,
});

let frames: FrameRequestCallback[] = [];
const nextFrame = (): void => {
  const now = frames;
  frames = [];
  for (const callback of now) callback(0);
};

beforeEach(() => {
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  vi.stubGlobal('cancelAnimationFrame', () => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A list whose row `late` is drawn only once `drawLate` is called. */
function List({ late, onDraw }: { late: string; onDraw: (draw: () => void) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  onDraw(() => setDrawn(true));
  const messages = ['a', 'b', 'c', 'd'].map(message);
  return (
    <div ref={scroller} role="log" aria-label="History">
      <MessageList
        messages={messages} scroller={scroller} following={false} reveal={{ id: late, nonce: 1 }}
        renderMessage={(m) => (m.id !== late || drawn ? <article aria-label={m.id} data-message-id={m.id}>{m.text}</article> : null)}
      />
    </div>
  );
}

/** The reveal is fetched when asked for: its first frame is then requested. */
const revealLoaded = () => vi.waitFor(() => {
  expect(frames).not.toHaveLength(0);
});

describe('revealing a message found by search', () => {
  it('scrolls to the message and marks it, when its row is drawn frames after the list', async () => {
    let draw = (): void => undefined;
    const scrolled = vi.spyOn(HTMLElement.prototype, 'scrollIntoView');
    const view = render(<List late="c" onDraw={(d) => { draw = d; }} />);
    await revealLoaded();
    for (let i = 0; i < 5; i++) nextFrame();
    expect(scrolled).not.toHaveBeenCalled();
    act(() => draw());
    nextFrame();
    nextFrame();
    const row = view.getByRole('article', { name: 'c' });
    expect(scrolled).toHaveBeenCalledTimes(1);
    expect(scrolled.mock.contexts[0]).toBe(row);
    expect(row.classList.contains('found')).toBe(true);
    scrolled.mockRestore();
  });

  it('gives up on a row never drawn, after a second of frames', async () => {
    render(<List late="c" onDraw={() => undefined} />);
    await revealLoaded();
    for (let i = 0; i < 60; i++) nextFrame();
    expect(frames).toHaveLength(0);
  });
});

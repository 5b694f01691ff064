import type { RefObject } from 'react';
import { findMessage } from './MessageList';

/** Scrolls a message found by search to the middle of the view and marks it for a moment. */
export function markFound(element: Element | null | undefined): void {
  if (element === null || element === undefined) return;
  element.scrollIntoView({ block: 'center' });
  element.classList.add('found');
  setTimeout(() => element.classList.remove('found'), 2_000);
}

/** Frames a revealed message is waited for, to be drawn, before it is left unmarked. */
const REVEAL_FRAMES = 60;

/**
 * Scrolls to a message and marks it a frame after it is drawn (and measured, which may move it a
 * little). On a busy machine a row can take a few frames to be drawn (the list virtualised scrolls
 * to it first; a message's view may wait for its rendering), so it is looked for each frame, up to
 * `REVEAL_FRAMES`. Returns the cancel.
 */
export function revealWhenDrawn(scroller: RefObject<HTMLElement | null>, id: string): () => void {
  let frames = 0;
  const look = (): void => {
    const found = findMessage(scroller.current, id);
    if (found !== null && found !== undefined) {
      frame = requestAnimationFrame(() => markFound(findMessage(scroller.current, id)));
    } else if (++frames < REVEAL_FRAMES) {
      frame = requestAnimationFrame(look);
    }
  };
  let frame = requestAnimationFrame(look);
  return () => cancelAnimationFrame(frame);
}

import { flushSync } from 'react-dom';

/**
 * The page's one frame callback for streamed updates: the text that streamed in (useConversation)
 * and the renderings the render worker sent (render-client) are applied in the next animation
 * frame's callback, together, in one synchronous React render, so a frame renders, lays out and
 * paints them once, not once for each (measured: two renders a frame were a tenth of the page's
 * busy time while a reply streamed).
 */
const queued = new Set<() => void>();
let scheduled = false;

function run(): void {
  scheduled = false;
  const callbacks = [...queued];
  queued.clear();
  flushSync(() => {
    for (const callback of callbacks) callback();
  });
}

/** Runs `callback` in the next frame with the others queued for it; the returned function takes it back. */
export function inNextFrame(callback: () => void): () => void {
  queued.add(callback);
  if (!scheduled) {
    scheduled = true;
    if (typeof requestAnimationFrame === 'undefined') setTimeout(run, 0);
    else requestAnimationFrame(run);
  }
  return () => {
    queued.delete(callback);
  };
}

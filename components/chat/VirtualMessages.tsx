import { useVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MessageListProps } from './MessageList';
import { revealWhenDrawn } from './reveal';
import { estimateHeight } from './row-height';

/** A long conversation: only the messages in view (and a few around them) are drawn. */
export default function VirtualMessages({ messages, scroller, following, renderMessage, reveal }: MessageListProps) {
  const box = useRef<HTMLDivElement>(null);
  // Read once per render (a read with the layout out of date lays the page out), not once per row guessed.
  const listWidth = scroller.current?.clientWidth;
  // The same functions while the messages and the width stay the same: the virtualiser lays every
  // row out again (from the first) when its key function changes, else only from a row measured.
  const estimateSize = useCallback((index: number) => estimateHeight(messages[index]!, listWidth), [messages, listWidth]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- new with the width too: rows not yet measured are guessed again.
  const getItemKey = useCallback((index: number) => messages[index]!.id, [messages, listWidth]);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey,
    overscan: useAround(messages[0]?.conversationId),
    // The list starts below whatever the history shows above it (a note on unreadable messages).
    scrollMargin: box.current?.offsetTop ?? 0,
    // Opened at the newest message: its screen is the first drawn, not the oldest one's.
    initialOffset: () => (following ? Number.MAX_SAFE_INTEGER : 0),
    // While the newest message is followed, rows measured taller or shorter than guessed keep
    // the view at the end, in the same frame: the rows in view stay the ones drawn (else the view
    // would sit where the guesses put it for a frame, its rows swapped for others and back).
    anchorTo: following ? 'end' : 'start',
    measureElement: measureRow,
  });
  // While the newest message is followed, a row measured taller or shorter than guessed leaves
  // the scroll position alone: the view is taken back to the end once the list has its new size
  // (useFollowLatest). The virtualiser's own correction (keeping the rows in view where they were)
  // would scroll up, which reads as the reader scrolling away. Otherwise the rows in view stay
  // where they are, also while the reader scrolls up (keepViewStill).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = following ? () => false : keepViewStill;
  const nonce = reveal?.nonce;
  useEffect(() => {
    if (reveal === undefined) return;
    const index = messages.findIndex((m) => m.id === reveal.id);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: 'center' });
    return revealWhenDrawn(scroller, reveal.id);
    // Once per message revealed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nonce]);
  // The keys that jump (Home, End, a page up or down) move at once: the browser's smooth scroll
  // would be cut short by the corrections made as messages are measured on the way.
  useEffect(() => {
    const log = scroller.current;
    if (log === null) return;
    const onKey = (event: KeyboardEvent): void => {
      if (event.target !== log || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'Home') virtualizer.scrollToIndex(0, { align: 'start' });
      else if (event.key === 'End') virtualizer.scrollToIndex(virtualizer.options.count - 1, { align: 'end' });
      else if (event.key === 'PageUp' || event.key === 'PageDown') log.scrollBy({ top: (event.key === 'PageUp' ? -0.9 : 0.9) * log.clientHeight, behavior: 'instant' });
      else return;
      event.preventDefault();
    };
    log.addEventListener('keydown', onKey);
    return () => log.removeEventListener('keydown', onKey);
  }, [scroller, virtualizer]);
  const margin = virtualizer.options.scrollMargin;
  return (
    <div ref={box} className="virtual-messages relative w-full" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((row) => (
        // The gap between messages is each row's own padding, so it is measured with it.
        <div key={row.key} data-index={row.index} ref={virtualizer.measureElement} className="absolute inset-x-0 top-0 pb-4" style={{ transform: `translateY(${row.start - margin}px)` }}>
          {renderMessage(messages[row.index]!)}
        </div>
      ))}
    </div>
  );
}

/**
 * A row's height, as its ResizeObserver tells it after a frame's layout. A row just drawn is not
 * read as it is inserted: a reply's groups of blocks are `content-visibility: auto`, and until the
 * browser's first rendering of them has decided which are on screen each counts as its intrinsic
 * 24rem (a reply of 935 px read 380 px), which had the rows above it drawn too, to fill a view they
 * did not belong in, then dropped a frame later. Its guess (row-height.ts) stands until then; a
 * size already told is kept.
 */
export function measureRow(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<HTMLDivElement, Element>): number {
  const box = entry?.borderBoxSize[0];
  if (box !== undefined) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/** Rows drawn beyond each edge of the view, to scroll into without waiting. */
const AROUND = 3;
/** At the latest, this long after a conversation opens, its rows around the view are drawn. */
const AROUND_AFTER_MS = 1_000;

/**
 * How many rows to draw beyond the view: none while a conversation opens (its first screen
 * waits on no row it does not show: a reply of 200 code lines above the newest is as much
 * work as the newest), then `AROUND` once the page is idle.
 */
function useAround(conversation: string | undefined): number {
  const [aroundOf, setAroundOf] = useState<string | undefined>(undefined);
  const opening = aroundOf !== conversation;
  useEffect(() => {
    if (!opening) return;
    const done = (): void => setAroundOf(conversation);
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(done, 0);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(done, { timeout: AROUND_AFTER_MS });
    return () => cancelIdleCallback(idle);
  }, [conversation, opening]);
  return opening ? 0 : AROUND;
}

/**
 * Whether a row that changed size moves the scroll position with it, so that what is on screen
 * stays where it is: a row measured for the first time whose top is above the view (its guessed
 * height was above the view), or a row measured again that lies wholly above the view. The
 * virtualiser's own rule leaves the second alone while the reader scrolls up, so each reply above
 * that grew as it came near the view (its code and formulas drawn then, `content-visibility`)
 * pushed the screen down by what it grew: 400 to 1,300 px at a time in a conversation of code.
 * A row across the top of the view is left alone: it grows below its top (a reply streaming).
 */
export function keepViewStill(item: VirtualItem, _delta: number, instance: Virtualizer<HTMLDivElement, Element>): boolean {
  const offset = instance.scrollOffset ?? 0;
  return instance.itemSizeCache.has(item.key) ? item.end <= offset : item.start < offset;
}

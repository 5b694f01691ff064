import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import type { Message } from '@/lib/conversations/records';

/**
 * From this many messages on the shown branch, only those in view (and a few around them) are
 * drawn: a conversation of a thousand messages opens and scrolls like a short one. Shorter
 * conversations are drawn whole, so the browser's find-in-page sees every word.
 */
export const VIRTUAL_FROM = 60;

interface MessageListProps {
  messages: readonly Message[];
  /** The scrolling history element. */
  scroller: RefObject<HTMLDivElement | null>;
  /** Whether the view follows the newest message (it then opens at the end). */
  following: boolean;
  renderMessage(message: Message): ReactNode;
  /** Scroll to this message and mark it (a search result), once per nonce. */
  reveal: { id: string; nonce: number } | undefined;
}

/** A first guess of a message's height, from its length (each is measured once drawn). */
function estimateHeight(message: Message): number {
  const lines = Math.ceil(message.text.length / (message.role === 'user' ? 55 : 75)) + message.text.split('\n').length / 2;
  return (message.role === 'user' ? 48 : 72) + Math.min(lines, 400) * 21;
}

function markFound(element: Element | null | undefined): void {
  if (element === null || element === undefined) return;
  element.scrollIntoView({ block: 'center' });
  element.classList.add('found');
  setTimeout(() => element.classList.remove('found'), 2_000);
}

function findMessage(scroller: HTMLElement | null, id: string): Element | null | undefined {
  return scroller?.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
}

/** The messages of the shown branch, in order. */
export function MessageList(props: MessageListProps) {
  return props.messages.length >= VIRTUAL_FROM ? <VirtualMessages {...props} /> : <AllMessages {...props} />;
}

function AllMessages({ messages, scroller, renderMessage, reveal }: MessageListProps) {
  const nonce = reveal?.nonce;
  useEffect(() => {
    if (reveal === undefined) return;
    const frame = requestAnimationFrame(() => markFound(findMessage(scroller.current, reveal.id)));
    return () => cancelAnimationFrame(frame);
    // Once per message revealed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nonce]);
  return messages.map((m) => <Fragment key={m.id}>{renderMessage(m)}</Fragment>);
}

function VirtualMessages({ messages, scroller, following, renderMessage, reveal }: MessageListProps) {
  const box = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateHeight(messages[index]!),
    getItemKey: (index) => messages[index]!.id,
    overscan: 3,
    // The list starts below whatever the history shows above it (a note on unreadable messages).
    scrollMargin: box.current?.offsetTop ?? 0,
    // Opened at the newest message: its screen is the first drawn, not the oldest one's.
    initialOffset: () => (following ? Number.MAX_SAFE_INTEGER : 0),
  });
  const nonce = reveal?.nonce;
  useEffect(() => {
    if (reveal === undefined) return;
    const index = messages.findIndex((m) => m.id === reveal.id);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: 'center' });
    // Drawn once scrolled to (and measured, which may move it a little): then marked.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => markFound(findMessage(scroller.current, reveal.id)));
    });
    return () => cancelAnimationFrame(frame);
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

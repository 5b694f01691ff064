import { Fragment, useEffect, useState, type ReactNode, type RefObject } from 'react';
import type { Message } from '@/lib/conversations/records';

/**
 * From this many messages on the shown branch, only those in view (and a few around them) are
 * drawn: a conversation of a thousand messages opens and scrolls like a short one. Shorter
 * conversations are drawn whole, so the browser's find-in-page sees every word.
 */
export const VIRTUAL_FROM = 60;

export interface MessageListProps {
  messages: readonly Message[];
  /** The scrolling history element. */
  scroller: RefObject<HTMLDivElement | null>;
  /** Whether the view follows the newest message (it then opens at the end). */
  following: boolean;
  renderMessage(message: Message): ReactNode;
  /** Scroll to this message and mark it (a search result), once per nonce. */
  reveal: { id: string; nonce: number } | undefined;
}

export function findMessage(scroller: HTMLElement | null, id: string): Element | null | undefined {
  return scroller?.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
}

// Long conversations are rare in the popup: the virtualiser's code is fetched when one is shown
// (the chat page and the side panel fetch it as they start). Not React.lazy: a Suspense boundary
// holds its content back for a moment (300 ms) once it has shown its fallback.
type VirtualMessagesView = (props: MessageListProps) => ReactNode;
let virtualMessages: VirtualMessagesView | undefined;
let loadingVirtual: Promise<void> | undefined;

export function preloadVirtualMessages(): Promise<void> {
  loadingVirtual ??= import('./VirtualMessages').then((m) => {
    virtualMessages = m.default;
  });
  return loadingVirtual;
}

/** The messages of the shown branch, in order. */
export function MessageList(props: MessageListProps) {
  const long = props.messages.length >= VIRTUAL_FROM;
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (!long || virtualMessages !== undefined) return;
    let live = true;
    void preloadVirtualMessages().then(() => {
      if (live) setLoaded(true);
    });
    return () => {
      live = false;
    };
  }, [long]);
  if (!long) return <AllMessages {...props} />;
  const Virtual = virtualMessages;
  return Virtual === undefined ? null : <Virtual {...props} />;
}

function AllMessages({ messages, scroller, renderMessage, reveal }: MessageListProps) {
  const nonce = reveal?.nonce;
  useEffect(() => {
    if (reveal === undefined) return;
    // A search result opened here: the few lines that reveal it are fetched then (not with the popup).
    let cancel: (() => void) | undefined;
    let live = true;
    void import('./reveal').then(({ revealWhenDrawn }) => {
      if (live) cancel = revealWhenDrawn(scroller, reveal.id);
    });
    return () => {
      live = false;
      cancel?.();
    };
    // Once per message revealed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nonce]);
  return messages.map((m) => <Fragment key={m.id}>{renderMessage(m)}</Fragment>);
}


import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type WheelEvent } from 'react';

/** Keys that scroll the focused history up. */
const SCROLLS_UP = new Set(['PageUp', 'ArrowUp', 'Home']);

export interface FollowLatest {
  /** The scrolling history element. */
  logRef: React.RefObject<HTMLDivElement | null>;
  /** Its content (watched for growth). */
  contentRef: React.RefObject<HTMLDivElement | null>;
  /** Whether the view follows the newest message. */
  following: boolean;
  /** Stop following the newest message (before showing an older one). */
  stopFollowing(): void;
  onWheel(event: WheelEvent<HTMLDivElement>): void;
  /** Keys that scroll the history up stop following at once, as the wheel does. */
  onKeyDown(event: KeyboardEvent<HTMLDivElement>): void;
  /** Follow again, from now (on send, on "Jump to latest"). */
  jumpToLatest(): void;
}

/**
 * The view follows the newest message (on open, on send, while streaming, after a failure)
 * unless the reader scrolled up. `view` names what is shown (a conversation): a new one is
 * followed from its start. Growth is seen by a resize observer (after layout, before paint:
 * one scroll a frame however many deltas arrived), not by effects on every change of text.
 * `stopAt` gives the furthest scroll position to follow to, when there is one. Scrolling is
 * listened to directly (passive), not through React's events: following scrolls every frame.
 */
export function useFollowLatest(view: string | undefined, stopAt?: React.RefObject<(() => number | undefined) | null>): FollowLatest {
  const logRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ view: string | undefined; following: boolean }>({ view, following: true });
  // Another view is followed from its start: its state replaces the last view's before anything
  // is drawn (a view shown again later would otherwise take up where it was left).
  if (state.view !== view) setState({ view, following: true });
  const following = state.following;
  // Read by scroll handlers and the resize observer between renders.
  const followsNow = useRef(following);
  const lastAuto = useRef(0);
  // Where this view had scrolled itself when following was stopped (a search result to show):
  // that scroll's event, which comes after, is not the reader going back to the end.
  const stoppedAt = useRef<number | undefined>(undefined);
  // A ref object, the same for the view's life: kept as it was first given.
  const stop = useRef(stopAt);

  const set = (value: boolean): void => {
    followsNow.current = value;
    setState({ view, following: value });
  };
  const toBottom = (): void => {
    const el = logRef.current;
    if (el === null) return;
    // Where following stops (replies compared side by side: the question at the top, the
    // columns read from their start as they grow), else the end.
    el.scrollTop = Math.min(el.scrollHeight, stop.current?.current?.() ?? Infinity);
    lastAuto.current = el.scrollTop;
  };

  useLayoutEffect(() => {
    followsNow.current = following;
    if (following) toBottom();
  }, [following, view]);

  // The newest scroll handler, for the listener added once.
  const onScroll = useRef(() => undefined as void);
  useLayoutEffect(() => {
    onScroll.current = () => {
      const el = logRef.current;
      if (el === null) return;
      if (el.scrollTop === stoppedAt.current) return;
      stoppedAt.current = undefined;
      if (el.scrollHeight - el.scrollTop - el.clientHeight < 40) {
        if (!followsNow.current) set(true);
      } else if (el.scrollTop < lastAuto.current - 1 && followsNow.current) {
        // Moved up by the reader, not left behind by content that grew.
        set(false);
      }
    };
  });
  useEffect(() => {
    const log = logRef.current;
    if (log === null) return;
    const listener = (): void => onScroll.current();
    log.addEventListener('scroll', listener, { passive: true });
    return () => log.removeEventListener('scroll', listener);
  }, []);

  useEffect(() => {
    const content = contentRef.current;
    const log = logRef.current;
    if (content === null || log === null || typeof ResizeObserver === 'undefined') return;
    // The content grows (a delta, a new message, an error); the box shrinks (a notice below it).
    const observer = new ResizeObserver(() => {
      if (followsNow.current) toBottom();
    });
    observer.observe(content);
    observer.observe(log);
    return () => observer.disconnect();
  }, []);

  return {
    logRef,
    contentRef,
    following,
    onWheel(event) {
      if (event.deltaY < 0 && followsNow.current) set(false);
    },
    onKeyDown(event) {
      // (Otherwise a keyboard's smooth scroll races a growing reply, which scrolls it back down.)
      if (SCROLLS_UP.has(event.key) && event.target === event.currentTarget && followsNow.current) set(false);
    },
    jumpToLatest() {
      set(true);
      toBottom();
    },
    stopFollowing() {
      if (!followsNow.current) return;
      stoppedAt.current = lastAuto.current;
      set(false);
    },
  };
}

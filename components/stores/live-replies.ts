import { useMemo, useRef, useSyncExternalStore } from 'react';
import { create } from 'zustand';
import type { Message } from '@/lib/conversations/records';
import { IMAGE_REF_SCHEME } from '@/lib/images/types';
import type { TextGrowth } from '@/lib/render/blocks';

/** A streaming reply's text so far. */
export interface LiveText {
  text: string;
  reasoning: string;
  /**
   * Whether the text names an image, when whoever made it knows (found from its pieces as they
   * came: `grownText`), so that nothing reads the whole text to find out.
   */
  namesImages?: boolean;
  /**
   * How `text` grew from the text said before it (announced, or published), when it did: its
   * markdown reads only what was added (lib/render/blocks.ts, `TextGrowth`).
   */
  grew?: TextGrowth;
}

/** The end of a text kept to find an image reference that starts in one piece and ends in the next. */
const TAIL = IMAGE_REF_SCHEME.length - 1;

/**
 * Text `before` (with `tail`, the end of it kept by the caller) grown by `piece`: the new text,
 * whether it names an image, and its new tail. Only `piece` and the tail are searched: reading
 * the whole text would have the engine copy it into one string, a reply's size at each piece.
 */
export function grownText(before: { text: string; namesImages?: boolean } | undefined, tail: string, piece: string): { text: string; namesImages: boolean; tail: string } {
  const seen = tail + piece;
  return {
    text: (before?.text ?? '') + piece,
    namesImages: before?.namesImages === true || seen.includes(IMAGE_REF_SCHEME),
    tail: seen.length > TAIL ? seen.slice(-TAIL) : seen,
  };
}

/**
 * The page's one copy of the text of the replies streaming on it, by message id, fed from the
 * background's run events (components/hooks/useConversation.ts), once a frame. Only the views
 * of those replies read it: a frame of streamed text renders them alone, not the conversation
 * around them (which renders when a run starts, ends, or says something else).
 */
export const useLiveReplies = create<{ byId: ReadonlyMap<string, LiveText> }>(() => ({ byId: new Map() }));

/**
 * Whether a streamed text names an image (lib/images/inline.ts takes a chat model's images out of
 * its text as references), found as it is published: a text that grew is searched from where the
 * last was searched, so a frame does not read the whole reply again.
 */
const namesImages = new WeakMap<LiveText, boolean>();

function findImageRefs(value: LiveText, old: LiveText | undefined): boolean {
  const grew = old !== undefined && value.text.length >= old.text.length && value.text.startsWith(old.text);
  if (grew && namesImages.get(old) === true) return true;
  return value.text.includes(IMAGE_REF_SCHEME, grew ? Math.max(0, old.text.length - IMAGE_REF_SCHEME.length) : 0);
}

/** Whether reply text `live` names an image (only published texts are known; others are searched). */
export function hasImageRefs(live: LiveText): boolean {
  return live.namesImages ?? namesImages.get(live) ?? live.text.includes(IMAGE_REF_SCHEME);
}

/** The replies' texts as of now; a reply not named keeps its own (another conversation's, say). */
export function publishLiveReplies(texts: ReadonlyMap<string, LiveText>, gone: readonly string[] = []): void {
  const before = useLiveReplies.getState().byId;
  let changed = false;
  const byId = new Map(before);
  for (const [id, value] of texts) {
    const old = before.get(id);
    if (old !== undefined && old.text === value.text && old.reasoning === value.reasoning) continue;
    if (value.namesImages === undefined) namesImages.set(value, findImageRefs(value, old));
    byId.set(id, value);
    changed = true;
  }
  for (const id of gone) changed = byId.delete(id) || changed;
  if (changed) useLiveReplies.setState({ byId });
}

/** Who hears of a reply's text as it comes (before the frame that publishes it), by reply id. */
const incoming = new Map<string, Set<(value: LiveText) => void>>();

/**
 * Reply `id`'s text as it just came from the background, ahead of the next frame that publishes
 * it: its markdown asks the render worker for its blocks now (components/chat/Markdown.tsx,
 * `StreamingPath.prepare`), so that their renderings are usually here when that frame draws the
 * text, in that one frame, instead of in the frame after.
 */
export function announceLiveText(id: string, value: LiveText): void {
  for (const hear of incoming.get(id) ?? []) hear(value);
}

/** Calls `hear` with reply `id`'s text each time some of it comes (`announceLiveText`); returns how to stop. */
export function hearLiveText(id: string, hear: (value: LiveText) => void): () => void {
  let set = incoming.get(id);
  if (set === undefined) {
    set = new Set();
    incoming.set(id, set);
  }
  set.add(hear);
  return () => {
    set.delete(hear);
    if (set.size === 0 && incoming.get(id) === set) incoming.delete(id);
  };
}

/** The streamed text of reply `id`, as of now (undefined when none is streaming here). */
export function liveTextOf(id: string): LiveText | undefined {
  return useLiveReplies.getState().byId.get(id);
}

/** Calls `onChange` whenever reply `id`'s streamed text changes; returns how to stop. */
export function subscribeLiveText(id: string, onChange: () => void): () => void {
  return useLiveReplies.subscribe((state, before) => {
    if (state.byId.get(id) !== before.byId.get(id)) onChange();
  });
}

/**
 * Whether a reply's view draws differently around its text: the text's coming or going, its
 * reasoning (drawn as text), image references (drawn as images). The text's own growth is not
 * such a change: its markdown follows it without the view (components/chat/Markdown.tsx).
 */
function sameShape(a: LiveText, b: LiveText): boolean {
  return a.reasoning === b.reasoning && (a.text === '') === (b.text === '') && !hasImageRefs(a) && !hasImageRefs(b);
}

/**
 * `message` with its newest streamed text, while it streams, as its view draws it: a new message
 * only when the view would draw something else than the text's growth (`sameShape`), so a frame
 * of streamed text does not render the view. Its text is then as of that change; the markdown
 * reads the newest itself (`liveTextOf`).
 */
export function useLiveMessage(message: Message): Message {
  const streaming = message.status === 'streaming';
  const id = message.id;
  const kept = useRef<{ id: string; live: LiveText | undefined; shown: LiveText | undefined }>({ id, live: undefined, shown: undefined });
  const snapshot = (): LiveText | undefined => {
    const live = streaming ? useLiveReplies.getState().byId.get(id) : undefined;
    const k = kept.current;
    if (k.id === id && live === k.live) return k.shown;
    const shown = live !== undefined && k.id === id && k.shown !== undefined && sameShape(k.shown, live) ? k.shown : live;
    kept.current = { id, live, shown };
    return shown;
  };
  const live = useSyncExternalStore(useLiveReplies.subscribe, snapshot, snapshot);
  return useMemo(() => {
    if (live === undefined || (live.text === message.text && live.reasoning === message.reasoning)) return message;
    return { ...message, text: live.text, reasoning: live.reasoning };
  }, [live, message]);
}

import { create } from 'zustand';
import type { Message } from '@/lib/conversations/records';

/** A streaming reply's text so far. */
export interface LiveText {
  text: string;
  reasoning: string;
}

/**
 * The page's one copy of the text of the replies streaming on it, by message id, fed from the
 * background's run events (components/hooks/useConversation.ts), once a frame. Only the views
 * of those replies read it: a frame of streamed text renders them alone, not the conversation
 * around them (which renders when a run starts, ends, or says something else).
 */
export const useLiveReplies = create<{ byId: ReadonlyMap<string, LiveText> }>(() => ({ byId: new Map() }));

/** The replies' texts as of now; a reply not named keeps its own (another conversation's, say). */
export function publishLiveReplies(texts: ReadonlyMap<string, LiveText>, gone: readonly string[] = []): void {
  const before = useLiveReplies.getState().byId;
  let changed = false;
  const byId = new Map(before);
  for (const [id, value] of texts) {
    const old = before.get(id);
    if (old !== undefined && old.text === value.text && old.reasoning === value.reasoning) continue;
    byId.set(id, value);
    changed = true;
  }
  for (const id of gone) changed = byId.delete(id) || changed;
  if (changed) useLiveReplies.setState({ byId });
}

/** `message` with its newest streamed text, while it streams. */
export function useLiveMessage(message: Message): Message {
  const live = useLiveReplies((s) => (message.status === 'streaming' ? s.byId.get(message.id) : undefined));
  if (live === undefined || (live.text === message.text && live.reasoning === message.reasoning)) return message;
  return { ...message, text: live.text, reasoning: live.reasoning };
}

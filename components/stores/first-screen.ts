import * as z from 'zod/mini';
import { ConversationSchema, type Conversation } from '@/lib/conversations/records';

/**
 * The newest conversations as last shown, kept in the page origin's localStorage (read without
 * waiting, unlike the database): a page opens with its rail drawn from them, and the database's
 * answer replaces them a moment later. Titles and models only: never a key.
 */
const KEY = 'gateway-chat:first-screen';
const SHOWN = 40;
const FirstScreenSchema = z.array(ConversationSchema);

export function readFirstScreen(): Conversation[] | undefined {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (raw === null || raw === undefined) return undefined;
    const parsed = FirstScreenSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

let written = '';

export function writeFirstScreen(conversations: readonly Conversation[]): void {
  const text = JSON.stringify(conversations.slice(0, SHOWN));
  if (text === written) return;
  written = text;
  try {
    globalThis.localStorage?.setItem(KEY, text);
  } catch {
    // A full disk: the rail is then drawn from the database, as it would be without this.
  }
}

import type { Conversation } from '@/lib/conversations/records';

/** Whether the conversation waits for the user to keep or remove a system prompt it was imported with (nothing is sent until then). */
export function awaitsPromptReview(conversation: Conversation | undefined): boolean {
  return conversation?.settings?.systemPromptReview !== undefined;
}

/**
 * Words for the codes the background and lib/ return about a message that was not sent.
 * (Kept in one place so the i18n issue can move them into the message files as they are.)
 */
import type { MessageTooLarge } from '@/lib/runs/limits';

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function tooLargeText(tooLarge: MessageTooLarge): string {
  switch (tooLarge.problem) {
    case 'text_too_long':
      return `This message is about ${tooLarge.tokens.toLocaleString()} tokens; one message may hold ${tooLarge.limit.toLocaleString()}. Shorten it, or send it in parts.`;
    case 'too_many_images':
      return `${tooLarge.count} images are attached; one message may carry ${tooLarge.limit}. Remove some and send the rest in another message.`;
    case 'images_too_large':
      return `The attached images come to ${mb(tooLarge.bytes)}; one message may carry ${mb(tooLarge.limit)}. Remove some, or attach smaller images.`;
  }
}

/** A refusal from the background, in words: its code and numbers, or its message as sent. */
export function refusalText(refusal: { problem: string; message: string; params?: Record<string, string | number> }): string {
  const p = refusal.params ?? {};
  const num = (key: string): number => Number(p[key] ?? 0);
  switch (refusal.problem) {
    case 'text_too_long':
      return tooLargeText({ problem: 'text_too_long', tokens: num('tokens'), limit: num('limit') });
    case 'too_many_images':
      return tooLargeText({ problem: 'too_many_images', count: num('count'), limit: num('limit') });
    case 'images_too_large':
      return tooLargeText({ problem: 'images_too_large', bytes: num('bytes'), limit: num('limit') });
    case 'wait':
      return `The gateway asked to wait before asking again: Retry is possible in ${Math.max(1, Math.ceil((num('retryAt') - Date.now()) / 1000))} s.`;
    case 'busy':
      return 'A reply is still streaming in this conversation: wait for it or stop it first.';
    default:
      return refusal.message;
  }
}

/** How old the cached catalogue is ("fetched 5 min ago"). */
export function catalogueAge(fetchedAt: number | undefined, now = Date.now()): string {
  if (fetchedAt === undefined) return 'not fetched yet';
  const minutes = Math.round((now - fetchedAt) / 60_000);
  if (minutes < 1) return 'fetched just now';
  if (minutes < 60) return `fetched ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `fetched ${hours} h ago` : `fetched ${Math.round(hours / 24)} days ago`;
}

/**
 * An import from start to end: the file read, every record checked, then written in batches
 * (merged by id, newer wins) with progress after each. A file refused as a whole changes
 * nothing. Runs in a worker for the pages (transfer.worker.ts), so a large file never freezes one.
 */
import type { ConversationStore } from '../conversations/store';
import { parseHistory, type ImportContext, type ImportFileProblem, type Skipped } from './history-file';

/**
 * Records written per transaction: up to this many messages (or conversations). Fewer, larger
 * transactions write faster, and every page watching the list reads it again after each one.
 */
const BATCH_MESSAGES = 20_000;
const BATCH_CONVERSATIONS = 1_000;

export type ImportProgress = { phase: 'reading' } | { phase: 'writing'; done: number; total: number };

export type ImportResult =
  | { ok: true; source: 'gateway_chat' | 'chatgpt'; written: number; olderSkipped: number; skipped: Skipped[] }
  | { ok: false; problem: ImportFileProblem | 'write_failed'; params: Record<string, string | number> };

export async function runImport(text: string, store: ConversationStore, context: ImportContext, onProgress: (p: ImportProgress) => void = () => undefined): Promise<ImportResult> {
  onProgress({ phase: 'reading' });
  const parsed = parseHistory(text, context);
  if (!parsed.ok) return parsed;
  const total = parsed.conversations.length;
  let written = 0;
  let olderSkipped = 0;
  try {
    // Which conversations hold the file's message ids, read once: each batch keeps it up to date.
    const holders = await store.messageHolders(parsed.conversations.flatMap((c) => c.messages.map((m) => m.id)));
    for (let i = 0; i < total;) {
      let end = i;
      let messages = 0;
      while (end < total && end - i < BATCH_CONVERSATIONS && (end === i || messages + parsed.conversations[end]!.messages.length <= BATCH_MESSAGES)) {
        messages += parsed.conversations[end]!.messages.length;
        end++;
      }
      const result = await store.importConversations(parsed.conversations.slice(i, end), holders);
      written += result.written;
      olderSkipped += result.olderSkipped;
      i = end;
      onProgress({ phase: 'writing', done: i, total });
    }
  } catch (error) {
    return { ok: false, problem: 'write_failed', params: { written, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) } };
  }
  return { ok: true, source: parsed.source, written, olderSkipped, skipped: parsed.skipped };
}

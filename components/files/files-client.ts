/**
 * The page's side of the files worker (lib/files/files.worker.ts): one per page, started with
 * the first file and kept for the next. Where there is no Worker (unit tests), a text file is
 * read in the page (a PDF or a Word document is refused there as failed).
 */
import { FilesReplySchema } from '@/lib/files/protocol';
import type { ExtractResult } from '@/lib/files/types';

type Waiting = { resolve(result: ExtractResult): void; onPage?: ((page: number, pages: number) => void) | undefined };

/** A file not read in this long (a PDF that hangs pdf.js, a document that never ends) is given up, and its worker with it. */
const READ_TIMEOUT_MS = 120_000;

let worker: Worker | undefined;
const waiting = new Map<number, Waiting>();
let seq = 0;

function started(): Worker {
  if (worker !== undefined) return worker;
  const started = new Worker(new URL('../../lib/files/files.worker.ts', import.meta.url), { type: 'module', name: 'files' });
  started.addEventListener('message', (event: MessageEvent<unknown>) => {
    const parsed = FilesReplySchema.safeParse(event.data);
    if (!parsed.success) return;
    const reply = parsed.data;
    const pending = waiting.get(reply.seq);
    if (pending === undefined) return;
    if (reply.type === 'page') pending.onPage?.(reply.page, reply.pages);
    else {
      waiting.delete(reply.seq);
      pending.resolve(reply.result);
    }
  });
  // A worker that died (its code failed to load, say) fails what it was reading, and the next file starts a new one.
  started.addEventListener('error', (event) => {
    event.preventDefault();
    for (const [key, pending] of waiting) {
      waiting.delete(key);
      pending.resolve({ ok: false, refusal: { name: '', code: 'failed', params: { detail: 'worker' } } });
    }
    started.terminate();
    worker = undefined;
  });
  worker = started;
  return started;
}

/** Reads `file` off the page's thread: its text, or why it was refused (named). */
export async function readAttachment(file: File, id: string, onPage?: (page: number, pages: number) => void): Promise<ExtractResult> {
  if (typeof Worker === 'undefined') {
    // Text files only: pdf.js and mammoth live in the worker's bundle alone (not twice in the package).
    const { extractFile } = await import('@/lib/files/extract');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const noReader = (): Promise<never> => Promise.reject(new Error('no_worker'));
    return extractFile({ id, name: file.name, type: file.type, bytes }, { pdfjs: noReader, mammoth: noReader }, onPage === undefined ? {} : { onPage });
  }
  const key = ++seq;
  return new Promise<ExtractResult>((resolve) => {
    const timer = setTimeout(() => {
      if (!waiting.has(key)) return;
      // Everything the worker was reading fails with it; the next file starts a new one.
      for (const [k, pending] of waiting) {
        waiting.delete(k);
        pending.resolve({ ok: false, refusal: { name: '', code: 'failed', params: { detail: 'timeout' } } });
      }
      worker?.terminate();
      worker = undefined;
    }, READ_TIMEOUT_MS);
    waiting.set(key, {
      resolve: (result) => {
        clearTimeout(timer);
        resolve(result.ok || result.refusal.name !== '' ? result : { ok: false, refusal: { ...result.refusal, name: file.name } });
      },
      onPage,
    });
    started().postMessage({ type: 'extract', seq: key, id, file });
  });
}

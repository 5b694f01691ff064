/**
 * The files worker: a dropped file is read here, so a 100-page PDF never holds the page's
 * thread. The page sends the File (a handle, not a copy of its bytes); pages read and the
 * result come back (protocol.ts; the page's side is components/files/files-client.ts).
 */
import { browserReaders } from './browser-readers';
import { extractFile } from './extract';
import { FilesRequestSchema, type FilesReply } from './protocol';

const reply = (message: FilesReply): void => (self as unknown as { postMessage(m: unknown): void }).postMessage(message);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = FilesRequestSchema.safeParse(event.data);
  if (!parsed.success) return;
  const { seq, id, file } = parsed.data;
  void (async () => {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const result = await extractFile({ id, name: file.name, type: file.type, bytes }, browserReaders, {
      onPage: (page, pages) => reply({ type: 'page', seq, page, pages }),
    });
    reply({ type: 'result', seq, result });
  })().catch((error: unknown) => reply({ type: 'result', seq, result: { ok: false, refusal: { name: file.name, code: 'failed', params: { detail: error instanceof Error ? error.name : 'unknown' } } } }));
});

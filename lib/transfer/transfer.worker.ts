/**
 * Imports and exports off the page's thread: reading a 100 MB file, checking every record and
 * writing them takes seconds, none of which may freeze the page. The page posts one request and
 * receives progress, then the result (see transfer-client.ts).
 */
import * as z from 'zod/mini';
import { ConversationStore } from '../conversations/store';
import { ProfileSchema } from '../settings/schema';
import { exportHistory, withImageData } from './history-file';
import { runImport } from './run-import';

const RequestSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('import'), file: z.instanceof(Blob), profileId: z.string(),
    /** Where each profile lives (never its key): imported errors' links are rebuilt from them. */
    profiles: z.array(z.object({ id: z.string(), siteUrl: z.string(), baseUrl: z.string() })),
    database: z.optional(z.string()),
  }),
  z.object({ type: z.literal('export'), ids: z.optional(z.array(z.string())), includeProfiles: z.boolean(), profiles: z.array(ProfileSchema), database: z.optional(z.string()) }),
]);

const post = (message: unknown): void => (self as unknown as { postMessage(m: unknown): void }).postMessage(message);

self.addEventListener('message', (event: MessageEvent) => {
  const parsed = RequestSchema.safeParse(event.data);
  if (!parsed.success) {
    post({ type: 'result', result: { ok: false, problem: 'protocol', params: {} } });
    return;
  }
  const request = parsed.data;
  const store = new ConversationStore(request.database);
  void (async () => {
    try {
      // Opened first: a database that will not open is reported, not waited for (blocked).
      await store.open();
      if (request.type === 'import') {
        const text = await request.file.text();
        const result = await runImport(text, store, { profileId: request.profileId, profiles: request.profiles }, (progress) => post({ type: 'progress', progress }));
        post({ type: 'result', result });
      } else {
        const raw = await store.exportRaw(request.ids);
        const text = exportHistory(await withImageData(raw), { includeProfiles: request.includeProfiles, profiles: request.profiles });
        post({ type: 'result', result: { ok: true, text, count: raw.length } });
      }
    } catch (error) {
      post({ type: 'result', result: { ok: false, problem: 'write_failed', params: { detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) } } });
    } finally {
      store.close();
    }
  })();
});

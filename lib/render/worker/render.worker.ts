/**
 * The render worker: one per page, shared by every reply and compared column on it, so that
 * parsing, sanitising, highlighting and laying out formulas never hold the page's main thread.
 * Each message is handled as it comes: rendering itself is synchronous, so renders never
 * interleave, but one waiting for the cache or a grammar does not hold up the others (a
 * conversation opened at once asks for each of its messages; the page matches answers by id).
 */
import { RenderCache } from '../cache';
import { createRenderService } from './handler';
import { ToWorkerSchema } from './protocol';

const cache = new RenderCache();
const service = createRenderService(cache);
// Ready before the page opens a conversation; a database that cannot open fails again when used, and is then left alone.
void cache.open().catch(() => undefined);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToWorkerSchema.safeParse(event.data);
  // Only the page that started this worker can talk to it; anything else is not ours.
  if (!parsed.success) return;
  void service.handle(parsed.data).then((reply) => {
    if (reply !== undefined) self.postMessage(reply);
  });
});

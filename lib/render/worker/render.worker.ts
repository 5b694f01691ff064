/**
 * The render worker: one per page, shared by every reply and compared column on it, so that
 * parsing, sanitising, highlighting and laying out formulas never hold the page's main thread.
 * Messages are handled one at a time, in order.
 */
import { RenderCache } from '../cache';
import { createRenderService } from './handler';
import { ToWorkerSchema } from './protocol';

const service = createRenderService(new RenderCache());
let queue: Promise<void> = Promise.resolve();

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ToWorkerSchema.safeParse(event.data);
  // Only the page that started this worker can talk to it; anything else is not ours.
  if (!parsed.success) return;
  queue = queue.then(async () => {
    const reply = await service.handle(parsed.data);
    if (reply !== undefined) self.postMessage(reply);
  });
});

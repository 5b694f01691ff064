/**
 * The page's one render worker (lib/render/worker) and its client, started on first use, or
 * early by `startRenderer` while the page is idle. Where no worker starts (jsdom in tests, a
 * browser that refuses it), the same service runs in the page, behind the same messages.
 */
import { RenderClient, type RenderPort } from '@/lib/render/client';
import type { ToWorker } from '@/lib/render/worker/protocol';
import { inNextFrame } from '@/components/hooks/next-frame';

let client: RenderClient | undefined;

/** The worker's service in the page itself: answers after the current task, as a worker would. */
function inPagePort(): RenderPort {
  let deliver: (data: unknown) => void = () => undefined;
  const service = import('@/lib/render/worker/handler').then((m) => m.createRenderService());
  return {
    post(message: ToWorker) {
      service.then((s) => s.handle(message)).then((reply) => {
        if (reply !== undefined) deliver(reply);
      }, () => {
        // The renderer's code did not load (an extension updated under an open page): its blocks show as text.
        if (message.type === 'render') deliver({ type: 'failed', id: message.id, code: 'unavailable' });
      });
    },
    listen(onMessage) {
      deliver = onMessage;
    },
  };
}

function workerPort(): RenderPort | undefined {
  if (typeof Worker === 'undefined') return undefined;
  let worker: Worker;
  try {
    worker = new Worker(new URL('../../../lib/render/worker/render.worker.ts', import.meta.url), { type: 'module', name: 'render' });
  } catch {
    return undefined;
  }
  // A worker that fails to load (its script refused, say) hands its work to the page.
  let fallback: RenderPort | undefined;
  const sent: ToWorker[] = [];
  let onMessage: (data: unknown) => void = () => undefined;
  let answered = false;
  worker.addEventListener('error', () => {
    if (fallback !== undefined || answered) return;
    fallback = inPagePort();
    fallback.listen(onMessage);
    for (const message of sent.splice(0)) fallback.post(message);
  });
  worker.addEventListener('message', (event: MessageEvent<unknown>) => {
    answered = true;
    sent.length = 0;
    onMessage(event.data);
  });
  return {
    post(message) {
      if (fallback !== undefined) return fallback.post(message);
      if (!answered) sent.push(message);
      worker.postMessage(message);
    },
    listen(listener) {
      onMessage = listener;
    },
  };
}

/**
 * Answers are applied in the next frame's callback, with the text that streamed meanwhile
 * (components/hooks/next-frame.ts), so a frame lays out and paints its text and its renderings
 * together, once.
 */
export function renderClient(): RenderClient {
  client ??= new RenderClient(workerPort() ?? inPagePort(), inNextFrame);
  return client;
}

/**
 * The sandboxed preview page (manifest `sandbox.pages`, its CSP in lib/render/preview-page.ts):
 * it has a unique origin and no extension API. It runs the code from its hash in a frame of its
 * own, sandboxed again, whose document carries the same rules; this page's `frame-src 'none'`
 * keeps that frame from being navigated anywhere (a meta refresh, a link, a script).
 */
import { previewDocument, readPreviewHash } from '@/lib/render/preview-page';

const request = readPreviewHash(location.hash);
if (request !== undefined) {
  document.title = request.title;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.title = request.title;
  frame.srcdoc = previewDocument(request);
  document.body.append(frame);
}

/**
 * The readers as a browser runs them: pdf.js's modern build, its parser in this same thread
 * (the files worker is already off the page's thread: no worker inside a worker), and
 * mammoth's browser build. Each is fetched the first time a file of its kind comes.
 */
import type { Readers } from './extract';

let pdfjs: ReturnType<Readers['pdfjs']> | undefined;

export const browserReaders: Readers = {
  pdfjs: () => (pdfjs ??= (async () => {
    const [lib, parser] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.mjs')]);
    // pdf.js runs its parser in the calling thread when it finds it here (pdf.mjs, PDFWorker).
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = parser;
    return lib;
  })()),
  mammoth: async () => (await import('mammoth')).default,
};

/** pdf.js's parser module (no typings of its own): what pdf.mjs looks for on `globalThis.pdfjsWorker`. */
declare module 'pdfjs-dist/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}

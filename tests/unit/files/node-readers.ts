/** The readers as Node runs them: pdf.js's legacy build (Node 20 lacks what the modern one uses) and mammoth. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readers } from '@/lib/files/extract';
import type { FileInput } from '@/lib/files/extract';

export const nodeReaders: Readers = {
  pdfjs: async () => (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as Awaited<ReturnType<Readers['pdfjs']>>,
  // mammoth's Node build reads a Buffer (its browser build, which the worker gets, an ArrayBuffer).
  mammoth: async () => {
    const mammoth = (await import('mammoth')).default;
    return { convertToHtml: (input) => mammoth.convertToHtml({ buffer: Buffer.from(input.arrayBuffer) }) };
  },
};

const FIXTURES = join(import.meta.dirname, '../../fixtures/files');

/** A committed sample file, as the composer hands it on. */
export function fixture(name: string, type = ''): FileInput {
  return { id: name, name, type, bytes: new Uint8Array(readFileSync(join(FIXTURES, name))) };
}

/**
 * A PDF's text, page by page, through pdf.js (run inside the files worker: the page's thread
 * only receives the result). Each page starts with a `[Page n]` line, so the model can cite
 * pages and a cut can say where it fell. A password-protected PDF is refused as such (we never
 * ask for its password), one without any text layer as scanned, a damaged one as corrupt.
 */
import type { getDocument as GetDocument } from 'pdfjs-dist';
import { countLines } from './text';
import { FILE_LIMITS, type FileCut, type FileRefusalCode } from './types';

export interface PdfJs {
  getDocument: typeof GetDocument;
}

export interface PdfText {
  text: string;
  /** Pages in the file. */
  pages: number;
  lines: number;
  cut?: FileCut;
}

export class PdfRefused extends Error {
  constructor(readonly code: Extract<FileRefusalCode, 'protected' | 'no_text' | 'corrupt'>) {
    super(code);
    this.name = 'PdfRefused';
  }
}

interface TextItemLike { str?: string; hasEOL?: boolean }

/** One page's text: pdf.js's runs joined, its line ends kept, blank lines squeezed. */
export function pageText(items: readonly TextItemLike[]): string {
  let text = '';
  for (const item of items) {
    if (item.str === undefined) continue;
    text += item.str;
    if (item.hasEOL === true) text += '\n';
  }
  return text.split('\n').map((line) => line.replace(/\s+$/, '')).join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

export const pageMarker = (n: number): string => `[Page ${n}]`;

/**
 * The text of a PDF's first `maxPages` pages (the rest said cut). `onPage` hears each page read.
 * Throws PdfRefused for a protected, image-only or unreadable file.
 */
export async function extractPdf(pdfjs: PdfJs, bytes: Uint8Array, onPage?: (page: number, pages: number) => void, maxPages: number = FILE_LIMITS.maxPages): Promise<PdfText> {
  // pdf.js takes ownership of the buffer it is given: a copy keeps the caller's bytes whole.
  const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0, useSystemFonts: false, disableFontFace: true, stopAtErrors: false });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = error instanceof Error ? error.name : '';
    throw new PdfRefused(name === 'PasswordException' ? 'protected' : 'corrupt');
  }
  try {
    const pages = doc.numPages;
    const reading = Math.min(pages, maxPages);
    const parts: string[] = [];
    let withText = 0;
    for (let n = 1; n <= reading; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      page.cleanup();
      const text = pageText(content.items as TextItemLike[]);
      if (text !== '') withText++;
      parts.push(text === '' ? pageMarker(n) : `${pageMarker(n)}\n${text}`);
      onPage?.(n, pages);
    }
    if (withText === 0) throw new PdfRefused('no_text');
    const text = parts.join('\n\n');
    const result: PdfText = { text, pages, lines: countLines(text) };
    if (reading < pages) result.cut = { reason: 'pages', page: reading };
    return result;
  } catch (error) {
    if (error instanceof PdfRefused) throw error;
    throw new PdfRefused('corrupt');
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/**
 * One file to its attachment: what it is (detect.ts), its text (pdf.ts, docx.ts, text.ts), its
 * size in lines and tokens. A file that cannot be taken comes back as a refusal with its name
 * and a code; nothing is thrown.
 */
import { estimateTokens } from '../actions/tokens';
import { bytesToBase64 } from '../images/bytes';
import { detectFile } from './detect';
import { DocxRefused, extractDocx, type Mammoth } from './docx';
import { extractPdf, PdfRefused, type PdfJs } from './pdf';
import { countLines, decodeText } from './text';
import { FILE_LIMITS, type AttachedFile, type ExtractResult, type FileRefusalCode } from './types';

/** The readers, loaded on first use by whoever runs this (the files worker; tests in Node). */
export interface Readers {
  pdfjs(): Promise<PdfJs>;
  mammoth(): Promise<Mammoth>;
}

export interface FileInput {
  id: string;
  name: string;
  type: string;
  bytes: Uint8Array;
}

export interface ExtractOptions {
  /** Hears each PDF page read. */
  onPage?: (page: number, pages: number) => void;
  maxBytes?: number;
  maxPages?: number;
}

const refuse = (name: string, code: FileRefusalCode, params?: Record<string, string | number>): ExtractResult =>
  ({ ok: false, refusal: params === undefined ? { name, code } : { name, code, params } });

export async function extractFile(input: FileInput, readers: Readers, options: ExtractOptions = {}): Promise<ExtractResult> {
  const { name, bytes } = input;
  const maxBytes = options.maxBytes ?? FILE_LIMITS.maxBytes;
  if (bytes.byteLength > maxBytes) return refuse(name, 'too_large', { size: bytes.byteLength, limit: maxBytes });
  if (bytes.byteLength === 0) return refuse(name, 'empty');
  const detected = detectFile(name, input.type, bytes.subarray(0, 4096));
  if ('refuse' in detected) return refuse(name, detected.refuse, detected.params);
  const base = { id: input.id, name, kind: detected.kind, type: input.type, size: bytes.byteLength };
  try {
    let file: AttachedFile;
    if (detected.kind === 'pdf') {
      const pdf = await extractPdf(await readers.pdfjs(), bytes, options.onPage, options.maxPages);
      file = { ...base, pages: pdf.pages, lines: pdf.lines, tokens: estimateTokens(pdf.text), text: pdf.text };
      if (pdf.cut !== undefined) file.cut = pdf.cut;
      else if (bytes.byteLength <= FILE_LIMITS.maxInlineBytes && pdf.pages <= FILE_LIMITS.maxInlinePages) file.data = `data:application/pdf;base64,${bytesToBase64(bytes)}`;
    } else {
      const text = detected.kind === 'docx' ? await extractDocx(await readers.mammoth(), bytes) : decodeText(bytes);
      if (text === undefined) return refuse(name, 'binary');
      file = { ...base, lines: countLines(text), tokens: estimateTokens(text), text };
      if (detected.kind === 'text' && detected.language !== undefined) file.language = detected.language;
    }
    if (file.text.trim() === '') return refuse(name, 'empty');
    return { ok: true, file };
  } catch (error) {
    if (error instanceof PdfRefused || error instanceof DocxRefused) return refuse(name, error.code);
    return refuse(name, 'failed', { detail: error instanceof Error ? error.name : 'unknown' });
  }
}

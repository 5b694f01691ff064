/**
 * A Word document's text through mammoth (its HTML, which keeps headings, lists and tables),
 * written as Markdown so a table stays a table for the model. Runs in the files worker: the
 * HTML is read with htmlparser2, not a DOM.
 */
import { Parser } from 'htmlparser2';
import { tableAsMarkdown } from '../render/tables';

export interface Mammoth {
  convertToHtml(input: { arrayBuffer: ArrayBuffer }): Promise<{ value: string }>;
}

export class DocxRefused extends Error {
  constructor(readonly code: 'corrupt') {
    super(code);
    this.name = 'DocxRefused';
  }
}

const BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'pre']);

/** mammoth's HTML as Markdown: headings, paragraphs, lists (nested), tables; inline formatting dropped. */
export function htmlToMarkdown(html: string): string {
  const out: string[] = [];
  let line = '';
  let prefix = '';
  const lists: { ordered: boolean; n: number }[] = [];
  let table: string[][] | undefined;
  let row: string[] | undefined;
  let cell: string | undefined;
  /** Tables opened inside a cell: their text joins the cell's, their rows and cells are not the outer table's. */
  let nested = 0;
  const flush = (): void => {
    const text = line.replace(/\s+/g, ' ').trim();
    line = '';
    if (text === '') return;
    if (cell !== undefined) {
      cell = cell === '' ? text : `${cell} ${text}`;
      return;
    }
    out.push(prefix + text);
  };
  const parser = new Parser({
    onopentag(name) {
      if (BLOCKS.has(name)) flush();
      if (cell !== undefined) {
        if (name === 'table') nested++;
        // A cell's inner rows and cells, and its lists, read as its text.
        if (name === 'td' || name === 'th' || name === 'br') line += ' ';
        return;
      }
      if (name === 'ul' || name === 'ol') lists.push({ ordered: name === 'ol', n: 0 });
      else if (name === 'li') {
        const list = lists.at(-1);
        if (list !== undefined) list.n++;
        prefix = `${'  '.repeat(Math.max(0, lists.length - 1))}${list?.ordered === true ? `${list.n}.` : '-'} `;
      } else if (/^h[1-6]$/.test(name)) prefix = `${'#'.repeat(Number(name[1]))} `;
      else if (name === 'blockquote') prefix = '> ';
      else if (name === 'table') table = [];
      else if (name === 'tr') row = [];
      else if ((name === 'td' || name === 'th') && row !== undefined) cell = '';
      else if (name === 'br') line += '\n';
    },
    ontext(text) {
      line += text;
    },
    onclosetag(name) {
      if (BLOCKS.has(name)) flush();
      if (nested > 0) {
        if (name === 'table') nested--;
        return;
      }
      // Lists opened inside a cell were never pushed.
      if (cell !== undefined && (name === 'ul' || name === 'ol' || name === 'li')) return;
      if ((name === 'td' || name === 'th') && cell !== undefined) {
        flush();
        row?.push(cell);
        cell = undefined;
      } else if (name === 'tr' && row !== undefined) {
        table?.push(row);
        row = undefined;
      } else if (name === 'table' && table !== undefined) {
        if (table.length > 0) out.push(tableAsMarkdown(table));
        table = undefined;
      } else if (name === 'ul' || name === 'ol') lists.pop();
      if (BLOCKS.has(name) && cell === undefined) prefix = '';
    },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  flush();
  return out.join('\n\n');
}

/** The document's text as Markdown; throws DocxRefused when it is not a Word document mammoth can read. */
export async function extractDocx(mammoth: Mammoth, bytes: Uint8Array): Promise<string> {
  let html: string;
  try {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    html = (await mammoth.convertToHtml({ arrayBuffer: buffer })).value;
  } catch {
    throw new DocxRefused('corrupt');
  }
  return htmlToMarkdown(html);
}

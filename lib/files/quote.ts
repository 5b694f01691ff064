/**
 * What the model receives of an attached file: its name and size in a header line, then its
 * text quoted in a fence nothing inside can close (the shape a selection has), and where it was
 * cut when it was. Data, never instructions: the fence says so to the model as it does for a
 * selection. The header's words are for the model, in English whatever the UI's language.
 */
import { quoteAs } from '../actions/template';
import type { AttachedFile } from './types';

function sizeOf(file: AttachedFile): string {
  if (file.pages !== undefined) return `${file.pages} ${file.pages === 1 ? 'page' : 'pages'}`;
  return `${file.lines} ${file.lines === 1 ? 'line' : 'lines'}`;
}

function cutNote(file: AttachedFile): string | undefined {
  const cut = file.cut;
  if (cut === undefined) return undefined;
  const where = cut.page !== undefined
    ? cut.line !== undefined ? `line ${cut.line} of page ${cut.page}` : `page ${cut.page}${file.pages === undefined ? '' : ` of ${file.pages}`}`
    : `line ${cut.line ?? file.lines}`;
  return `(The file was cut after ${where} to fit the message; the rest was not sent.)`;
}

/** One file as the request carries it. */
export function quoteFile(file: AttachedFile): string {
  const head = `Attached file "${file.name.replace(/["\n\r]/g, '')}" (${sizeOf(file)}):`;
  const note = cutNote(file);
  return [head, quoteAs(file.text, file.language ?? 'text'), ...(note === undefined ? [] : [note])].join('\n');
}

/** The user's words followed by the attached files, each quoted. */
export function withFiles(text: string, files: readonly AttachedFile[] | undefined): string {
  if (files === undefined || files.length === 0) return text;
  const quoted = files.map(quoteFile).join('\n\n');
  return text.trim() === '' ? quoted : `${text}\n\n${quoted}`;
}

/** Estimated tokens all `files` add to a message. */
export function filesTokens(files: readonly AttachedFile[] | undefined): number {
  return (files ?? []).reduce((sum, f) => sum + f.tokens, 0);
}

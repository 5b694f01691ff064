/**
 * The text of a text file: UTF-8 (with or without its mark), UTF-16 with a mark, or, for the
 * files Chinese Windows still writes, GB18030. Anything else with NUL bytes or control
 * characters in it is not text.
 */

/** Control characters other than tab, line feed, form feed and carriage return. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g;

function plausible(text: string): boolean {
  const controls = text.match(CONTROL)?.length ?? 0;
  return controls <= Math.max(2, text.length / 1000);
}

function decode(encoding: string, bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The file's text (line ends made `\n`), or undefined when its bytes are not text. */
export function decodeText(bytes: Uint8Array): string | undefined {
  let text: string | undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = decode('utf-16le', bytes);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = decode('utf-16be', bytes);
  else {
    // NUL bytes in text without a UTF-16 mark: a binary file.
    if (bytes.subarray(0, 8192).includes(0)) return undefined;
    // UTF-8; else GB18030 (Chinese Windows); else Windows-1252 (Excel's CSVs with accents elsewhere).
    text = decode('utf-8', bytes) ?? decode('gb18030', bytes) ?? decode('windows-1252', bytes);
  }
  if (text === undefined) return undefined;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return plausible(text) ? text.replace(/\r\n?/g, '\n') : undefined;
}

/** Lines in a text (a last line without its newline counts). */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

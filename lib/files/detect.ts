/**
 * What a file is, from its first bytes first and its name second: a picture named `.txt` is a
 * picture, a PDF is `%PDF-` whatever it is called. Codes only.
 */
import type { FileKind, FileRefusalCode } from './types';

/** Text and code files by extension, with the fence language a model recognises (`''`: plain). */
const TEXT_LANGUAGES: Record<string, string> = {
  txt: '', text: '', log: '', md: 'markdown', markdown: 'markdown', mdx: 'markdown', rst: 'rst', tex: 'latex', srt: '', vtt: '',
  csv: 'csv', tsv: 'tsv', json: 'json', jsonl: 'json', ndjson: 'json', geojson: 'json', html: 'html', htm: 'html', xml: 'xml', svg: 'xml',
  yaml: 'yaml', yml: 'yaml', toml: 'toml', ini: 'ini', cfg: 'ini', conf: '', env: '', properties: 'properties',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'jsx', ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx',
  py: 'python', pyi: 'python', ipynb: 'json', rb: 'ruby', go: 'go', rs: 'rust', java: 'java', kt: 'kotlin', kts: 'kotlin', scala: 'scala',
  swift: 'swift', m: 'objectivec', mm: 'objectivec', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', cs: 'csharp',
  php: 'php', pl: 'perl', lua: 'lua', r: 'r', dart: 'dart', ex: 'elixir', exs: 'elixir', erl: 'erlang', hs: 'haskell', clj: 'clojure',
  sh: 'bash', bash: 'bash', zsh: 'bash', fish: 'fish', ps1: 'powershell', bat: 'bat', cmd: 'bat', sql: 'sql', graphql: 'graphql', proto: 'protobuf',
  css: 'css', scss: 'scss', sass: 'sass', less: 'less', vue: 'vue', svelte: 'svelte', astro: 'astro',
  diff: 'diff', patch: 'diff', dockerfile: 'dockerfile', makefile: 'makefile', gradle: 'groovy', groovy: 'groovy', tf: 'hcl', nix: 'nix', zig: 'zig',
};

/** Names that are their own kind, without an extension. */
const TEXT_NAMES: Record<string, string> = { dockerfile: 'dockerfile', makefile: 'makefile', readme: '', license: '', '.gitignore': '', '.env': '' };

/** Kinds we know and do not read, so the refusal can say what to do (save as .docx, as PDF, as CSV…). */
const UNSUPPORTED = new Set(['doc', 'rtf', 'odt', 'pages', 'xls', 'xlsx', 'ods', 'numbers', 'ppt', 'pptx', 'odp', 'key', 'epub']);

export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The fence language of a text file by its name (`''`: plain text), or undefined when the name does not say. */
export function languageOf(name: string): string | undefined {
  const base = (name.split(/[\\/]/).pop() ?? name).toLowerCase();
  if (base in TEXT_NAMES) return TEXT_NAMES[base];
  const ext = extensionOf(base);
  return ext in TEXT_LANGUAGES ? TEXT_LANGUAGES[ext] : undefined;
}

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0): boolean => magic.every((b, i) => bytes[at + i] === b);
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** Signatures of files that are not text (pictures, archives, programs, media). */
const BINARY_MAGIC: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47], [0xff, 0xd8, 0xff], ascii('GIF8'), [0x1f, 0x8b], ascii('Rar!'), [0x37, 0x7a, 0xbc, 0xaf], [0x7f, 0x45, 0x4c, 0x46],
  ascii('MZ'), ascii('RIFF'), ascii('OggS'), ascii('ID3'), ascii('fLaC'), [0x00, 0x61, 0x73, 0x6d], ascii('BM'), [0x28, 0xb5, 0x2f, 0xfd],
];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** An OLE compound file: old Word/Excel, or an encrypted Office document. */
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export type Detected = { kind: FileKind; language?: string } | { refuse: FileRefusalCode; params?: Record<string, string> };

/** What to do with a file, from its name, its type and its first bytes (at least 4 kB of them, or all). */
export function detectFile(name: string, type: string, head: Uint8Array): Detected {
  const ext = extensionOf(name);
  const saysPdf = ext === 'pdf' || type === 'application/pdf';
  // A PDF may have a little junk before its header (the format allows up to 1 kB), but only a
  // file that says it is a PDF is looked at that way: a text about PDFs may quote `%PDF-`.
  if (startsWith(head, ascii('%PDF-')) || (saysPdf && findAscii(head.subarray(0, 1024), '%PDF-') >= 0)) return { kind: 'pdf' };
  if (saysPdf) return { refuse: 'corrupt' };
  if (startsWith(head, ZIP)) {
    if (ext === 'docx' || type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document') return { kind: 'docx' };
    return UNSUPPORTED.has(ext) ? { refuse: 'unsupported', params: { ext } } : { refuse: 'binary' };
  }
  if (startsWith(head, OLE)) {
    // An encrypted .docx is an OLE file; a .doc is Word's old format.
    if (ext === 'docx') return { refuse: 'protected' };
    return UNSUPPORTED.has(ext) ? { refuse: 'unsupported', params: { ext } } : { refuse: 'binary' };
  }
  if (ext === 'docx') return { refuse: 'corrupt' };
  // A file named as text is checked against the longer signatures only (`BM`, `MZ`, `ID3` begin words too: "BMI,height").
  const namedText = languageOf(name) !== undefined;
  if (BINARY_MAGIC.some((magic) => (!namedText || magic.length >= 4) && startsWith(head, magic)) || (startsWith(head, ascii('ftyp'), 4))) return { refuse: 'binary' };
  if (UNSUPPORTED.has(ext)) return { refuse: 'unsupported', params: { ext } };
  const language = languageOf(name);
  return language === undefined || language === '' ? { kind: 'text' } : { kind: 'text', language };
}

function findAscii(bytes: Uint8Array, text: string): number {
  const codes = ascii(text);
  for (let i = 0; i + codes.length <= bytes.length; i++) if (startsWith(bytes, codes, i)) return i;
  return -1;
}

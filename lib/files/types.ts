/**
 * Attached files (issue 32): what the composer takes besides images. A file is read where it
 * was dropped (in a worker: lib/files/files.worker.ts), and only its text travels on: into the
 * user message, as a quoted, fenced attachment with its name (lib/files/quote.ts), and into the
 * saved message, so the conversation, its export and its sync keep what was sent.
 * Codes and numbers here; the words are the UI's.
 */
import * as z from 'zod/mini';

export const FILE_KINDS = ['pdf', 'docx', 'text'] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** Where a file's text was cut, and why (its pages, or the message's token budget). */
export const FileCutSchema = z.object({
  reason: z.enum(['pages', 'tokens']),
  /** The last page (PDF) or line (other files) that was kept. */
  page: z.optional(z.number()),
  line: z.optional(z.number()),
  /** Estimated tokens of the whole text, before the cut (known when the budget cut it). */
  tokens: z.optional(z.number()),
});
export type FileCut = z.infer<typeof FileCutSchema>;

/** A file as the message carries it, saved and synced with it. */
export const AttachedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(FILE_KINDS),
  /** The type the browser gave it (may be empty). */
  type: z.string(),
  /** Its size in bytes. */
  size: z.number(),
  /** PDF: how many pages it has (all of them, even when cut). */
  pages: z.optional(z.number()),
  /** Lines of the text kept. */
  lines: z.number(),
  /** Estimated tokens of the text kept. */
  tokens: z.number(),
  /** The extracted text; a PDF's pages start with `[Page n]`. */
  text: z.string(),
  /** The fence's language for code and data files (`python`, `csv`, …): a word, so an imported one cannot close the fence. */
  language: z.optional(z.string().check(z.regex(/^[\w+#.-]{0,32}$/))),
  cut: z.optional(FileCutSchema),
  /**
   * A PDF's own bytes as a `data:` URL (up to `FILE_LIMITS.maxInlineBytes`), for a model whose
   * catalogue says it takes files: sent as a `file` part on the turn it is attached, never saved
   * (the run keeps the text; later turns quote it).
   */
  data: z.optional(z.string()),
});
export type AttachedFile = z.infer<typeof AttachedFileSchema>;

/** A file as a saved message keeps it: never its own bytes (a stored, imported or synced `data` is dropped). */
export const SavedFileSchema = z.omit(AttachedFileSchema, { data: true });

/** Why a file was not taken: each named to the user with the file's name. */
export const FILE_REFUSALS = [
  /** Larger than `MAX_FILE_BYTES` (params: size, limit). */
  'too_large',
  /** A PDF that needs a password to open. */
  'protected',
  /** A PDF without a text layer (scanned): nothing to read; no OCR here. */
  'no_text',
  /** A PDF or document that cannot be read (cut short, damaged, or not what its name says). */
  'corrupt',
  /** Bytes that are not text (a picture named .txt, a program). */
  'binary',
  /** A kind we do not read (a spreadsheet, an archive, …): params.ext. */
  'unsupported',
  /** Nothing in it. */
  'empty',
  /** More files than one message takes (params: limit). */
  'too_many',
  /** The message's token budget is spent by the files already attached (params: limit). */
  'no_room',
  /** Reading failed for another reason (params.detail). */
  'failed',
] as const;
export type FileRefusalCode = (typeof FILE_REFUSALS)[number];

export interface FileRefusal {
  name: string;
  code: FileRefusalCode;
  params?: Record<string, string | number>;
}

export type ExtractResult = { ok: true; file: AttachedFile } | { ok: false; refusal: FileRefusal };

/** Limits on what the composer takes (checked before anything is read or sent). */
export const FILE_LIMITS = {
  /** Bytes of one file. */
  maxBytes: 32 * 1024 * 1024,
  /** Files in one message. */
  maxFiles: 10,
  /** PDF pages read from one file; the rest is cut, said so. */
  maxPages: 500,
  /** A PDF up to this size may go as itself to a model that takes files. */
  maxInlineBytes: 10 * 1024 * 1024,
  /** …and up to this many pages (Anthropic's limit for a PDF document). */
  maxInlinePages: 100,
} as const;

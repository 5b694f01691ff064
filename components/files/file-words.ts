/** Attached files in words: what a chip or a card says of a file, and why one was refused. */
import type { Words } from '@/lib/i18n/messages';
import type { AttachedFile, FileRefusal } from '@/lib/files/types';
import { mb } from '@/components/i18n/problems';


export function compactCount(w: Words, n: number): string {
  return w.number(n, { notation: 'compact', maximumFractionDigits: 1 });
}

/** "PDF · 3 pages · ~1.2K tokens" (without its kind where an icon says it). */
export function fileSummary(w: Words, file: AttachedFile, withKind = true): string {
  const size = file.pages !== undefined ? w.plural('files.pages', file.pages) : w.plural('files.lines', file.lines);
  return [...(withKind ? [w.t(`files.kind.${file.kind}`)] : []), size, w.t('files.tokens', { tokens: compactCount(w, file.tokens) })].join(' · ');
}

/** Where a cut file was cut, or undefined when it is whole. */
export function fileCutText(w: Words, file: AttachedFile): string | undefined {
  const cut = file.cut;
  if (cut === undefined) return undefined;
  if (cut.reason === 'pages') return w.t('files.cutPages', { page: cut.page ?? 0, pages: file.pages ?? 0 });
  if (cut.page !== undefined && cut.line !== undefined) return w.t('files.cutInPage', { page: cut.page, line: cut.line });
  if (cut.page !== undefined) return w.t('files.cutAtPage', { page: cut.page, pages: file.pages ?? cut.page });
  return w.t('files.cutAtLine', { line: cut.line ?? file.lines });
}

export function fileRefusalText(w: Words, refusal: FileRefusal): string {
  const p = refusal.params ?? {};
  const num = (key: string): number => Number(p[key] ?? 0);
  switch (refusal.code) {
    case 'too_large':
      return w.t('files.refusal.too_large', { name: refusal.name, size: mb(num('size')), limit: mb(num('limit')) });
    case 'unsupported':
      return w.t('files.refusal.unsupported', { name: refusal.name, ext: String(p.ext ?? '') });
    case 'too_many':
      return w.t('files.refusal.too_many', { name: refusal.name, limit: num('limit') });
    case 'no_room':
      return w.t('files.refusal.no_room', { name: refusal.name, limit: compactCount(w, num('limit')) });
    case 'failed':
      return w.t('files.refusal.failed', { name: refusal.name, detail: String(p.detail ?? '') });
    default:
      return w.t(`files.refusal.${refusal.code}`, { name: refusal.name });
  }
}

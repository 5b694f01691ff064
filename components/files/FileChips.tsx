/** The composer's attached files: a chip per file (its kind, size, token estimate, where it was cut), removable; files being read. */
import { FileText, LoaderCircle, Scissors, X } from 'lucide-react';
import { useWords } from '@/components/i18n/words';
import { buttonClass } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import type { AttachedFile, FileRefusal } from '@/lib/files/types';
import { fileCutText, fileRefusalText, fileSummary } from './file-words';
import type { ReadingFile } from './useAttachedFiles';

const CHIP = 'relative flex h-10 min-w-0 items-center gap-1.5 rounded-md border border-line bg-surface px-1.5 text-xs';

export function FileChips({ files, reading, onRemove }: { files: readonly AttachedFile[]; reading: readonly ReadingFile[]; onRemove(id: string): void }) {
  const w = useWords();
  if (files.length === 0 && reading.length === 0) return null;
  return (
    // As many columns as fit (two in the popup), each chip as wide as its column.
    <ul className="attached-files grid grid-cols-[repeat(auto-fill,minmax(10.5rem,1fr))] gap-1.5 px-2.5 pt-2.5" aria-label={w.t('files.attached')}>
      {files.map((file) => {
        const cut = fileCutText(w, file);
        return (
          <li key={file.id} className={CHIP}>
            <span className="flex size-6 shrink-0 items-center justify-center rounded-sm bg-accent-soft text-accent-soft-fg [&_svg]:size-3.5" title={w.t(`files.kind.${file.kind}`)}><FileText aria-hidden /></span>
            <span className="flex min-w-0 flex-1 flex-col leading-tight">
              <span className="file-name truncate font-medium text-fg" title={file.name}>{file.name}</span>
              {cut === undefined
                ? <span className="file-meta truncate text-2xs text-muted">{fileSummary(w, file, false)}</span>
                : <span className="file-cut flex items-center gap-1 truncate text-2xs text-warning" title={w.t('files.cutTip', { tokens: w.number(file.cut?.tokens ?? file.tokens), limit: w.number(file.tokens) })}><Scissors aria-hidden className="size-3 shrink-0" />{cut}</span>}
            </span>
            {/* At the corner, as on an attached image: the chip's width is for its name and size. */}
            <button type="button" aria-label={w.t('files.remove', { name: file.name })} title={w.t('files.remove', { name: file.name })} className="absolute -top-1.5 -right-1.5 flex size-5 cursor-pointer items-center justify-center rounded-full border border-line bg-raised text-fg shadow-sm hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring" onClick={() => onRemove(file.id)}>
              <X aria-hidden className="size-3" />
            </button>
          </li>
        );
      })}
      {reading.map((r) => (
        <li key={r.key} className={CHIP} aria-busy="true">
          <span className="flex size-6 shrink-0 items-center justify-center rounded-sm bg-surface-2 text-muted [&_svg]:size-3.5"><LoaderCircle aria-hidden className="animate-spin motion-reduce:animate-none" /></span>
          <span className="flex min-w-0 flex-1 flex-col leading-tight">
            <span className="truncate font-medium text-fg" title={r.name}>{r.name}</span>
            <span className="truncate text-2xs text-muted" role="status">{r.page !== undefined && r.pages !== undefined ? w.t('files.readingPage', { page: r.page, pages: r.pages }) : w.t('files.reading')}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Files not taken, each with its name and why; nothing else in the composer is touched. */
export function FileRefusals({ refusals, onDismiss }: { refusals: readonly FileRefusal[]; onDismiss(): void }) {
  const w = useWords();
  return (
    <Callout role="alert" tone="danger" className="file-refusals">
      {refusals.map((r, i) => <p key={i}>{fileRefusalText(w, r)}</p>)}
      <p><button type="button" className={buttonClass('ghost', 'sm', '-ml-2')} onClick={onDismiss}>{w.t('common.dismiss')}</button></p>
    </Callout>
  );
}

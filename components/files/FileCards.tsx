/** A sent message's files: a card each (name, kind, size), opening the text the model received. */
import { FileText, Scissors } from 'lucide-react';
import { useState } from 'react';
import { useWords } from '@/components/i18n/words';
import { Dialog } from '@/components/ui/Dialog';
import { Button } from '@/components/ui/Button';
import type { AttachedFile } from '@/lib/files/types';
import { fileCutText, fileSummary } from './file-words';

export function FileCards({ files }: { files: readonly AttachedFile[] }) {
  const w = useWords();
  const [open, setOpen] = useState<AttachedFile>();
  return (
    <>
      <ul className="file-cards flex flex-wrap gap-1.5" aria-label={w.t('files.attached')}>
        {files.map((file) => {
          const cut = fileCutText(w, file);
          return (
            <li key={file.id} className="min-w-0">
              <button
                type="button"
                aria-label={w.t('files.open', { name: file.name })}
                className="file-card flex max-w-64 min-w-0 cursor-pointer items-center gap-2 rounded-md border border-line bg-raised px-2 py-1.5 text-left text-xs hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring"
                onClick={() => setOpen(file)}
              >
                <span className="flex size-7 shrink-0 items-center justify-center rounded-sm bg-accent-soft text-accent-soft-fg [&_svg]:size-4"><FileText aria-hidden /></span>
                <span className="flex min-w-0 flex-col leading-tight">
                  <span className="truncate font-medium text-fg">{file.name}</span>
                  <span className="truncate text-2xs text-muted">{fileSummary(w, file)}</span>
                  {cut !== undefined && <span className="flex items-center gap-1 truncate text-2xs text-warning"><Scissors aria-hidden className="size-3 shrink-0" />{cut}</span>}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      <Dialog
        open={open !== undefined}
        onOpenChange={(now) => { if (!now) setOpen(undefined); }}
        title={open?.name ?? ''}
        description={open === undefined ? undefined : w.t('files.textOf', { name: open.name })}
        footer={<Button onClick={() => setOpen(undefined)}>{w.t('common.close')}</Button>}
      >
        {open !== undefined && (
          <pre className="file-text max-h-[55vh] overflow-auto rounded-md border border-line bg-surface-2 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap text-fg [overflow-wrap:anywhere]" tabIndex={0}>{open.text}</pre>
        )}
      </Dialog>
    </>
  );
}

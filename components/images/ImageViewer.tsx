import { Dialog as D } from 'radix-ui';
import { Download, Maximize, X } from 'lucide-react';
import { useState } from 'react';
import { cx } from '@/components/ui/cx';
import { Button } from '@/components/ui/Button';
import { IconButton } from '@/components/ui/IconButton';
import { useWords } from '@/components/i18n/words';

export interface ImageViewerProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  /** An object URL of the image (its owner revokes it). */
  url: string;
  prompt: string;
  onDownload(): void;
}

/** "Open image": the image at full size (scrolled when larger than the window), over the page. */
export default function ImageViewer({ open, onOpenChange, url, prompt, onDownload }: ImageViewerProps) {
  const w = useWords();
  // Fitted to the window at first; at its own size (scrolled) on demand.
  const [actual, setActual] = useState(false);
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/70" />
        <D.Content aria-describedby={undefined} className="animate-pop fixed inset-2 z-50 flex flex-col overflow-hidden rounded-lg border border-line bg-raised text-fg shadow-pop sm:inset-6">
          <div className="flex shrink-0 items-center gap-2 border-b border-line px-3 py-2">
            <D.Title className="min-w-0 flex-1 truncate text-sm font-semibold">{prompt === '' ? w.t('images.untitled') : prompt}</D.Title>
            <Button size="sm" variant="ghost" aria-pressed={actual} className="aria-pressed:bg-accent-soft aria-pressed:text-accent-soft-fg" onClick={() => setActual(!actual)}><Maximize aria-hidden />{w.t('images.actualSize')}</Button>
            <Button size="sm" onClick={onDownload}><Download aria-hidden />{w.t('images.download')}</Button>
            <D.Close asChild><IconButton size="sm" label={w.t('common.close')} icon={<X aria-hidden />} /></D.Close>
          </div>
          <div className={cx('min-h-0 flex-1 bg-surface p-2', actual ? 'overflow-auto' : 'flex items-center justify-center overflow-hidden')}>
            <img src={url} alt={prompt} className={cx('block', actual ? 'max-w-none' : 'max-h-full max-w-full object-contain')} />
          </div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

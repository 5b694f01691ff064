import { X } from 'lucide-react';
import { IconButton } from '@/components/ui/IconButton';
import { useWords } from '@/components/i18n/words';
import { useStoredImage } from './useStoredImage';

/** The image chosen to edit ("Edit this image"), as a chip the user can take away. */
export default function ImageToEdit({ id, prompt, onRemove }: { id: string; prompt: string; onRemove(): void }) {
  const w = useWords();
  const image = useStoredImage(id);
  return (
    <p className="image-to-edit flex items-center gap-2 px-2.5 pt-2.5">
      {image != null
        ? <img src={image.url} alt={w.t('images.toEdit', { prompt })} className="size-10 shrink-0 rounded-md border border-line object-cover" />
        : <span className="size-10 shrink-0 rounded-md border border-line bg-surface-2" />}
      <span className="min-w-0 flex-1 truncate text-xs text-muted">{w.t('images.editing', { prompt })}</span>
      <IconButton size="sm" className="!size-6" label={w.t('images.dontEdit')} icon={<X aria-hidden />} onClick={onRemove} />
    </p>
  );
}

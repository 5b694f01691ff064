import { useWords } from '@/components/i18n/words';
import { useStoredImage } from './useStoredImage';

/** A question's image from the store (the one it asked to edit), small. */
export function StoredThumbnail({ id }: { id: string }) {
  const w = useWords();
  const image = useStoredImage(id);
  if (image == null) return <span className="block size-16 rounded-md border border-line bg-surface-2" />;
  return <img src={image.url} alt={w.t('images.toEdit', { prompt: image.meta.prompt })} className="attached max-h-32 max-w-40 rounded-md border border-line object-cover" />;
}

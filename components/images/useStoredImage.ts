import { useEffect, useState } from 'react';
import type { ImageMeta } from '@/lib/images/types';
import { imageReader, metaOf } from './reader';

export interface StoredImage {
  meta: ImageMeta;
  /** An object URL of the image's Blob, revoked when the component goes. */
  url: string;
}

/**
 * An image of the store, shown through an object URL that is released when the component
 * unmounts (or shows another image). The bytes stay in the Blob: never base64 in state.
 * undefined while it is read; null when the store has no such image. A new `version` reads it
 * again (a reply that finished: a partial image may have been replaced under the same id).
 */
export function useStoredImage(id: string, version?: string): StoredImage | null | undefined {
  const [shown, setShown] = useState<{ id: string; image: StoredImage | null }>();
  // The last image stays shown while the next version is read (no flash of a placeholder).
  useEffect(() => {
    let url: string | undefined;
    let gone = false;
    void imageReader().get(id).then((record) => {
      if (gone) return;
      if (record === undefined) {
        setShown({ id, image: null });
        return;
      }
      url = URL.createObjectURL(record.blob);
      setShown({ id, image: { meta: metaOf(record), url } });
    }, () => {
      if (!gone) setShown({ id, image: null });
    });
    return () => {
      gone = true;
      if (url !== undefined) URL.revokeObjectURL(url);
    };
  }, [id, version]);
  return shown?.id === id ? shown.image : undefined;
}

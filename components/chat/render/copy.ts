import { toast } from '@/components/ui/Toast';
import type { Words } from '@/lib/i18n/messages';

/** Copies `text`, and says whether it worked (a toast); true when copied. */
export async function copyText(text: string, w: Words): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast(w.t('common.copied'));
    return true;
  } catch {
    toast(w.t('common.copyFailed'), 'error');
    return false;
  }
}

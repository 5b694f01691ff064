import type { MarkdownLabels } from '@/lib/render/markdown';
import type { Words } from '@/lib/i18n/messages';

const labelsCache = new WeakMap<Words, MarkdownLabels>();
/** The renderer's words in the current language (one object per language, so blocks re-render on a change). */
export function labelsFor(w: Words): MarkdownLabels {
  let labels = labelsCache.get(w);
  if (labels === undefined) {
    labels = {
      loadImage: (alt, host) => (alt === '' ? w.t('markdown.loadImage', { host }) : w.t('markdown.loadImageAlt', { alt, host })),
      copy: w.t('common.copy'),
      copyCode: (language) => w.t('markdown.copyCode', { language }),
      code: w.t('markdown.code'),
    };
    labelsCache.set(w, labels);
  }
  return labels;
}

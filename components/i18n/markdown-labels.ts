import type { RenderLabels } from '@/lib/render/labels';
import type { Words } from '@/lib/i18n/messages';

const labelsCache = new WeakMap<Words, RenderLabels>();

/**
 * The renderer's words in the current language, as templates the render worker fills: a word
 * asked for without values keeps its `{placeholders}`. One object per language, so blocks render
 * again on a change.
 */
export function labelsFor(w: Words): RenderLabels {
  let labels = labelsCache.get(w);
  if (labels === undefined) {
    labels = {
      copy: w.t('common.copy'),
      code: w.t('markdown.code'),
      copyCode: w.t('markdown.copyCode'),
      loadImage: w.t('markdown.loadImage'),
      loadImageAlt: w.t('markdown.loadImageAlt'),
      wrapLines: w.t('markdown.wrapLines'),
      showAllLines: w.t('markdown.showAllLines'),
      preview: w.t('markdown.preview'),
      openPreviewTab: w.t('markdown.openPreviewTab'),
      tableMenu: w.t('markdown.tableMenu'),
      formulaBlocked: w.t('markdown.formulaBlocked'),
      formulaTooLong: w.t('markdown.formulaTooLong'),
    };
    labelsCache.set(w, labels);
  }
  return labels;
}

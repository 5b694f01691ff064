import type { RenderLabels } from '@/lib/render/labels';
import type { Words } from '@/lib/i18n/messages';

const labelsCache = new WeakMap<Words, RenderLabels>();

/**
 * The renderer's words in the current language, as templates the render worker fills (one
 * object per language, so blocks render again on a change).
 */
export function labelsFor(w: Words): RenderLabels {
  let labels = labelsCache.get(w);
  if (labels === undefined) {
    // The worker fills each {placeholder}: here they are passed through as written.
    const template = (key: Parameters<Words['t']>[0], names: string[]): string => w.t(key, Object.fromEntries(names.map((n) => [n, `{${n}}`])));
    labels = {
      copy: w.t('common.copy'),
      code: w.t('markdown.code'),
      copyCode: template('markdown.copyCode', ['language']),
      loadImage: template('markdown.loadImage', ['host']),
      loadImageAlt: template('markdown.loadImageAlt', ['alt', 'host']),
    };
    labelsCache.set(w, labels);
  }
  return labels;
}

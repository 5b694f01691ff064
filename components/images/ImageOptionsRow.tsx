import { ChevronDown } from 'lucide-react';
import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { cx } from '@/components/ui/cx';
import { useWords } from '@/components/i18n/words';
import { imageModelFamily, isImageSize } from '@/lib/images/models';
import { IMAGE_BACKGROUNDS, IMAGE_COUNT, IMAGE_FORMATS, type ImageOptions } from '@/lib/images/types';
import type { MessageKey } from '@/lib/i18n/messages';

/** Qualities offered for a model whose family we do not know. */
const ANY_QUALITIES = ['auto', 'low', 'medium', 'high', 'standard', 'hd'] as const;

const QUALITY_WORDS: Record<string, MessageKey> = {
  auto: 'images.options.auto', low: 'images.options.qualities.low', medium: 'images.options.qualities.medium', high: 'images.options.qualities.high',
  standard: 'images.options.qualities.standard', hd: 'images.options.qualities.hd',
};

function Labelled({ label, children, className }: { label: string; children(id: string): ReactNode; className?: string }) {
  const id = useId();
  return (
    <span className={cx('flex min-w-0 items-center gap-1.5', className)}>
      <label htmlFor={id} className="shrink-0 text-2xs font-medium text-muted">{label}</label>
      {children(id)}
    </span>
  );
}

const COMPACT_FIELD = cx(
  'h-7 min-w-0 rounded-md border border-line bg-raised text-xs text-fg placeholder:text-muted transition-colors hover:border-line-strong',
  'focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring focus-visible:border-ring disabled:opacity-60 disabled:cursor-not-allowed aria-invalid:border-danger',
);

/** The browser's own select, compact (a row of them sits in the composer, 400 px wide in the popup). */
function NativeSelect({ className, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <span className="relative inline-flex min-w-0">
      <select className={cx(COMPACT_FIELD, 'cursor-pointer appearance-none pr-6 pl-2', className)} {...rest} />
      <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-1.5 size-3.5 -translate-y-1/2 text-muted" />
    </span>
  );
}

const SELECT = undefined;

/** The size as it reads: `1024 × 1024`, or Auto. */
export function sizeText(w: ReturnType<typeof useWords>, size: string): string {
  return size === 'auto' ? w.t('images.options.auto') : size.replace('x', ' × ');
}

/**
 * The options next to the composer for an image model: Size (the model's sizes, else a free
 * `WxH`), Quality, Number of images, and for gpt-image models Background and Format. An option
 * left at "Default" is not sent (the gateway's default applies).
 */
export function ImageOptionsRow({ model, options, onChange }: { model: string; options: ImageOptions; onChange(options: ImageOptions): void }) {
  const w = useWords();
  const family = imageModelFamily(model);
  const errorId = useId();
  const set = <K extends keyof ImageOptions>(key: K, value: ImageOptions[K] | undefined): void => {
    const next = { ...options };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  const maxCount = family?.maxCount ?? IMAGE_COUNT.max;
  const qualities = family?.qualities ?? ANY_QUALITIES;
  const sizeBad = family === undefined && options.size !== undefined && options.size !== '' && !isImageSize(options.size);
  const def = w.t('images.options.default');
  return (
    <div className="image-options flex flex-col gap-1 border-t border-line px-2.5 pt-2 pb-1" role="group" aria-label={w.t('images.options.label')}>
      <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1.5">
        <Labelled label={w.t('images.options.size')}>
          {(id) => family !== undefined
            ? (
              <NativeSelect id={id} className={SELECT} value={options.size ?? ''} onChange={(e) => set('size', e.target.value === '' ? undefined : e.target.value)}>
                <option value="">{def}</option>
                {family.sizes.map((s) => <option key={s} value={s}>{sizeText(w, s)}</option>)}
              </NativeSelect>
            )
            : (
              <input
                id={id} className={cx(COMPACT_FIELD, 'w-28 px-2')} inputMode="text" spellCheck={false} autoComplete="off"
                placeholder={w.t('images.options.sizePlaceholder')} value={options.size ?? ''}
                aria-invalid={sizeBad || undefined} aria-describedby={sizeBad ? errorId : undefined}
                onChange={(e) => set('size', e.target.value === '' ? undefined : e.target.value)}
              />
            )}
        </Labelled>
        <Labelled label={w.t('images.options.quality')}>
          {(id) => (
            <NativeSelect id={id} className={SELECT} value={options.quality ?? ''} onChange={(e) => set('quality', e.target.value === '' ? undefined : e.target.value)}>
              <option value="">{def}</option>
              {qualities.map((q) => <option key={q} value={q}>{QUALITY_WORDS[q] === undefined ? q : w.t(QUALITY_WORDS[q])}</option>)}
            </NativeSelect>
          )}
        </Labelled>
        <Labelled label={w.t('images.options.count')}>
          {(id) => (
            <NativeSelect id={id} className={SELECT} value={String(Math.min(options.n ?? 1, maxCount))} disabled={maxCount === 1} onChange={(e) => set('n', Number(e.target.value))}>
              {Array.from({ length: maxCount - IMAGE_COUNT.min + 1 }, (_, i) => IMAGE_COUNT.min + i).map((n) => <option key={n} value={n}>{n}</option>)}
            </NativeSelect>
          )}
        </Labelled>
        {family?.gptImageOptions === true && (
          <>
            <Labelled label={w.t('images.options.background')}>
              {(id) => (
                <NativeSelect id={id} className={SELECT} value={options.background ?? ''} onChange={(e) => set('background', IMAGE_BACKGROUNDS.find((b) => b === e.target.value))}>
                  <option value="">{def}</option>
                  {IMAGE_BACKGROUNDS.map((b) => <option key={b} value={b}>{w.t(b === 'auto' ? 'images.options.auto' : `images.options.backgrounds.${b}`)}</option>)}
                </NativeSelect>
              )}
            </Labelled>
            <Labelled label={w.t('images.options.format')}>
              {(id) => (
                <NativeSelect id={id} className={SELECT} value={options.outputFormat ?? ''} onChange={(e) => set('outputFormat', IMAGE_FORMATS.find((f) => f === e.target.value))}>
                  <option value="">{def}</option>
                  {IMAGE_FORMATS.map((f) => <option key={f} value={f}>{f.toUpperCase()}</option>)}
                </NativeSelect>
              )}
            </Labelled>
          </>
        )}
      </div>
      {sizeBad && <p id={errorId} role="alert" className="text-2xs font-medium text-danger">{w.t('images.options.sizeInvalid')}</p>}
    </div>
  );
}

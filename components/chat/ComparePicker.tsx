import { X } from 'lucide-react';
import { memo, type Ref } from 'react';
import type { Catalogue } from '@/components/stores/catalogue';
import { IconButton } from '@/components/ui/IconButton';
import { useWords } from '@/components/i18n/words';
import { COMPARE_MODELS } from '@/lib/runs/limits';
import type { Profile } from '@/lib/settings/schema';
import { ModelPicker } from './ModelPicker';

interface ComparePickerProps {
  catalogue: Catalogue;
  profile: Profile;
  models: readonly string[];
  onChange(models: string[]): void;
  onClose(): void;
  /** The "Add a model to compare" field (focused when the comparison opens). */
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * The models the next message goes to at once (2–4): each a chip that can be removed, and the
 * model picker to add another. Everything is reachable by Tab; Enter in the picker adds.
 */
export const ComparePicker = memo(function ComparePicker({ catalogue, profile, models, onChange, onClose, inputRef }: ComparePickerProps) {
  const w = useWords();
  const full = models.length >= COMPARE_MODELS.max;
  return (
    <div className="compare-picker flex shrink-0 flex-col gap-1.5 border-b border-line bg-surface px-2 py-2" role="group" aria-label={w.t('compare.models')}>
      <div className="flex flex-wrap items-center gap-1.5">
        <ul className="contents" aria-label={w.t('compare.models')}>
          {models.map((model) => (
            <li key={model} className="compare-chip flex h-7 max-w-52 items-center gap-0.5 rounded-full border border-line bg-raised pr-0.5 pl-2.5 text-xs shadow-xs">
              <span className="min-w-0 truncate" title={model}>{model}</span>
              <IconButton size="sm" className="!size-5 rounded-full text-muted" label={w.t('compare.remove', { model })} icon={<X aria-hidden />} onClick={() => onChange(models.filter((m) => m !== model))} />
            </li>
          ))}
        </ul>
        {!full && (
          <div className="min-w-40 flex-1">
            <ModelPicker
              catalogue={catalogue} profile={profile} value={undefined} compact label={w.t('compare.add')} placeholder={w.t('compare.addPlaceholder')} inputRef={inputRef}
              onChange={(model) => { if (!models.includes(model)) onChange([...models, model]); }}
            />
          </div>
        )}
        <IconButton size="sm" className="ml-auto" label={w.t('compare.off')} icon={<X aria-hidden />} onClick={onClose} />
      </div>
      <p className="compare-hint text-2xs text-muted" aria-live="polite">
        {models.length < COMPARE_MODELS.min ? w.t('compare.needMore') : full ? `${w.t('compare.hint')} ${w.t('compare.full')}` : w.t('compare.hint')}
      </p>
    </div>
  );
});

import { Brain, Clock, Eye, RefreshCw, Star, Wrench } from 'lucide-react';
import { memo, useCallback, useMemo, type KeyboardEvent, type Ref } from 'react';
import type { Catalogue } from '@/components/stores/catalogue';
import { Badge } from '@/components/ui/Badge';
import { Combobox } from '@/components/ui/Combobox';
import { IconButton } from '@/components/ui/IconButton';
import { cx } from '@/components/ui/cx';
import { CatalogueIndex } from '@/lib/catalogue/filter';
import { pickerRows, type PickerRow } from '@/lib/catalogue/picker';
import { withFavouriteModel, type Profile } from '@/lib/settings/schema';
import { updateProfile } from '@/lib/settings/storage.adapter';
import { API_NAME } from '@/components/i18n/apiNames';
import { formatAmount } from '@/components/i18n/money';
import { usePricing } from '@/components/stores/pricing';
import { priceOf, type ModelPrice } from '@/lib/gateway/billing';
import { catalogueAge } from '@/components/i18n/problems';
import { useWords } from '@/components/i18n/words';

interface ModelPickerProps {
  catalogue: Catalogue;
  /** Whose starred and recent models come first (and where a star is saved). */
  profile: Profile;
  value: string | undefined;
  onChange(model: string): void;
  inputRef?: Ref<HTMLInputElement>;
  /** Without the refresh button (the catalogue tab has its own). */
  compact?: boolean;
  /** The accessible name: "Model" in a chat, "Default model" in the settings. */
  label?: string;
  /** What the empty field says (else "Choose a model"). */
  placeholder?: string;
}

/** What the gateway states about a model, as small badges (nothing where it says nothing). */
export function CapabilityBadges({ row }: { row: PickerRow }) {
  const w = useWords();
  const c = row.model?.capabilities;
  if (row.model === undefined) return <Badge tone="warning">{w.t('picker.notInCatalogue')}</Badge>;
  return (
    <>
      {c?.imageInput === true && <Badge tone="accent" title={w.t('picker.badge.visionTitle')}><Eye aria-hidden />{w.t('picker.badge.vision')}</Badge>}
      {c?.reasoning === true && <Badge tone="accent" title={w.t('picker.badge.reasoningTitle')}><Brain aria-hidden />{w.t('picker.badge.reasoning')}</Badge>}
      {c?.tools === true && <Badge tone="accent" title={w.t('picker.badge.toolsTitle')}><Wrench aria-hidden />{w.t('picker.badge.tools')}</Badge>}
      {row.model.preferredApi !== undefined && row.model.preferredApi !== 'chat' && (
        <Badge title={w.t('picker.badge.viaTitle', { api: w.t(API_NAME[row.model.preferredApi]) })}>{w.t(`picker.badge.${row.model.preferredApi}`)}</Badge>
      )}
    </>
  );
}

/** The model's listed price, compact: per 1M tokens in / out, or per request. */
function PickerPrice({ price }: { price: ModelPrice | undefined }) {
  const w = useWords();
  if (price === undefined) return null;
  const text = price.perRequest !== undefined
    ? w.t('catalogue.price.perRequest', { price: formatAmount(w, price.perRequest, price.currency) })
    : w.t('picker.price', { input: formatAmount(w, price.input ?? 0, price.currency), output: formatAmount(w, price.output ?? price.input ?? 0, price.currency) });
  return <span className="picker-price shrink-0 text-2xs text-muted tabular-nums" title={w.t('catalogue.price.title')}>{text}</span>;
}

function Row({ row, favourite, price }: { row: PickerRow; favourite: boolean; price: ModelPrice | undefined }) {
  return (
    <>
      <span className="flex size-4 shrink-0 items-center justify-center text-muted [&_svg]:size-3.5">
        {favourite ? <Star aria-hidden className="fill-current text-warning" /> : row.group === 'recent' ? <Clock aria-hidden /> : null}
      </span>
      <span className="min-w-0 flex-1 truncate" title={row.id}>
{row.id}</span>
      <span className="flex shrink-0 items-center gap-1"><CapabilityBadges row={row} /><PickerPrice price={price} /></span>
    </>
  );
}

/**
 * The model picker of every surface: a combobox named "Model" over the whole catalogue,
 * starred models first, then recent ones; Ctrl+S stars the highlighted model.
 */
export const ModelPicker = memo(function ModelPicker({ catalogue, profile, value, onChange, inputRef, compact = false, label, placeholder }: ModelPickerProps) {
  const w = useWords();
  const index = useMemo(() => new CatalogueIndex(catalogue.models), [catalogue.models]);
  const byId = useMemo(() => new Map(catalogue.models.map((m) => [m.id, m])), [catalogue.models]);
  const favourites = useMemo(() => new Set(profile.favouriteModels ?? []), [profile.favouriteModels]);
  const prices = usePricing(profile);
  const lists = useMemo(() => ({
    favourites: profile.favouriteModels ?? [],
    // The chosen model stays offered even when the catalogue no longer lists it.
    recent: value === undefined || byId.has(value) || (profile.recentModels ?? []).includes(value) ? profile.recentModels ?? [] : [value, ...(profile.recentModels ?? [])],
  }), [profile.favouriteModels, profile.recentModels, value, byId]);
  const search = useCallback((query: string) => pickerRows(index, byId, query, lists), [index, byId, lists]);

  const onItemKey = (event: KeyboardEvent<HTMLInputElement>, row: PickerRow): boolean => {
    if (!(event.key === 's' && (event.ctrlKey || event.metaKey))) return false;
    void updateProfile(profile.id, (p) => withFavouriteModel(p, row.id, !favourites.has(row.id)));
    return true;
  };

  const listed = value === undefined || byId.has(value) || catalogue.models.length === 0;
  return (
    <div className="model-picker flex min-w-0 max-w-[26rem] flex-1 items-center gap-1">
      <Combobox<PickerRow>
        label={label ?? w.t('picker.label')}
        className={cx('flex-1', !listed && '[&_input]:border-warning')}
        display={value ?? ''}
        placeholder={catalogue.loading ? w.t('picker.loading') : placeholder ?? w.t('picker.choose')}
        search={search}
        itemKey={(row) => row.id}
        renderItem={(row) => <Row row={row} favourite={favourites.has(row.id)} price={priceOf(prices, row.id)} />}
        itemLabel={(row) => `${row.id}${favourites.has(row.id) ? ` (${w.t('picker.starred')})` : ''}${row.model === undefined ? ` (${w.t('picker.notInCatalogue')})` : ''}`}
        onSelect={(row) => onChange(row.id)}
        onItemKey={onItemKey}
        emptyText={catalogue.models.length === 0 ? w.t('picker.noModels') : w.t('picker.noMatch')}
        footer={<>{w.plural('picker.count', catalogue.models.length)} · {catalogueAge(w, catalogue.fetchedAt)} · {w.t('picker.starHint')}</>}
        inputRef={inputRef}
      />
      {!compact && (
        <IconButton
          size="sm"
          label={w.t('picker.refresh')}
          tip={w.t('picker.refreshTip', { age: catalogueAge(w, catalogue.fetchedAt) })}
          icon={<RefreshCw aria-hidden className={catalogue.loading ? 'animate-spin motion-reduce:animate-none' : undefined} />}
          disabled={catalogue.loading}
          onClick={() => void catalogue.refresh()}
        />
      )}
    </div>
  );
});

import { Check, Copy, EllipsisVertical, ExternalLink, MousePointerClick, RefreshCw, Search, Star } from 'lucide-react';
import { memo, useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { catalogueAge } from '@/components/i18n/problems';
import { settingsSaveText } from '@/components/i18n/setup-problems';
import type { Words } from '@/lib/i18n/messages';
import { Badge } from '@/components/ui/Badge';
import { Callout } from '@/components/ui/Callout';
import { EmptyState } from '@/components/ui/EmptyState';
import { IconButton } from '@/components/ui/IconButton';
import { Input } from '@/components/ui/Input';
import { Menu, MenuItem, MenuSeparator } from '@/components/ui/Menu';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { SkeletonRows } from '@/components/ui/Skeleton';
import { toast } from '@/components/ui/Toast';
import { cx } from '@/components/ui/cx';
import type { Catalogue } from '@/components/stores/catalogue';
import { VirtualList } from '@/components/VirtualList';
import { CAPABILITY_FILTERS, CatalogueIndex, INTERFACE_FILTERS, isFree, servesThrough, type CapabilityFilter } from '@/lib/catalogue/filter';
import type { ModelInfo, ModelPrice } from '@/lib/gateway';
import { priceOf } from '@/lib/gateway/billing';
import { formatAmount } from '@/components/i18n/money';
import { usePricing } from '@/components/stores/pricing';
import { withFavouriteModel, type Profile } from '@/lib/settings/schema';
import { updateProfile } from '@/lib/settings/storage.adapter';
import { useWords } from '@/components/i18n/words';
import { API_NAME } from '@/components/i18n/apiNames';


/** The interfaces the gateway serves the model through, the preferred (first) one marked. */
function InterfaceBadges({ model }: { model: ModelInfo }) {
  const w = useWords();
  const apis = INTERFACE_FILTERS.filter((api) => servesThrough(model, api));
  if (apis.length === 0) return null;
  const preferred = model.preferredApi ?? apis[0];
  const ordered = model.apis ?? apis;
  return (
    <span role="group" aria-label={w.t('catalogue.badge.interfacesLabel')} className="contents">
      {ordered.map((api) => (
        <Badge key={api} className={api === preferred ? 'font-semibold ring-1 ring-line-strong' : undefined} title={api === preferred ? w.t('catalogue.badge.preferred', { api: w.t(API_NAME[api]) }) : w.t(API_NAME[api])}>
          {w.t(`catalogue.badge.${api}`)}
        </Badge>
      ))}
    </span>
  );
}

/** What the gateway states about the basics; "unknown" where it says nothing. */
function BasicBadges({ model }: { model: ModelInfo }) {
  const w = useWords();
  const c = model.capabilities;
  if (c.chat === 'unknown' && c.responses === 'unknown' && c.imageInput === 'unknown' && c.imageGeneration === 'unknown' && model.apis === undefined) {
    return <Badge tone="muted">{w.t('catalogue.badge.unknown')}</Badge>;
  }
  return (
    <>
      <InterfaceBadges model={model} />
      {c.imageInput === true && <Badge tone="accent">{w.t('catalogue.badge.imageInput')}</Badge>}
      {c.imageInput === 'unknown' && <Badge tone="muted">{w.t('catalogue.badge.imageInputUnknown')}</Badge>}
      {c.imageGeneration === true && <Badge tone="accent">{w.t('catalogue.badge.imageGeneration')}</Badge>}
      {c.reasoning === true && <Badge tone="accent">{w.t('picker.badge.reasoning')}</Badge>}
      {c.tools === true && <Badge tone="accent">{w.t('picker.badge.tools')}</Badge>}
    </>
  );
}

/** The model's price as the gateway lists it, per 1M tokens or per request. */
function PriceBadge({ price }: { price: ModelPrice | undefined }) {
  const w = useWords();
  if (price === undefined) return null;
  const text = isFree(price)
    ? w.t('catalogue.price.free')
    : price.perRequest !== undefined
      ? w.t('catalogue.price.perRequest', { price: formatAmount(w, price.perRequest, price.currency) })
      : w.t('catalogue.price.perMillion', { input: formatAmount(w, price.input ?? 0, price.currency), output: formatAmount(w, price.output ?? price.input ?? 0, price.currency) });
  return <Badge tone={isFree(price) ? 'success' : 'neutral'} className="price tabular-nums" title={w.t('catalogue.price.title')}>{text}</Badge>;
}

interface RowProps {
  model: ModelInfo;
  price: ModelPrice | undefined;
  isDefault: boolean;
  isAction: boolean;
  starred: boolean;
  onUse(model: string, as: 'default' | 'action'): void;
  onStar(model: string, starred: boolean): void;
}

const ModelRow = memo(function ModelRow({ model, price, isDefault, isAction, starred, onUse, onStar }: RowProps) {
  const w = useWords();
  const copy = (): void => {
    void navigator.clipboard.writeText(model.id).then(() => toast(w.t('common.copied')), () => toast(w.t('common.copyFailed'), 'error'));
  };
  return (
    <div role="listitem" aria-label={model.id} className={cx('model-row mx-2 my-1 rounded-md border bg-raised px-3 py-2', isDefault ? 'border-accent/60' : 'border-line')}>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-1.5">
            {starred && <Star aria-label={w.t('catalogue.starred')} className="size-3.5 shrink-0 fill-current text-warning" />}
            <strong className="model-id truncate font-mono text-[13px] font-semibold" title={model.id}>{model.id}</strong>
          </div>
          {model.ownedBy !== undefined && <p className="owner text-2xs text-muted">{model.ownedBy}</p>}
        </div>
        <Menu label={w.t('catalogue.actionsFor', { model: model.id })} trigger={<IconButton size="sm" label={w.t('catalogue.actionsFor', { model: model.id })} icon={<EllipsisVertical aria-hidden />} />}>
          <MenuItem onSelect={copy}><Copy aria-hidden />{w.t('catalogue.copyId')}</MenuItem>
          <MenuItem onSelect={() => onStar(model.id, !starred)}><Star aria-hidden />{starred ? w.t('catalogue.unstar') : w.t('catalogue.star')}</MenuItem>
          <MenuSeparator />
          <MenuItem disabled={isDefault} onSelect={() => onUse(model.id, 'default')}><Check aria-hidden />{w.t('catalogue.useDefault')}</MenuItem>
          <MenuItem disabled={isAction} onSelect={() => onUse(model.id, 'action')}><MousePointerClick aria-hidden />{w.t('catalogue.useAction')}</MenuItem>
        </Menu>
      </div>
      <div className="mt-1.5 flex flex-wrap gap-1">
        {isDefault && <Badge tone="success">{w.t('catalogue.badge.default')}</Badge>}
        {isAction && <Badge tone="success">{w.t('catalogue.badge.action')}</Badge>}
        <BasicBadges model={model} />
        <PriceBadge price={price} />
      </div>
    </div>
  );
});

/** A chosen model that has left the catalogue (seed part 3: withdrawn, its ID no longer exists). */
function Withdrawn({ profile, models }: { profile: Profile; models: readonly ModelInfo[] }) {
  const w = useWords();
  if (models.length === 0) return null;
  const missing = [
    { role: 'default' as const, id: profile.defaultModel },
    { role: 'action' as const, id: profile.actionModel },
  ].filter((r): r is { role: 'default' | 'action'; id: string } => r.id !== undefined && !models.some((m) => m.id === r.id));
  if (missing.length === 0) return null;
  return (
    <Callout role="alert" tone="warning">
      {missing.map((r) => (
        <p key={r.role}>{w.t(`catalogue.withdrawn.${r.role}`, { model: r.id })}</p>
      ))}
    </Callout>
  );
}

/** The gateway's model catalogue: search, filters, sort, and a virtualised list of thousands. */
export function CatalogueView({ profile, catalogue }: { profile: Profile; catalogue: Catalogue }) {
  const [text, setText] = useState('');
  const [capabilities, setCapabilities] = useState<CapabilityFilter[]>([]);
  const [owner, setOwner] = useState<string | undefined>();
  const [sort, setSort] = useState<'name' | 'owner' | 'price'>('name');
  const prices = usePricing(profile);
  const w = useWords();
  const [notice, setNotice] = useState<((w: Words) => string) | undefined>();
  const ids = { owner: useId(), sort: useId() };
  const index = useMemo(() => new CatalogueIndex(catalogue.models), [catalogue.models]);
  const owners = useMemo(() => index.owners(), [index]);
  // Typing stays responsive even on a slow machine: the list follows a moment later if it must.
  const query = useDeferredValue(text);
  const results = useMemo(() => index.query({ text: query, capabilities, owner, sort, prices }), [index, query, capabilities, owner, sort, prices]);

  // Stable across renders, so the memoised rows do not redraw on every search keystroke.
  const profileId = profile.id;
  const use = useCallback((model: string, as: 'default' | 'action'): void => {
    void updateProfile(profileId, (p) => (as === 'default' ? { ...p, defaultModel: model } : { ...p, actionModel: model })).then((r) => {
      setNotice(() => (words: Words) => (r.ok ? words.t(as === 'default' ? 'catalogue.nowDefault' : 'catalogue.nowAction', { model }) : settingsSaveText(words, r)));
    });
  }, [profileId]);
  const favourites = useMemo(() => new Set(profile.favouriteModels ?? []), [profile.favouriteModels]);
  const star = useCallback((model: string, starred: boolean): void => {
    void updateProfile(profileId, (p) => withFavouriteModel(p, model, starred));
  }, [profileId]);

  const toggle = (filter: CapabilityFilter): void => {
    setCapabilities((now) => (now.includes(filter) ? now.filter((f) => f !== filter) : [...now, filter]));
  };

  return (
    <section className="catalogue flex min-h-0 flex-1 flex-col" aria-label={w.t('sidepanel.tab.catalogue')}>
      <div className="catalogue-controls flex shrink-0 flex-col gap-2 border-b border-line px-3 py-2.5">
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted" />
          <Input type="search" aria-label={w.t('catalogue.search')} placeholder={w.t('catalogue.searchPlaceholder')} value={text} onChange={(e) => setText(e.target.value)} className="pl-8" />
        </div>
        {([['interfaces', INTERFACE_FILTERS], ['capabilities', CAPABILITY_FILTERS]] as const).map(([group, filters]) => (
          <fieldset key={group} className={`filters filters-${group} flex flex-wrap items-center gap-1.5`}>
            <legend className="sr-only">{w.t(`catalogue.${group}`)}</legend>
            {filters.filter((f) => f !== 'free' || prices != null).map((f) => (
              <label key={f} className="relative inline-flex h-7 cursor-pointer items-center gap-1.5 rounded-full border border-line px-2.5 text-xs whitespace-nowrap text-fg has-[:checked]:border-accent has-[:checked]:bg-accent-soft has-[:checked]:text-accent-soft-fg has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
                <input type="checkbox" className="absolute inset-0 cursor-pointer appearance-none rounded-full opacity-0" checked={capabilities.includes(f)} onChange={() => toggle(f)} />{w.t(`catalogue.filter.${f}`)}
              </label>
            ))}
          </fieldset>
        ))}
        <div className="grid grid-cols-2 gap-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.owner} className="text-2xs font-medium text-muted">{w.t('catalogue.owner')}</label>
            <NativeSelect id={ids.owner} className="h-8 text-xs" value={owner ?? ''} onChange={(e) => setOwner(e.target.value === '' ? undefined : e.target.value)}>
              <option value="">{w.t('catalogue.allOwners')}</option>
              {owners.map((o) => <option key={o.owner} value={o.owner}>{o.owner} ({o.count})</option>)}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.sort} className="text-2xs font-medium text-muted">{w.t('catalogue.sortBy')}</label>
            <NativeSelect id={ids.sort} className="h-8 text-xs" value={sort} onChange={(e) => setSort(e.target.value as 'name' | 'owner' | 'price')}>
              <option value="name">{w.t('catalogue.sort.name')}</option>
              <option value="owner">{w.t('catalogue.owner')}</option>
              {prices != null && <option value="price">{w.t('catalogue.sort.price')}</option>}
            </NativeSelect>
          </div>
        </div>
        <div className="flex items-center gap-2 text-xs text-muted">
          <p aria-label={w.t('catalogue.countLabel')} aria-live="polite" className="font-medium text-fg">{w.plural('catalogue.count', catalogue.models.length, { shown: results.length })}</p>
          <span>· {catalogueAge(w, catalogue.fetchedAt)}</span>
          <span className="ml-auto flex items-center gap-1">
            <a href={`${profile.siteUrl}/models`} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1">{w.t('catalogue.prices')}<ExternalLink aria-hidden className="size-3" /></a>
            <IconButton size="sm" label={w.t('picker.refresh')} icon={<RefreshCw aria-hidden className={catalogue.loading ? 'animate-spin motion-reduce:animate-none' : undefined} />} disabled={catalogue.loading} onClick={() => void catalogue.refresh()} />
          </span>
        </div>
      </div>
      <div className="flex shrink-0 flex-col gap-2 px-3 empty:hidden [&>*:first-child]:mt-2">
        {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
        <Withdrawn profile={profile} models={catalogue.models} />
        {notice !== undefined && <Callout role="status" tone="success">{notice(w)}</Callout>}
      </div>
      {catalogue.loading && catalogue.models.length === 0 && <SkeletonRows rows={5} label={w.t('picker.loading')} />}
      {catalogue.models.length === 0 && catalogue.error === undefined && !catalogue.loading && (
        <EmptyState icon={<Search aria-hidden />} title={w.t('catalogue.empty')}>
          <p>{w.t('catalogue.emptyText')}</p>
        </EmptyState>
      )}
      <VirtualList
        label={w.t('catalogue.list')}
        items={results}
        estimateSize={84}
        itemKey={(m) => m.id}
        renderItem={(m) => <ModelRow model={m} price={priceOf(prices, m.id)} isDefault={m.id === profile.defaultModel} isAction={m.id === profile.actionModel} starred={favourites.has(m.id)} onUse={use} onStar={star} />}
      />
    </section>
  );
}

import { Check, Copy, EllipsisVertical, ExternalLink, MousePointerClick, RefreshCw, Search, Star } from 'lucide-react';
import { memo, useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { catalogueAge } from '@/components/chat/words';
import { Badge } from '@/components/ui/Badge';
import { Callout } from '@/components/ui/Callout';
import { EmptyState } from '@/components/ui/EmptyState';
import { IconButton } from '@/components/ui/IconButton';
import { Input } from '@/components/ui/Input';
import { Menu, MenuItem, MenuSeparator } from '@/components/ui/Menu';
import { NativeSelect } from '@/components/ui/Select';
import { SkeletonRows } from '@/components/ui/Skeleton';
import { toast } from '@/components/ui/Toast';
import { cx } from '@/components/ui/cx';
import type { Catalogue } from '@/components/hooks/useCatalogue';
import { VirtualList } from '@/components/VirtualList';
import { CAPABILITY_FILTERS, CatalogueIndex, type CapabilityFilter } from '@/lib/catalogue/filter';
import type { ModelInfo } from '@/lib/gateway';
import { withFavouriteModel, type Profile } from '@/lib/settings/schema';
import { updateProfile } from '@/lib/settings/storage.adapter';

const FILTER_LABELS: Record<CapabilityFilter, string> = {
  chat: 'Chat',
  responses: 'Responses',
  imageInput: 'Image input',
  imageGeneration: 'Image generation',
  unknown: 'Unknown',
};

/** What the gateway states about the basics; "unknown" where it says nothing. */
function BasicBadges({ model }: { model: ModelInfo }) {
  const c = model.capabilities;
  if (c.chat === 'unknown' && c.responses === 'unknown' && c.imageInput === 'unknown' && c.imageGeneration === 'unknown') {
    return <Badge tone="muted">capabilities unknown</Badge>;
  }
  return (
    <>
      {c.chat === true && <Badge>chat</Badge>}
      {c.responses === true && <Badge>responses</Badge>}
      {c.imageInput === true && <Badge tone="accent">image input</Badge>}
      {c.imageInput === 'unknown' && <Badge tone="muted">image input: unknown</Badge>}
      {c.imageGeneration === true && <Badge tone="accent">image generation</Badge>}
      {c.reasoning === true && <Badge tone="accent">reasoning</Badge>}
      {c.tools === true && <Badge tone="accent">tools</Badge>}
    </>
  );
}

interface RowProps {
  model: ModelInfo;
  isDefault: boolean;
  isAction: boolean;
  starred: boolean;
  onUse(model: string, as: 'default' | 'action'): void;
  onStar(model: string, starred: boolean): void;
}

const ModelRow = memo(function ModelRow({ model, isDefault, isAction, starred, onUse, onStar }: RowProps) {
  const copy = (): void => {
    void navigator.clipboard.writeText(model.id).then(() => toast('Copied'), () => toast('Could not copy', 'error'));
  };
  return (
    <div role="listitem" aria-label={model.id} className={cx('model-row mx-2 my-1 rounded-md border bg-raised px-3 py-2', isDefault ? 'border-accent/60' : 'border-line')}>
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-1.5">
            {starred && <Star aria-label="Starred" className="size-3.5 shrink-0 fill-current text-warning" />}
            <strong className="model-id truncate font-mono text-[13px] font-semibold" title={model.id}>{model.id}</strong>
          </div>
          {model.ownedBy !== undefined && <p className="owner text-2xs text-muted">{model.ownedBy}</p>}
        </div>
        <Menu label={`Actions for ${model.id}`} trigger={<IconButton size="sm" label={`Actions for ${model.id}`} icon={<EllipsisVertical aria-hidden />} />}>
          <MenuItem onSelect={copy}><Copy aria-hidden />Copy ID</MenuItem>
          <MenuItem onSelect={() => onStar(model.id, !starred)}><Star aria-hidden />{starred ? 'Unstar' : 'Star'}</MenuItem>
          <MenuSeparator />
          <MenuItem disabled={isDefault} onSelect={() => onUse(model.id, 'default')}><Check aria-hidden />Use as default</MenuItem>
          <MenuItem disabled={isAction} onSelect={() => onUse(model.id, 'action')}><MousePointerClick aria-hidden />Use for right-click actions</MenuItem>
        </Menu>
      </div>
      <div className="mt-1.5 flex flex-wrap gap-1">
        {isDefault && <Badge tone="success">default</Badge>}
        {isAction && <Badge tone="success">right-click</Badge>}
        <BasicBadges model={model} />
      </div>
    </div>
  );
});

/** A chosen model that has left the catalogue (seed part 3: withdrawn, its ID no longer exists). */
function Withdrawn({ profile, models }: { profile: Profile; models: readonly ModelInfo[] }) {
  if (models.length === 0) return null;
  const missing = [
    { label: 'default model', id: profile.defaultModel },
    { label: 'model for right-click actions', id: profile.actionModel },
  ].filter((r): r is { label: string; id: string } => r.id !== undefined && !models.some((m) => m.id === r.id));
  if (missing.length === 0) return null;
  return (
    <Callout role="alert" tone="warning">
      {missing.map((r) => (
        <p key={r.label}>Your {r.label} <code>{r.id}</code> is not in the catalogue any more: it was renamed or withdrawn. Copy the ID again from the catalogue, or choose another below.</p>
      ))}
    </Callout>
  );
}

/** The gateway's model catalogue: search, filters, sort, and a virtualised list of thousands. */
export function CatalogueView({ profile, catalogue }: { profile: Profile; catalogue: Catalogue }) {
  const [text, setText] = useState('');
  const [capabilities, setCapabilities] = useState<CapabilityFilter[]>([]);
  const [owner, setOwner] = useState<string | undefined>();
  const [sort, setSort] = useState<'name' | 'owner'>('name');
  const [notice, setNotice] = useState<string | undefined>();
  const ids = { owner: useId(), sort: useId() };
  const index = useMemo(() => new CatalogueIndex(catalogue.models), [catalogue.models]);
  const owners = useMemo(() => index.owners(), [index]);
  // Typing stays responsive even on a slow machine: the list follows a moment later if it must.
  const query = useDeferredValue(text);
  const results = useMemo(() => index.query({ text: query, capabilities, owner, sort }), [index, query, capabilities, owner, sort]);

  // Stable across renders, so the memoised rows do not redraw on every search keystroke.
  const profileId = profile.id;
  const use = useCallback((model: string, as: 'default' | 'action'): void => {
    void updateProfile(profileId, (p) => (as === 'default' ? { ...p, defaultModel: model } : { ...p, actionModel: model })).then((r) => {
      setNotice(r.ok ? (as === 'default' ? `${model} is now the default model.` : `${model} now answers right-click actions.`) : r.message);
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
    <section className="catalogue flex min-h-0 flex-1 flex-col" aria-label="Catalogue">
      <div className="catalogue-controls flex shrink-0 flex-col gap-2 border-b border-line px-3 py-2.5">
        <div className="relative">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted" />
          <Input type="search" aria-label="Search models" placeholder="Search by id or owner" value={text} onChange={(e) => setText(e.target.value)} className="pl-8" />
        </div>
        <fieldset className="filters flex flex-wrap gap-1.5">
          <legend className="sr-only">Capabilities</legend>
          {CAPABILITY_FILTERS.map((f) => (
            <label key={f} className="relative inline-flex h-7 cursor-pointer items-center gap-1.5 rounded-full border border-line px-2.5 text-xs whitespace-nowrap text-fg has-[:checked]:border-accent has-[:checked]:bg-accent-soft has-[:checked]:text-accent-soft-fg has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
              <input type="checkbox" className="absolute inset-0 cursor-pointer appearance-none rounded-full opacity-0" checked={capabilities.includes(f)} onChange={() => toggle(f)} />{FILTER_LABELS[f]}
            </label>
          ))}
        </fieldset>
        <div className="grid grid-cols-2 gap-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.owner} className="text-2xs font-medium text-muted">Owner</label>
            <NativeSelect id={ids.owner} className="h-8 text-xs" value={owner ?? ''} onChange={(e) => setOwner(e.target.value === '' ? undefined : e.target.value)}>
              <option value="">All owners</option>
              {owners.map((o) => <option key={o.owner} value={o.owner}>{o.owner} ({o.count})</option>)}
            </NativeSelect>
          </div>
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.sort} className="text-2xs font-medium text-muted">Sort by</label>
            <NativeSelect id={ids.sort} className="h-8 text-xs" value={sort} onChange={(e) => setSort(e.target.value as 'name' | 'owner')}>
              <option value="name">Name</option>
              <option value="owner">Owner</option>
            </NativeSelect>
          </div>
        </div>
        <div className="flex items-center gap-2 text-xs text-muted">
          <p aria-label="Model count" aria-live="polite" className="font-medium text-fg">{results.length} of {catalogue.models.length} {catalogue.models.length === 1 ? 'model' : 'models'}</p>
          <span>· {catalogueAge(catalogue.fetchedAt)}</span>
          <span className="ml-auto flex items-center gap-1">
            <a href={`${profile.siteUrl}/models`} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1">Prices and details<ExternalLink aria-hidden className="size-3" /></a>
            <IconButton size="sm" label="Refresh models" icon={<RefreshCw aria-hidden className={catalogue.loading ? 'animate-spin motion-reduce:animate-none' : undefined} />} disabled={catalogue.loading} onClick={() => void catalogue.refresh()} />
          </span>
        </div>
      </div>
      <div className="flex shrink-0 flex-col gap-2 px-3 empty:hidden [&>*:first-child]:mt-2">
        {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
        <Withdrawn profile={profile} models={catalogue.models} />
        {notice !== undefined && <Callout role="status" tone="success">{notice}</Callout>}
      </div>
      {catalogue.loading && catalogue.models.length === 0 && <SkeletonRows rows={5} label="Loading models" />}
      {catalogue.models.length === 0 && catalogue.error === undefined && !catalogue.loading && (
        <EmptyState icon={<Search aria-hidden />} title="The gateway listed no models">
          <p>Refresh, or check on the gateway's site which models this key may use.</p>
        </EmptyState>
      )}
      <VirtualList
        label="Models"
        items={results}
        estimateSize={84}
        itemKey={(m) => m.id}
        renderItem={(m) => <ModelRow model={m} isDefault={m.id === profile.defaultModel} isAction={m.id === profile.actionModel} starred={favourites.has(m.id)} onUse={use} onStar={star} />}
      />
    </section>
  );
}

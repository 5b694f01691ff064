import { memo, useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import type { Catalogue } from '@/components/hooks/useCatalogue';
import { VirtualList } from '@/components/VirtualList';
import { CAPABILITY_FILTERS, CatalogueIndex, type CapabilityFilter } from '@/lib/catalogue/filter';
import type { ModelInfo } from '@/lib/gateway';
import type { Profile } from '@/lib/settings/schema';
import { updateProfile } from '@/lib/settings/storage.adapter';

const FILTER_LABELS: Record<CapabilityFilter, string> = {
  chat: 'Chat',
  responses: 'Responses',
  imageInput: 'Image input',
  imageGeneration: 'Image generation',
  unknown: 'Unknown',
};

const BADGES: { key: keyof ModelInfo['capabilities']; label: string }[] = [
  { key: 'chat', label: 'chat' },
  { key: 'responses', label: 'responses' },
  { key: 'imageInput', label: 'image input' },
  { key: 'imageGeneration', label: 'image generation' },
];

function age(fetchedAt: number | undefined): string {
  if (fetchedAt === undefined) return 'not fetched yet';
  const minutes = Math.round((Date.now() - fetchedAt) / 60_000);
  if (minutes < 1) return 'fetched just now';
  if (minutes < 60) return `fetched ${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `fetched ${hours} h ago` : `fetched ${Math.round(hours / 24)} days ago`;
}

/** The capabilities the gateway states; "unknown" where it says nothing. */
function Badges({ model }: { model: ModelInfo }) {
  const c = model.capabilities;
  if (BADGES.every((b) => c[b.key] === 'unknown')) return <span className="badge unknown">capabilities unknown</span>;
  return (
    <>
      {BADGES.map(({ key, label }) => {
        if (c[key] === true) return <span key={key} className="badge yes">{label}</span>;
        if (c[key] === 'unknown') return <span key={key} className="badge unknown">{label}: unknown</span>;
        return null;
      })}
    </>
  );
}

interface RowProps {
  model: ModelInfo;
  isDefault: boolean;
  isAction: boolean;
  onUse(model: string, as: 'default' | 'action'): void;
}

const ModelRow = memo(function ModelRow({ model, isDefault, isAction, onUse }: RowProps) {
  const [copied, setCopied] = useState(false);
  const copy = (): void => {
    void navigator.clipboard.writeText(model.id).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  };
  return (
    <div role="listitem" aria-label={model.id} className="model-row">
      <div className="model-line">
        <strong className="model-id">{model.id}</strong>
        {model.ownedBy !== undefined && <span className="owner">{model.ownedBy}</span>}
        {isDefault && <span className="badge chosen">default</span>}
        {isAction && <span className="badge chosen">right-click</span>}
      </div>
      <div className="model-line"><Badges model={model} /></div>
      <div className="model-line">
        <button type="button" onClick={copy}>{copied ? 'Copied' : 'Copy ID'}</button>
        <button type="button" disabled={isDefault} onClick={() => onUse(model.id, 'default')}>Use as default</button>
        <button type="button" disabled={isAction} onClick={() => onUse(model.id, 'action')}>Use for right-click actions</button>
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
    <div role="alert" className="callout">
      {missing.map((r) => (
        <p key={r.label}>Your {r.label} <code>{r.id}</code> is not in the catalogue any more: it was renamed or withdrawn. Copy the ID again from the catalogue, or choose another below.</p>
      ))}
    </div>
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

  const toggle = (filter: CapabilityFilter): void => {
    setCapabilities((now) => (now.includes(filter) ? now.filter((f) => f !== filter) : [...now, filter]));
  };

  return (
    <section className="catalogue" aria-label="Catalogue">
      <div className="catalogue-controls">
        <input type="search" aria-label="Search models" placeholder="Search by id or owner" value={text} onChange={(e) => setText(e.target.value)} />
        <fieldset className="filters">
          <legend>Capabilities</legend>
          {CAPABILITY_FILTERS.map((f) => (
            <label key={f}><input type="checkbox" checked={capabilities.includes(f)} onChange={() => toggle(f)} />{FILTER_LABELS[f]}</label>
          ))}
        </fieldset>
        <div className="catalogue-row">
          <label htmlFor={ids.owner}>Owner</label>
          <select id={ids.owner} value={owner ?? ''} onChange={(e) => setOwner(e.target.value === '' ? undefined : e.target.value)}>
            <option value="">All owners</option>
            {owners.map((o) => <option key={o.owner} value={o.owner}>{o.owner} ({o.count})</option>)}
          </select>
          <label htmlFor={ids.sort}>Sort by</label>
          <select id={ids.sort} value={sort} onChange={(e) => setSort(e.target.value as 'name' | 'owner')}>
            <option value="name">Name</option>
            <option value="owner">Owner</option>
          </select>
        </div>
        <div className="catalogue-row">
          <p aria-label="Model count" aria-live="polite">{results.length} of {catalogue.models.length} models</p>
          <span className="hint">{age(catalogue.fetchedAt)}</span>
          <button type="button" onClick={() => void catalogue.refresh()} disabled={catalogue.loading}>{catalogue.loading ? 'Refreshing…' : 'Refresh models'}</button>
          <a href={`${profile.siteUrl}/models`} target="_blank" rel="noopener noreferrer">Prices and details</a>
        </div>
      </div>
      {catalogue.error !== undefined && <ErrorCallout error={catalogue.error} />}
      <Withdrawn profile={profile} models={catalogue.models} />
      {notice !== undefined && <p role="status">{notice}</p>}
      {catalogue.models.length === 0 && catalogue.error === undefined && !catalogue.loading && <p>The gateway listed no models.</p>}
      <VirtualList
        label="Models"
        items={results}
        estimateSize={96}
        itemKey={(m) => m.id}
        renderItem={(m) => <ModelRow model={m} isDefault={m.id === profile.defaultModel} isAction={m.id === profile.actionModel} onUse={use} />}
      />
    </section>
  );
}

import type { RefObject } from 'react';
import type { Catalogue } from '@/components/hooks/useCatalogue';

interface ModelPickerProps {
  catalogue: Catalogue;
  value: string | undefined;
  onChange(model: string): void;
  selectRef?: RefObject<HTMLSelectElement | null>;
}

function age(fetchedAt: number | undefined): string {
  if (fetchedAt === undefined) return 'not fetched yet';
  const minutes = Math.round((Date.now() - fetchedAt) / 60_000);
  return minutes < 1 ? 'fetched just now' : minutes < 60 ? `fetched ${minutes} min ago` : `fetched ${Math.round(minutes / 60)} h ago`;
}

/** The catalogue's models; a model missing from it is still shown, marked, so nothing changes silently. */
export function ModelPicker({ catalogue, value, onChange, selectRef }: ModelPickerProps) {
  const known = value === undefined || catalogue.models.some((m) => m.id === value);
  return (
    <div className="model-picker">
      <select aria-label="Model" ref={selectRef} value={value ?? ''} onChange={(e) => onChange(e.target.value)}>
        {value === undefined && <option value="" disabled>Choose a model</option>}
        {!known && value !== undefined && <option value={value}>{value} (not in the catalogue)</option>}
        {catalogue.models.map((m) => <option key={m.id} value={m.id}>{m.id}</option>)}
      </select>
      <button type="button" onClick={() => void catalogue.refresh()} disabled={catalogue.loading} title={age(catalogue.fetchedAt)}>
        {catalogue.loading ? 'Refreshing…' : 'Refresh models'}
      </button>
    </div>
  );
}

/**
 * The model picker's rows: starred models first, then recently used ones, then the rest of
 * the catalogue as the search ranks it. A starred or recent model the catalogue no longer
 * lists is still offered (marked `listed: false`), so nothing the user chose disappears.
 */
import type { ModelInfo } from '../gateway';
import type { CatalogueIndex } from './filter';

export type PickerGroup = 'favourites' | 'recent' | 'all';

export interface PickerRow {
  id: string;
  group: PickerGroup;
  /** The catalogue's entry; undefined when the gateway no longer lists the model. */
  model: ModelInfo | undefined;
}

export interface PickerLists {
  favourites: readonly string[];
  recent: readonly string[];
}

function matches(id: string, needle: string): boolean {
  return needle === '' || id.toLowerCase().includes(needle);
}

/** One pass over the ranked search result; favourites and recents are looked up in sets. */
export function pickerRows(index: CatalogueIndex, byId: ReadonlyMap<string, ModelInfo>, text: string, lists: PickerLists): PickerRow[] {
  const needle = text.trim().toLowerCase();
  const ranked = index.query({ text, capabilities: [], sort: 'name' });
  const favourites = new Set(lists.favourites);
  const recent = new Set(lists.recent.filter((id) => !favourites.has(id)));
  const rankedIds = new Set(ranked.map((m) => m.id));
  const rows: PickerRow[] = [];
  const pinned = (ids: Iterable<string>, group: PickerGroup): void => {
    for (const id of ids) {
      // A listed model follows the search's ranking; an unlisted one matches by its id.
      if (byId.has(id) ? rankedIds.has(id) : matches(id, needle)) rows.push({ id, group, model: byId.get(id) });
    }
  };
  pinned(lists.favourites, 'favourites');
  pinned(recent, 'recent');
  for (const model of ranked) {
    if (!favourites.has(model.id) && !recent.has(model.id)) rows.push({ id: model.id, group: 'all', model });
  }
  return rows;
}

/**
 * Searching, filtering and sorting the model catalogue as the user types. Built once per
 * catalogue (lower-cased keys), then each query is one pass over the models: a substring
 * match of id or owner ranks before a fuzzy one (the query's letters in order in the id).
 */
import { audioRoleOf } from '../voice/models';
import type { ModelInfo, ModelPrice, PriceList } from '../gateway';
import { priceOf } from '../gateway/billing';
import { API_STYLES, isApiStyle, type ApiStyle } from '../gateway/interfaces/names';

/** The interfaces a model can be asked through, as filters. */
export const INTERFACE_FILTERS = API_STYLES;
export const CAPABILITY_FILTERS = ['imageInput', 'imageGeneration', 'free', 'unknown'] as const;
export type CapabilityFilter = ApiStyle | (typeof CAPABILITY_FILTERS)[number];

export interface CatalogueQuery {
  text: string;
  /** Every chosen capability (or interface) must be stated true; `unknown`: the gateway states none. */
  capabilities: readonly CapabilityFilter[];
  owner?: string;
  /** By price: the cheapest per 1M input tokens first (per-request prices, then none, after them). */
  sort: 'name' | 'owner' | 'price';
  /** The gateway's prices (for `free` and the price sort). */
  prices?: PriceList | null | undefined;
}

/** Free: the gateway lists it at no cost. */
export function isFree(price: ModelPrice | undefined): boolean {
  if (price === undefined) return false;
  if (price.perRequest !== undefined) return price.perRequest === 0;
  return (price.input ?? 0) === 0 && (price.output ?? 0) === 0;
}

/** Where a price sorts: per token by its input price, per request after every per-token price, none last. */
function priceRank(price: ModelPrice | undefined): [number, number] {
  if (price === undefined) return [2, 0];
  if (price.input !== undefined) return [0, price.input];
  return price.perRequest === undefined ? [2, 0] : [1, price.perRequest];
}

interface Entry {
  model: ModelInfo;
  id: string;
  owner: string;
}

function statesNothing(model: ModelInfo): boolean {
  const c = model.capabilities;
  return c.chat === 'unknown' && c.responses === 'unknown' && c.imageInput === 'unknown' && c.imageGeneration === 'unknown';
}

/** Whether the gateway says the model can be asked through this interface. */
export function servesThrough(model: ModelInfo, api: ApiStyle): boolean {
  if (model.apis !== undefined) return model.apis.includes(api);
  return (api === 'chat' || api === 'responses') && model.capabilities[api] === true;
}

function hasCapability(model: ModelInfo, filter: CapabilityFilter, prices: PriceList | null | undefined): boolean {
  if (isApiStyle(filter)) return servesThrough(model, filter);
  if (filter === 'free') return isFree(priceOf(prices, model.id));
  return filter === 'unknown' ? statesNothing(model) : model.capabilities[filter] === true;
}

/** Letters of `needle` in order in `hay`: the spread between them (lower is closer), or -1. */
function fuzzyGap(hay: string, needle: string): number {
  let at = -1;
  let first = -1;
  for (const ch of needle) {
    at = hay.indexOf(ch, at + 1);
    if (at === -1) return -1;
    if (first === -1) first = at;
  }
  return at - first - needle.length;
}

export class CatalogueIndex {
  private readonly entries: Entry[];

  constructor(models: readonly ModelInfo[]) {
    this.entries = models.map((model) => ({ model, id: model.id.toLowerCase(), owner: (model.ownedBy ?? '').toLowerCase() }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** Owners with their model counts, by name. */
  owners(): { owner: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const e of this.entries) {
      const owner = e.model.ownedBy ?? '';
      if (owner !== '') counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    return [...counts].map(([owner, count]) => ({ owner, count })).sort((a, b) => a.owner.localeCompare(b.owner));
  }

  query(q: CatalogueQuery): ModelInfo[] {
    const needle = q.text.trim().toLowerCase();
    const exact: Entry[] = [];
    const fuzzy: { entry: Entry; gap: number }[] = [];
    for (const e of this.entries) {
      if (q.owner !== undefined && e.model.ownedBy !== q.owner) continue;
      if (q.capabilities.length > 0 && !q.capabilities.every((c) => hasCapability(e.model, c, q.prices))) continue;
      if (needle === '' || e.id.includes(needle) || e.owner.includes(needle)) {
        exact.push(e);
        continue;
      }
      const gap = fuzzyGap(e.id, needle.replace(/\s+/g, ''));
      if (gap !== -1) fuzzy.push({ entry: e, gap });
    }
    const byName = (a: Entry, b: Entry): number => a.id.localeCompare(b.id);
    const byPrice = (a: Entry, b: Entry): number => {
      const [ra, pa] = priceRank(priceOf(q.prices, a.model.id));
      const [rb, pb] = priceRank(priceOf(q.prices, b.model.id));
      return ra - rb || pa - pb || byName(a, b);
    };
    const byKey = q.sort === 'owner' ? (a: Entry, b: Entry) => a.owner.localeCompare(b.owner) || byName(a, b) : q.sort === 'price' ? byPrice : byName;
    exact.sort(byKey);
    fuzzy.sort((a, b) => a.gap - b.gap || byKey(a.entry, b.entry));
    return [...exact.map((e) => e.model), ...fuzzy.map((f) => f.entry.model)];
  }
}

/**
 * The model a new profile starts with: the gateway's first model that can chat (stated, or
 * not ruled out), skipping those that only embed, draw, speak or transcribe (audio models are
 * listed as chat models by new-api: known by name). Undefined for an empty catalogue.
 */
export function firstChatModel(models: readonly ModelInfo[]): string | undefined {
  const chats = (m: ModelInfo): boolean => m.capabilities.chat !== false && m.capabilities.embeddings !== true && m.capabilities.imageGeneration !== true
    && audioRoleOf(m.id) === undefined;
  return (models.find((m) => m.capabilities.chat === true && chats(m)) ?? models.find(chats))?.id;
}

import type { ModelInfo } from '@/lib/gateway/types';

/** A profile's cached catalogue as storage keeps it (lib/settings/storage.adapter.ts). */
export interface StoredCatalogue {
  models: readonly ModelInfo[];
}

/**
 * A model's entry in its profile's cached catalogue, for the background's runs: each send asks
 * for it more than once (the interface to use, whether it takes tools, files or images). Read from
 * storage and parsed once per profile, then kept as storage reports each write: a send no longer
 * reads and parses the whole catalogue (hundreds of models on OpenRouter) two or three times
 * before its request leaves.
 */
export interface ModelLookup {
  info(profileId: string, model: string): Promise<ModelInfo | undefined>;
}

export function modelLookup(
  load: (profileId: string) => Promise<StoredCatalogue | undefined>,
  watch: (profileId: string, onChange: (catalogue: StoredCatalogue | undefined) => void) => unknown,
): ModelLookup {
  const byProfile = new Map<string, Promise<ReadonlyMap<string, ModelInfo>>>();
  const watched = new Set<string>();
  const index = (catalogue: StoredCatalogue | undefined): ReadonlyMap<string, ModelInfo> => new Map((catalogue?.models ?? []).map((m) => [m.id, m]));
  const catalogueOf = (profileId: string): Promise<ReadonlyMap<string, ModelInfo>> => {
    const known = byProfile.get(profileId);
    if (known !== undefined) return known;
    const read: Promise<ReadonlyMap<string, ModelInfo>> = load(profileId).then(index, (error: unknown) => {
      // Asked again next time, rather than a failed read kept.
      if (byProfile.get(profileId) === read) byProfile.delete(profileId);
      throw error;
    });
    byProfile.set(profileId, read);
    // A write from now on (a page refreshing the catalogue) replaces it; storage tells of writes
    // only after this call returns, so none is missed between the read and the watch.
    if (!watched.has(profileId)) {
      watched.add(profileId);
      watch(profileId, (catalogue) => byProfile.set(profileId, Promise.resolve(index(catalogue))));
    }
    return read;
  };
  return {
    async info(profileId, model) {
      return (await catalogueOf(profileId)).get(model);
    },
  };
}

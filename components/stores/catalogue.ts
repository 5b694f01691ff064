import { useCallback, useEffect, useMemo } from 'react';
import { create } from 'zustand';
import type { StoredError } from '@/lib/conversations/records';
import type { ModelInfo } from '@/lib/gateway';
import type { Profile } from '@/lib/settings/schema';
import { loadCatalogue, saveCatalogue, watchCatalogue } from '@/lib/settings/storage.adapter';

export interface Catalogue {
  models: ModelInfo[];
  fetchedAt?: number;
  loading: boolean;
  error?: StoredError;
  refresh(): Promise<void>;
}

interface Entry {
  models: ModelInfo[];
  fetchedAt?: number;
  error?: StoredError;
  loading: boolean;
}

/**
 * The page's catalogues, one per profile (and its address and key): read from the cache once,
 * fetched once when there is none, shared by every view (the picker, the catalogue tab, the
 * options page), and kept current when another surface fetches one.
 */
export const useCatalogueStore = create<{ entries: Readonly<Record<string, Entry>> }>(() => ({ entries: {} }));

const keyOf = (p: Pick<Profile, 'id' | 'baseUrl' | 'apiKey'>): string => `${p.id}\n${p.baseUrl}\n${p.apiKey}`;
const setEntry = (key: string, change: (before: Entry | undefined) => Entry): void => {
  useCatalogueStore.setState((s) => ({ entries: { ...s.entries, [key]: change(s.entries[key]) } }));
};

/** The profile's address and key as last seen: a fetch for older ones is stopped and never saved. */
const latest = new Map<string, string>();
const fetches = new Map<string, { controller: AbortController; done: Promise<void> }>();
const watched = new Set<string>();

function stopOlder(profile: Profile, key: string): void {
  latest.set(profile.id, key);
  for (const [k, f] of fetches) {
    if (k !== key && k.startsWith(`${profile.id}\n`)) {
      f.controller.abort();
      fetches.delete(k);
    }
  }
}

/** Fetches the profile's models (one fetch at a time per profile, however many views ask). */
export function refreshCatalogue(profile: Profile): Promise<void> {
  const key = keyOf(profile);
  stopOlder(profile, key);
  const running = fetches.get(key);
  if (running !== undefined) return running.done;
  const controller = new AbortController();
  setEntry(key, (before) => ({ models: before?.models ?? [], ...(before?.fetchedAt === undefined ? {} : { fetchedAt: before.fetchedAt }), loading: true }));
  const done = (async () => {
    // The gateway client is fetched when a catalogue is: a cached one is shown without it.
    const [{ GatewayError, createGatewayClient }, { storedError }] = await Promise.all([import('@/lib/gateway'), import('@/lib/conversations/records')]);
    const { baseUrl, siteUrl, apiKey } = profile;
    try {
      const models = await createGatewayClient({ baseUrl, siteUrl, apiKey }).listModels({ signal: controller.signal });
      if (controller.signal.aborted) return;
      setEntry(key, () => ({ models, fetchedAt: Date.now(), loading: false }));
      if (latest.get(profile.id) === key) await saveCatalogue(profile.id, baseUrl, models);
    } catch (e) {
      if (controller.signal.aborted) return;
      const error = storedError(e instanceof GatewayError ? e : new GatewayError({ kind: 'bad_response', url: `${baseUrl}/models`, detail: { code: 'internal', text: String(e) } }), apiKey);
      setEntry(key, (before) => ({ models: before?.models ?? [], ...(before?.fetchedAt === undefined ? {} : { fetchedAt: before.fetchedAt }), error, loading: false }));
    } finally {
      if (fetches.get(key)?.controller === controller) fetches.delete(key);
    }
  })();
  fetches.set(key, { controller, done });
  return done;
}

/** Makes the profile's catalogue available: the cache at once, else a fetch (once per page). */
export function ensureCatalogue(profile: Profile): void {
  const key = keyOf(profile);
  stopOlder(profile, key);
  if (useCatalogueStore.getState().entries[key] !== undefined || fetches.has(key)) return;
  setEntry(key, () => ({ models: [], loading: true }));
  const fromCache = (cache: Awaited<ReturnType<typeof loadCatalogue>>): boolean => {
    if (cache === undefined || cache.baseUrl !== profile.baseUrl) return false;
    setEntry(key, (before) => (before?.fetchedAt !== undefined && before.fetchedAt >= cache.fetchedAt ? before : { models: cache.models, fetchedAt: cache.fetchedAt, loading: before?.loading === true && fetches.has(key) }));
    return true;
  };
  void loadCatalogue(profile.id).then((cache) => {
    if (!fromCache(cache)) void refreshCatalogue(profile);
  });
  // Another surface fetched it (a refresh in the options page, say): shown here too.
  if (!watched.has(key)) {
    watched.add(key);
    watchCatalogue(profile.id, (cache) => {
      if (latest.get(profile.id) === key) fromCache(cache);
    });
  }
}

const EMPTY: ModelInfo[] = [];

/** The profile's model list, shared by every view of the page. */
export function useCatalogue(profile: Profile | undefined): Catalogue {
  const key = profile === undefined ? '' : keyOf(profile);
  useEffect(() => {
    if (profile !== undefined) ensureCatalogue(profile);
    // Once per profile, address and key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const entry = useCatalogueStore((s) => s.entries[key]);
  const refresh = useCallback(() => (profile === undefined ? Promise.resolve() : refreshCatalogue(profile)),
    // The same profile, address and key: the same refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key]);
  return useMemo(() => ({
    models: entry?.models ?? EMPTY,
    ...(entry?.fetchedAt === undefined ? {} : { fetchedAt: entry.fetchedAt }),
    loading: entry?.loading ?? false,
    ...(entry?.error === undefined ? {} : { error: entry.error }),
    refresh,
  }), [entry, refresh]);
}

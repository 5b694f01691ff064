import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ModelInfo } from '@/lib/gateway';
import type { StoredError } from '@/lib/conversations/records';
import type { Profile } from '@/lib/settings/schema';
import { loadCatalogue, saveCatalogue } from '@/lib/settings/storage.adapter';

export interface Catalogue {
  models: ModelInfo[];
  fetchedAt?: number;
  loading: boolean;
  error?: StoredError;
  refresh(): Promise<void>;
}

/** What was fetched, and for which profile, address and key: anything else is not shown. */
interface Fetched {
  key: string;
  models: ModelInfo[];
  fetchedAt?: number;
  error?: StoredError;
}

/**
 * The profile's model list: the cached copy at once, fetched when there is none or on refresh.
 * A fetch for a profile, address or key that has since changed is aborted, and its late
 * answer never replaces the current one.
 */
export function useCatalogue(profile: Profile | undefined): Catalogue {
  const profileId = profile?.id;
  const baseUrl = profile?.baseUrl;
  const siteUrl = profile?.siteUrl;
  const apiKey = profile?.apiKey;
  const key = `${profileId ?? ''}\n${baseUrl ?? ''}\n${apiKey ?? ''}`;
  const [fetched, setFetched] = useState<Fetched>();
  const [loadingKey, setLoadingKey] = useState<string>();
  const current = useRef<AbortController | undefined>(undefined);

  const refresh = useCallback(async () => {
    if (profileId === undefined || baseUrl === undefined || apiKey === undefined) return;
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setLoadingKey(key);
    // The gateway client is fetched when a catalogue is: a cached one is shown without it.
    const [{ GatewayError, createGatewayClient }, { storedError }] = await Promise.all([import('@/lib/gateway'), import('@/lib/conversations/records')]);
    try {
      const list = await createGatewayClient({ baseUrl, siteUrl, apiKey }).listModels({ signal: controller.signal });
      if (controller.signal.aborted) return;
      setFetched({ key, models: list, fetchedAt: Date.now() });
      await saveCatalogue(profileId, baseUrl, list);
    } catch (e) {
      if (controller.signal.aborted) return;
      const error = storedError(e instanceof GatewayError ? e : new GatewayError({ kind: 'bad_response', url: `${baseUrl}/models`, detail: { code: 'internal', text: String(e) } }), apiKey);
      setFetched((before) => ({ key, models: before?.key === key ? before.models : [], fetchedAt: before?.key === key ? before.fetchedAt : undefined, error }));
    } finally {
      if (current.current === controller) {
        current.current = undefined;
        setLoadingKey(undefined);
      }
    }
  }, [key, profileId, baseUrl, siteUrl, apiKey]);

  useEffect(() => {
    if (profileId === undefined || baseUrl === undefined) return;
    let live = true;
    void loadCatalogue(profileId).then((cache) => {
      if (!live) return;
      if (cache !== undefined && cache.baseUrl === baseUrl) setFetched({ key, models: cache.models, fetchedAt: cache.fetchedAt });
      else void refresh();
    });
    return () => {
      live = false;
      current.current?.abort();
      current.current = undefined;
    };
  }, [key, profileId, baseUrl, refresh]);

  return useMemo(() => {
    const mine = fetched?.key === key ? fetched : undefined;
    return { models: mine?.models ?? [], fetchedAt: mine?.fetchedAt, loading: loadingKey === key, error: mine?.error, refresh };
  }, [fetched, key, loadingKey, refresh]);
}

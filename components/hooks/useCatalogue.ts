import { useCallback, useEffect, useState } from 'react';
import { GatewayError, createGatewayClient, type ModelInfo } from '@/lib/gateway';
import { storedError, type StoredError } from '@/lib/conversations/records';
import type { Profile } from '@/lib/settings/schema';
import { loadCatalogue, saveCatalogue } from '@/lib/settings/storage.adapter';

export interface Catalogue {
  models: ModelInfo[];
  fetchedAt?: number;
  loading: boolean;
  error?: StoredError;
  refresh(): Promise<void>;
}

/** The profile's model list: the cached copy at once, fetched when there is none or on refresh. */
export function useCatalogue(profile: Profile | undefined): Catalogue {
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [fetchedAt, setFetchedAt] = useState<number | undefined>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<StoredError | undefined>();
  const profileId = profile?.id;
  const baseUrl = profile?.baseUrl;
  const siteUrl = profile?.siteUrl;
  const apiKey = profile?.apiKey;

  const refresh = useCallback(async () => {
    if (profileId === undefined || baseUrl === undefined || apiKey === undefined) return;
    setLoading(true);
    setError(undefined);
    try {
      const list = await createGatewayClient({ baseUrl, siteUrl, apiKey }).listModels();
      setModels(list);
      setFetchedAt(Date.now());
      await saveCatalogue(profileId, baseUrl, list);
    } catch (e) {
      setError(storedError(e instanceof GatewayError ? e : new GatewayError({ kind: 'bad_response', url: `${baseUrl}/models`, detail: String(e) })));
    } finally {
      setLoading(false);
    }
  }, [profileId, baseUrl, siteUrl, apiKey]);

  useEffect(() => {
    if (profileId === undefined || baseUrl === undefined) return;
    let live = true;
    void loadCatalogue(profileId).then((cache) => {
      if (!live) return;
      if (cache !== undefined && cache.baseUrl === baseUrl) {
        setModels(cache.models);
        setFetchedAt(cache.fetchedAt);
      } else {
        void refresh();
      }
    });
    return () => {
      live = false;
    };
  }, [profileId, baseUrl, refresh]);

  return { models, fetchedAt, loading, error, refresh };
}

import { createContext, useContext, useEffect } from 'react';
import { create } from 'zustand';
import { priceOf, type ModelPrice, type PriceList } from '@/lib/gateway/billing';
import type { Profile } from '@/lib/settings/schema';
import { loadPricing, savePricing } from '@/lib/settings/storage.adapter';

/** Prices change seldom: a list read within this long is used as it is. */
const FRESH_MS = 12 * 60 * 60 * 1000;

/**
 * The page's price lists, one per profile (and its address): the cached one at once, read again
 * when older than half a day, shared by every view (the catalogue, the picker, each reply's cost).
 * undefined until known; null where the gateway publishes none.
 */
const usePricingStore = create<{ entries: Readonly<Record<string, PriceList | null | undefined>> }>(() => ({ entries: {} }));

const keyOf = (p: Pick<Profile, 'id' | 'baseUrl'>): string => `${p.id}\n${p.baseUrl}`;
const started = new Set<string>();

function ensurePricing(profile: Profile): void {
  const key = keyOf(profile);
  if (started.has(key)) return;
  started.add(key);
  const set = (prices: PriceList | null): void => usePricingStore.setState((s) => ({ entries: { ...s.entries, [key]: prices } }));
  void (async () => {
    const cache = await loadPricing(profile.id);
    const cached = cache?.baseUrl === profile.baseUrl ? cache : undefined;
    if (cached !== undefined) set(cached.prices);
    if (cached !== undefined && Date.now() - cached.fetchedAt < FRESH_MS) return;
    const { createGatewayClient } = await import('@/lib/gateway');
    const { baseUrl, siteUrl, apiKey } = profile;
    try {
      const prices = await createGatewayClient({ baseUrl, siteUrl, apiKey }).getPricing();
      set(prices);
      await savePricing(profile.id, baseUrl, prices);
    } catch {
      // Prices are extras: a gateway that cannot say them now shows none (the cached ones stay).
      if (cached === undefined) set(null);
    }
  })();
}

/** The profile's prices per 1M tokens (undefined until known, null where the gateway publishes none). */
export function usePricing(profile: Profile | undefined): PriceList | null | undefined {
  const key = profile === undefined ? '' : keyOf(profile);
  useEffect(() => {
    if (profile !== undefined) ensurePricing(profile);
    // Once per profile and address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return usePricingStore((s) => s.entries[key]);
}

/** The prices of the conversation's gateway, for the replies drawn inside it. */
export const PricesContext = createContext<PriceList | null | undefined>(undefined);

export function useModelPrice(model: string | undefined): ModelPrice | undefined {
  const prices = useContext(PricesContext);
  return priceOf(prices, model);
}

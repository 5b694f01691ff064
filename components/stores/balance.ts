import { createContext, useCallback, useEffect, useMemo } from 'react';
import { create } from 'zustand';
import type { Balance } from '@/lib/gateway';
import type { Profile } from '@/lib/settings/schema';
import { loadBalance, saveBalance, watchBalance, type BalanceCache } from '@/lib/settings/storage.adapter';
import { useSettingsStore } from './settings';

export interface BalanceView {
  /** undefined until known; null where the gateway exposes no balance to this key. */
  balance: Balance | null | undefined;
  checkedAt?: number;
  loading: boolean;
  refresh(): Promise<void>;
}

interface Entry {
  balance: Balance | null | undefined;
  checkedAt?: number;
  loading: boolean;
}

/** A gateway that exposed no balance is asked again after this long (it may have been updated). */
const ASK_NONE_AGAIN_MS = 24 * 60 * 60 * 1000;
/** Replies that finish close together cost one read. */
const AFTER_REPLY_MS = 1_500;

/**
 * The page's balances, one per profile (and its address and key): the last one read is shown at
 * once, read again when the page opens, after replies finish and on demand, and shared by every
 * view and surface (a read on one shows on the others).
 */
const useBalanceStore = create<{ entries: Readonly<Record<string, Entry>> }>(() => ({ entries: {} }));

const keyOf = (p: Pick<Profile, 'id' | 'baseUrl' | 'apiKey'>): string => `${p.id}\n${p.baseUrl}\n${p.apiKey}`;
const setEntry = (key: string, change: (before: Entry | undefined) => Entry): void => {
  useBalanceStore.setState((s) => ({ entries: { ...s.entries, [key]: change(s.entries[key]) } }));
};

const reads = new Map<string, Promise<void>>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
const watched = new Set<string>();

function fromCache(key: string, cache: BalanceCache | undefined): void {
  if (cache === undefined) return;
  setEntry(key, (before) => (before?.checkedAt !== undefined && before.checkedAt >= cache.checkedAt
    ? before
    : { balance: cache.balance, checkedAt: cache.checkedAt, loading: before?.loading ?? false }));
}

/** Reads the profile's balance (one read at a time per profile, however many views ask). */
export function refreshBalance(profile: Profile): Promise<void> {
  const key = keyOf(profile);
  const running = reads.get(key);
  if (running !== undefined) return running;
  setEntry(key, (before) => ({ ...(before ?? { balance: undefined }), loading: true }));
  const read = (async () => {
    const { createGatewayClient } = await import('@/lib/gateway');
    const { baseUrl, siteUrl, apiKey } = profile;
    try {
      const cache = await loadBalance(profile);
      const remembered = cache?.source;
      const known = remembered === 'none' && Date.now() - (cache?.checkedAt ?? 0) > ASK_NONE_AGAIN_MS ? undefined : remembered;
      const balance = await createGatewayClient({ baseUrl, siteUrl, apiKey }).getBalance(known === undefined ? {} : { known });
      setEntry(key, () => ({ balance, checkedAt: Date.now(), loading: false }));
      await saveBalance(profile, balance);
    } catch {
      // A read that failed (a bad key, a gateway down) leaves the last balance shown: the chat says what is wrong.
      setEntry(key, (before) => ({ ...(before ?? { balance: undefined }), loading: false }));
    } finally {
      reads.delete(key);
    }
  })();
  reads.set(key, read);
  return read;
}

/** After a reply finished: read again once the replies finishing together are done. */
export function scheduleBalanceRefresh(profile: Profile): void {
  const key = keyOf(profile);
  clearTimeout(timers.get(key));
  timers.set(key, setTimeout(() => {
    timers.delete(key);
    // Only while the profile still has this address and key: one changed meanwhile is not asked about.
    const parsed = useSettingsStore.getState().parsed;
    const now = parsed?.ok === true ? parsed.settings.profiles.find((p) => p.id === profile.id) : undefined;
    if (now !== undefined && keyOf(now) === key) void refreshBalance(now);
  }, AFTER_REPLY_MS));
}

function ensureBalance(profile: Profile): void {
  const key = keyOf(profile);
  if (useBalanceStore.getState().entries[key] !== undefined) return;
  setEntry(key, () => ({ balance: undefined, loading: true }));
  void loadBalance(profile).then((cache) => {
    fromCache(key, cache);
    void refreshBalance(profile);
  });
  if (!watched.has(key)) {
    watched.add(key);
    watchBalance(profile, (cache) => fromCache(key, cache));
  }
}

/** The profile's balance, read when the page opens and shared by every view. */
export function useBalance(profile: Profile | undefined): BalanceView {
  const key = profile === undefined ? '' : keyOf(profile);
  useEffect(() => {
    if (profile !== undefined) ensureBalance(profile);
    // Once per profile, address and key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const entry = useBalanceStore((s) => s.entries[key]);
  const refresh = useCallback(() => (profile === undefined ? Promise.resolve() : refreshBalance(profile)),
    // The same profile, address and key: the same refresh.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key]);
  return useMemo(() => ({
    balance: entry?.balance,
    ...(entry?.checkedAt === undefined ? {} : { checkedAt: entry.checkedAt }),
    loading: entry?.loading ?? false,
    refresh,
  }), [entry, refresh]);
}

/** The balance of the conversation's gateway as last read, for what is drawn inside it (a refusal for a spent balance shows it). */
export const BalanceContext = createContext<Balance | null | undefined>(undefined);

import { Wallet } from 'lucide-react';
import { cloneElement, memo, Suspense, useState } from 'react';
import { useBalance } from '@/components/stores/balance';
import { lazyWithWords, useWords } from '@/components/i18n/words';
import { balanceSourceText, balanceText } from '@/components/i18n/money';
import type { Profile } from '@/lib/settings/schema';

const load = () => import('./BalanceMenu');
const BalanceMenu = lazyWithWords(load);

/**
 * The key's balance, quiet in the chat's header (hidden where the gateway exposes none): a click
 * opens its menu (fetched then: it is not needed for the first paint), which says where the
 * amount comes from, reads it again, and links to the dashboard and top-up pages.
 */
export const BalanceChip = memo(function BalanceChip({ profile }: { profile: Profile }) {
  const w = useWords();
  const { balance, loading, refresh } = useBalance(profile);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  if (balance === undefined || balance === null) return null;
  const shown = balanceText(w, balance);
  const trigger = (
    <button type="button" aria-label={w.t('balance.label', { amount: shown })} title={balanceSourceText(w, balance.source)} aria-haspopup="menu" aria-busy={loading} className="balance-chip inline-flex h-7 shrink-0 items-center gap-1 rounded-full border border-line px-2.5 text-xs font-medium text-muted tabular-nums hover:border-line-strong hover:text-fg focus-visible:outline-2 focus-visible:outline-ring">
      <Wallet aria-hidden className="size-3.5" />{shown}
    </button>
  );
  if (!openOnLoad) return cloneElement(trigger, { onClick: () => setOpenOnLoad(true) });
  return (
    <Suspense fallback={trigger}>
      <BalanceMenu balance={balance} siteUrl={profile.siteUrl} trigger={trigger} onRefresh={refresh} />
    </Suspense>
  );
});

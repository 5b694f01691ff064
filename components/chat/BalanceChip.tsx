import { Wallet } from 'lucide-react';
import { cloneElement, lazy, memo, Suspense, useState } from 'react';
import { useBalance } from '@/components/stores/balance';
import { useWords } from '@/components/i18n/words';
import type { Balance } from '@/lib/gateway/billing';
import type { Words } from '@/lib/i18n/messages';
import type { Profile } from '@/lib/settings/schema';

/**
 * An amount in the balance's currency: cents from one up; below one, four significant digits
 * (a reply costs fractions of a cent, and what is left of a small balance should show it).
 */
export function formatAmount(w: Words, amount: number, currency: string): string {
  if (currency === 'tokens') return w.t('balance.tokens', { count: new Intl.NumberFormat(w.locale, { notation: 'compact', maximumFractionDigits: 1 }).format(amount) });
  const small = Math.abs(amount) < 1;
  const digits: Intl.NumberFormatOptions = small ? { maximumSignificantDigits: 4 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(w.locale, { style: 'currency', currency, ...digits }).format(amount);
  } catch {
    // A currency code the browser does not know: the number and the code.
    return `${small ? amount.toPrecision(4) : amount.toFixed(2)} ${currency}`;
  }
}

/** What the chip says: what is left, "Unlimited", or what was used when that is all the gateway tells. */
export function balanceText(w: Words, balance: Balance): string {
  if (balance.unlimited) return w.t('balance.unlimited');
  if (balance.remaining !== null) return formatAmount(w, balance.remaining, balance.currency);
  return balance.used === undefined ? w.t('balance.unlimited') : w.t('balance.usedOnly', { amount: formatAmount(w, balance.used, balance.currency) });
}

const load = () => import('./BalanceMenu');
const BalanceMenu = lazy(load);

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
    <button type="button" aria-label={w.t('balance.label', { amount: shown })} aria-haspopup="menu" aria-busy={loading} className="balance-chip inline-flex h-7 shrink-0 items-center gap-1 rounded-full border border-line px-2.5 text-xs font-medium text-muted tabular-nums hover:border-line-strong hover:text-fg focus-visible:outline-2 focus-visible:outline-ring">
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

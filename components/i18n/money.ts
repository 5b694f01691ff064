import type { Balance, BalanceSource } from '@/lib/gateway/billing';
import type { Words } from '@/lib/i18n/messages';

/**
 * An amount of money (a balance, a price, a reply's cost) in its currency: cents from one up;
 * below one, four significant digits (a reply costs fractions of a cent, and what is left of a
 * small balance should show it).
 */
export function formatAmount(w: Words, amount: number, currency: string): string {
  if (currency === 'tokens') return w.t('balance.tokens', { count: new Intl.NumberFormat(w.locale, { notation: 'compact', maximumFractionDigits: 1 }).format(amount) });
  const small = amount !== 0 && Math.abs(amount) < 1;
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

const SOURCE_WORDS = { 'new-api-token-usage': 'newApi', 'dashboard-billing': 'dashboard', 'openrouter-key': 'openRouter' } as const satisfies Record<BalanceSource, string>;

/** Where a balance was read, in words. */
export function balanceSourceText(w: Words, source: BalanceSource): string {
  return w.t(`balance.source.${SOURCE_WORDS[source]}`);
}

import { ExternalLink, RefreshCw } from 'lucide-react';
import type { ReactElement } from 'react';
import { Menu, MenuItem, MenuLabel, MenuSeparator } from '@/components/ui/Menu';
import { useWords } from '@/components/i18n/words';
import type { Balance } from '@/lib/gateway/billing';
import { remedyFor } from '@/lib/gateway/errors';
import { balanceSourceText, formatAmount } from '@/components/i18n/money';

/** The balance chip's menu, open as it arrives: where the amount comes from, Refresh, and the top-up pages. */
export default function BalanceMenu({ balance, siteUrl, trigger, onRefresh }: { balance: Balance; siteUrl: string; trigger: ReactElement; onRefresh(): Promise<void> }) {
  const w = useWords();
  const links = remedyFor('insufficient_balance', siteUrl).links.filter((l) => l.id !== 'keys');
  return (
    <Menu label={w.t('balance.menu')} trigger={trigger} defaultOpen>
      <MenuLabel>{balanceSourceText(w, balance.source)}</MenuLabel>
      {balance.total !== undefined && balance.used !== undefined && (
        <MenuLabel>{w.t('balance.totals', { total: formatAmount(w, balance.total, balance.currency), used: formatAmount(w, balance.used, balance.currency) })}</MenuLabel>
      )}
      <MenuItem onSelect={() => void onRefresh()}><RefreshCw aria-hidden />{w.t('balance.refresh')}</MenuItem>
      <MenuSeparator />
      {links.map((link) => (
        <MenuItem key={link.id} onSelect={() => window.open(link.url, '_blank', 'noopener,noreferrer')}><ExternalLink aria-hidden />{w.t(`error.link.${link.id}`)}</MenuItem>
      ))}
    </Menu>
  );
}

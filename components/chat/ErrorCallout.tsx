import { ExternalLink } from 'lucide-react';
import { Callout } from '@/components/ui/Callout';
import { useWords } from '@/components/i18n/words';
import { errorDetail, errorRemedy, errorTitle } from '@/components/i18n/problems';
import type { StoredError } from '@/lib/conversations/records';
import { useContext } from 'react';
import { balanceText } from '@/components/i18n/money';
import { BalanceContext } from '@/components/stores/balance';

/**
 * A classified gateway error: what happened, where, and what to do (seed part 7), in the
 * current language; the gateway's own words are shown beside ours, verbatim.
 * `modelListed`: the model is in the gateway's catalogue, so "does not exist" (new-api's 503
 * "no channel available") means it cannot be served right now, not that it is misspelt.
 */
export function ErrorCallout({ error, modelListed = false }: { error: StoredError; modelListed?: boolean }) {
  const w = useWords();
  const unavailable = modelListed && error.kind === 'model_not_found';
  const detail = errorDetail(w, error);
  const balance = useContext(BalanceContext);
  return (
    <Callout role="alert" tone="danger" className={`callout-${error.kind}`} data={{ 'data-error-kind': error.kind }} title={errorTitle(w, error, unavailable)}>
      <p className="text-xs text-muted">
        {w.t('error.addressCalled')} <code className="break-all">{error.url}</code>
        {error.status !== undefined && <> · {w.t('error.status', { status: error.status })}</>}
        {error.code !== undefined && <> · {w.t('error.code')} <code>{error.code}</code></>}
      </p>
      {error.gatewayMessage !== undefined && <p className="callout-gateway">{w.t('error.gatewaySaid')} <q lang="">{error.gatewayMessage}</q></p>}
      {detail !== undefined && <p className="callout-detail">{detail}</p>}
      {error.detail?.text !== undefined && <p className="callout-received text-xs text-muted">{w.t('error.received')} <code className="break-all">{error.detail.text}</code></p>}
      <p className="callout-remedy">{errorRemedy(w, error, unavailable)}</p>
      {error.kind === 'insufficient_balance' && balance != null && <p className="callout-balance font-medium">{w.t('error.balanceNow', { amount: balanceText(w, balance) })}</p>}
      {error.links.length > 0 && (
        <p className="callout-links flex flex-wrap gap-x-3 gap-y-1">
          {error.links.map((link) => (
            <a key={link.id} href={link.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium">{w.t(`error.link.${link.id}`)}<ExternalLink aria-hidden className="size-3" /></a>
          ))}
        </p>
      )}
    </Callout>
  );
}

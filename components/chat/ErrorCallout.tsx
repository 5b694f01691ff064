import { ExternalLink } from 'lucide-react';
import { Callout } from '@/components/ui/Callout';
import type { StoredError } from '@/lib/conversations/records';

const TITLES: Record<StoredError['kind'], string> = {
  invalid_key: 'The API key was rejected',
  bad_address: 'The gateway address is wrong',
  model_not_found: 'This model does not exist on the gateway',
  insufficient_balance: 'The balance is not enough',
  rate_limited: 'Too many requests',
  permission_denied: 'This key may not do this',
  bad_request: 'The gateway refused the request',
  server: 'The gateway failed',
  network: 'The gateway could not be reached',
  timeout: 'The gateway took too long',
  aborted: 'Stopped',
  bad_response: 'The gateway sent something unreadable',
};

/**
 * A classified gateway error: what happened, where, and what to do (seed part 7).
 * `modelListed`: the model is in the gateway's catalogue, so "does not exist" (new-api's 503
 * "no channel available") means it cannot be served right now, not that it is misspelt.
 */
export function ErrorCallout({ error, modelListed = false }: { error: StoredError; modelListed?: boolean }) {
  const unavailable = modelListed && error.kind === 'model_not_found';
  return (
    <Callout role="alert" tone="danger" className={`callout-${error.kind}`} data={{ 'data-error-kind': error.kind }} title={unavailable ? 'This model is listed but unavailable right now' : TITLES[error.kind]}>
      <p className="text-xs text-muted">
        Address called: <code className="break-all">{error.url}</code>
        {error.status !== undefined && <> · status {error.status}</>}
        {error.code !== undefined && <> · code <code>{error.code}</code></>}
      </p>
      {error.gatewayMessage !== undefined && <p className="callout-gateway">The gateway said: “{error.gatewayMessage}”</p>}
      <p className="callout-remedy">{unavailable ? 'The gateway lists this model, but none of its channels can serve it at the moment. Retry later, or choose another model.' : error.remedy.text}</p>
      {error.remedy.links.length > 0 && (
        <p className="callout-links flex flex-wrap gap-x-3 gap-y-1">
          {error.remedy.links.map((link) => (
            <a key={link.label} href={link.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium">{link.label}<ExternalLink aria-hidden className="size-3" /></a>
          ))}
        </p>
      )}
    </Callout>
  );
}

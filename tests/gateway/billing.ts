/**
 * The reference gateway's balance and prices, as new-api answers them, from the same billing
 * the replies are charged by (quota units: `quotaPerUnit` of them make a dollar):
 * `GET /api/usage/token/` (raw units; the bare path redirects), `GET [/v1]/dashboard/billing/
 * subscription` and `/usage` (in the site's display currency; cents for the use; 100,000,000 for
 * a key without a limit), the public `GET /api/pricing` (model_ratio = the units a token costs),
 * and the display settings in `GET /api/status`. A mode serves all of them, only the old pair,
 * or none (a gateway without billing endpoints).
 */
import { z } from 'zod';
import type { ReferenceModel } from './models';

export const BillingSettings = z.object({
  mode: z.enum(['all', 'old-pair', 'none']),
  display: z.enum(['USD', 'CNY', 'TOKENS']),
  /** Yuan per dollar when the site shows CNY. */
  exchangeRate: z.number().positive(),
  quotaPerUnit: z.number().positive(),
});
export type BillingSettings = z.infer<typeof BillingSettings>;

export const DEFAULT_BILLING: BillingSettings = { mode: 'all', display: 'USD', exchangeRate: 7.3, quotaPerUnit: 500_000 };

/** An account's money in quota units; `unlimited` accounts are never short. */
export interface AccountState {
  remaining: number;
  used: number;
  unlimited: boolean;
}

/** What `/api/status` adds about amounts. */
export function statusFields(billing: BillingSettings): Record<string, unknown> {
  return {
    quota_per_unit: billing.quotaPerUnit,
    quota_display_type: billing.display,
    display_in_currency: billing.display !== 'TOKENS',
    usd_exchange_rate: billing.exchangeRate,
  };
}

/** new-api's `/api/usage/token/`: raw units. */
export function tokenUsage(name: string, account: AccountState): unknown {
  return {
    code: true,
    message: 'ok',
    data: {
      object: 'token_usage', name,
      total_granted: account.remaining + account.used,
      total_used: account.used,
      // An unlimited key's available amount is meaningless (new-api reports it negative).
      total_available: account.unlimited ? -account.used : account.remaining,
      unlimited_quota: account.unlimited,
      model_limits: {},
      expires_at: 0,
    },
  };
}

/** Units in the site's display currency. */
function display(units: number, billing: BillingSettings): number {
  if (billing.display === 'TOKENS') return units;
  const dollars = units / billing.quotaPerUnit;
  return billing.display === 'CNY' ? dollars * billing.exchangeRate : dollars;
}

export function billingSubscription(account: AccountState, billing: BillingSettings): unknown {
  const total = account.unlimited ? 100_000_000 : display(account.remaining + account.used, billing);
  return {
    object: 'billing_subscription', has_payment_method: true,
    soft_limit_usd: total, hard_limit_usd: total, system_hard_limit_usd: total, access_until: 0,
  };
}

export function billingUsage(account: AccountState, billing: BillingSettings): unknown {
  return { object: 'list', total_usage: display(account.used, billing) * 100 };
}

/**
 * The public price list: per token, the units a token costs (× 2 = $ per 1M at 500,000 units per
 * dollar); per call (`quota_type: 1`, image models), `model_price` dollars a call (an image).
 */
export function pricing(models: readonly ReferenceModel[], billing: BillingSettings): unknown {
  // A ratio is quoted against new-api's 500,000 units per dollar.
  const scale = 500_000 / billing.quotaPerUnit;
  return {
    success: true,
    data: models.map((m) => ({
      model_name: m.id,
      ...(m.perCall === undefined
        ? { quota_type: 0, model_ratio: m.price * scale, completion_ratio: 1, model_price: 0 }
        : { quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: m.perCall }),
      owner_by: m.ownedBy, enable_groups: ['default'], supported_endpoint_types: m.endpoints,
    })),
    group_ratio: { default: 1 },
  };
}

/**
 * What gateways answer about money, parsed: the balance left and each model's price, from the
 * shapes gateways answer (see docs in README "Balance and prices"). Pure parsing here; the client
 * (`client.ts`) fetches, and billing.ts computes with the results. Amounts are numbers in
 * `currency`; prices are per 1M tokens.
 *
 * - new-api `GET {site}/api/usage/token/`: raw quota units (500,000 = $1 unless the site's
 *   `quota_per_unit` says otherwise); an unlimited key's `total_available` is meaningless.
 * - new-api / one-api `GET {site}/v1/dashboard/billing/subscription` + `/usage`: `hard_limit_usd`
 *   is the total, `total_usage` is in cents; 100,000,000 means unlimited; a failure comes as
 *   HTTP 200 with an `error` body. Both are in the site's display currency.
 * - OpenRouter `GET {base}/key` (`/api/v1/key`): `limit` (null: none), `usage`, `limit_remaining`, USD.
 * - new-api `GET {site}/api/pricing`: per token, input $ per 1M = model_ratio × 2 × group ratio
 *   (the lowest among the model's groups), output = input × completion_ratio; per call,
 *   model_price × group ratio.
 * - OpenRouter `/models` `pricing`: USD per token as strings; `-1` means variable (no price).
 */
import * as z from 'zod/mini';
import { keyedTable, ownValue } from '../shared/own-keys';
import { round, type Balance, type ModelPrice, type PriceList } from './billing';

/** new-api's quota units per dollar, unless the site says otherwise. */
export const QUOTA_PER_DOLLAR = 500_000;
/** What `dashboard/billing` reports for a key without a limit. */
const UNLIMITED_USD = 100_000_000;

const num = z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?(e-?\d+)?$/i)), z.transform(Number))]);
const optionalNumber = z.optional(z.nullable(num));

/** How a new-api site shows amounts (`GET {site}/api/status`, public). */
export interface DisplayMode {
  /** Quota units per dollar. */
  quotaPerUnit: number;
  currency: 'USD' | 'CNY' | 'tokens';
  /** Yuan per dollar, when the site shows CNY. */
  exchangeRate: number;
}

export const DEFAULT_DISPLAY: DisplayMode = { quotaPerUnit: QUOTA_PER_DOLLAR, currency: 'USD', exchangeRate: 1 };

const StatusBody = z.looseObject({
  data: z.optional(z.nullable(z.looseObject({
    quota_per_unit: optionalNumber,
    quota_display_type: z.optional(z.nullable(z.string())),
    display_in_currency: z.optional(z.nullable(z.boolean())),
    usd_exchange_rate: optionalNumber,
  }))),
});

export function parseDisplayMode(value: unknown): DisplayMode {
  const data = StatusBody.safeParse(value).data?.data;
  if (data == null) return DEFAULT_DISPLAY;
  const quotaPerUnit = data.quota_per_unit != null && data.quota_per_unit > 0 ? data.quota_per_unit : QUOTA_PER_DOLLAR;
  const type = data.quota_display_type?.toUpperCase();
  const rate = data.usd_exchange_rate != null && data.usd_exchange_rate > 0 ? data.usd_exchange_rate : 1;
  if (type === 'CNY') return { quotaPerUnit, currency: 'CNY', exchangeRate: rate };
  if (type === 'TOKENS' || data.display_in_currency === false) return { quotaPerUnit, currency: 'tokens', exchangeRate: 1 };
  return { quotaPerUnit, currency: 'USD', exchangeRate: 1 };
}

/** Raw quota units in the site's display currency. */
function fromUnits(units: number, mode: DisplayMode): number {
  if (mode.currency === 'tokens') return units;
  const dollars = units / mode.quotaPerUnit;
  return mode.currency === 'CNY' ? dollars * mode.exchangeRate : dollars;
}

const TokenUsage = z.looseObject({
  code: z.optional(z.unknown()),
  data: z.looseObject({
    total_granted: optionalNumber,
    total_used: optionalNumber,
    total_available: optionalNumber,
    unlimited_quota: z.optional(z.nullable(z.boolean())),
  }),
});

/** new-api's `/api/usage/token/` (raw units); undefined for any other shape. */
export function parseTokenUsage(value: unknown, mode: DisplayMode = DEFAULT_DISPLAY): Balance | undefined {
  const parsed = TokenUsage.safeParse(value);
  if (!parsed.success || parsed.data.code === false) return undefined;
  const d = parsed.data.data;
  const unlimited = d.unlimited_quota === true;
  const used = d.total_used == null ? undefined : fromUnits(d.total_used, mode);
  const balance: Balance = { remaining: null, currency: mode.currency, unlimited, source: 'new-api-token-usage' };
  if (used !== undefined) balance.used = used;
  if (unlimited) return balance;
  if (d.total_available != null) balance.remaining = fromUnits(d.total_available, mode);
  if (d.total_granted != null) balance.total = fromUnits(d.total_granted, mode);
  return balance;
}

const Subscription = z.looseObject({ hard_limit_usd: num, system_hard_limit_usd: optionalNumber });
const UsageList = z.looseObject({ total_usage: num });

/**
 * The `dashboard/billing` pair: the total and the use (in cents), both in the site's display
 * currency (`currency`, when the site says which); undefined for any other shape.
 */
export function parseBillingPair(subscription: unknown, usage: unknown, currency: string = DEFAULT_DISPLAY.currency): Balance | undefined {
  const s = Subscription.safeParse(subscription);
  if (!s.success) return undefined;
  const u = UsageList.safeParse(usage);
  const used = u.success ? u.data.total_usage / 100 : undefined;
  const total = s.data.hard_limit_usd;
  const balance: Balance = { remaining: null, currency, unlimited: total >= UNLIMITED_USD, source: 'dashboard-billing' };
  if (used !== undefined) balance.used = used;
  if (balance.unlimited) return balance;
  balance.total = total;
  if (used !== undefined) balance.remaining = total - used;
  return balance;
}

const OpenRouterKey = z.looseObject({
  data: z.looseObject({ limit: optionalNumber, usage: optionalNumber, limit_remaining: optionalNumber }),
});

/** OpenRouter's `/api/v1/key` (USD); undefined for any other shape. */
export function parseOpenRouterKey(value: unknown): Balance | undefined {
  const parsed = OpenRouterKey.safeParse(value);
  if (!parsed.success) return undefined;
  const d = parsed.data.data;
  const balance: Balance = { remaining: null, currency: 'USD', unlimited: d.limit == null, source: 'openrouter-key' };
  if (d.usage != null) balance.used = d.usage;
  if (d.limit == null) return balance;
  balance.total = d.limit;
  balance.remaining = d.limit_remaining ?? (d.usage == null ? null : d.limit - d.usage);
  return balance;
}

const PricingBody = z.looseObject({
  data: z.array(z.looseObject({
    model_name: z.string(),
    quota_type: optionalNumber,
    model_ratio: optionalNumber,
    completion_ratio: optionalNumber,
    model_price: optionalNumber,
    enable_groups: z.optional(z.nullable(z.array(z.string()))),
    billing_mode: z.optional(z.nullable(z.string())),
  })),
  group_ratio: z.optional(z.nullable(z.record(z.string(), num))),
});

/** new-api's `/api/pricing`, in dollars (or the site's currency) per 1M tokens; undefined for any other shape. */
export function parseNewApiPricing(value: unknown, mode: DisplayMode = DEFAULT_DISPLAY): PriceList | undefined {
  const parsed = PricingBody.safeParse(value);
  if (!parsed.success) return undefined;
  const groups = parsed.data.group_ratio ?? {};
  const currency = mode.currency === 'CNY' ? 'CNY' : 'USD';
  const rate = currency === 'CNY' ? mode.exchangeRate : 1;
  const prices = keyedTable<ModelPrice>();
  for (const model of parsed.data.data) {
    // Tiered prices have no single figure.
    if (model.billing_mode === 'tiered_expr') continue;
    // The lowest ratio among the groups that may use the model, as new-api's own page shows.
    const ratios = (model.enable_groups ?? []).map((g) => ownValue(groups, g)).filter((r): r is number => r !== undefined);
    const group = ratios.length === 0 ? 1 : Math.min(...ratios);
    if (model.quota_type === 1) {
      if (model.model_price != null && model.model_price >= 0) prices[model.model_name] = { perRequest: round(model.model_price * group * rate), currency };
      continue;
    }
    if (model.model_ratio == null || model.model_ratio < 0) continue;
    const input = round(model.model_ratio * 2 * group * rate);
    prices[model.model_name] = { input, output: round(input * (model.completion_ratio ?? 1)), currency };
  }
  return prices;
}

const OpenRouterPrice = z.optional(z.nullable(num));
const OpenRouterModels = z.looseObject({
  data: z.array(z.looseObject({
    id: z.string(),
    pricing: z.optional(z.nullable(z.looseObject({ prompt: OpenRouterPrice, completion: OpenRouterPrice, request: OpenRouterPrice }))),
  })),
});

/** OpenRouter's `/models` pricing (USD per token) per 1M tokens; `-1` (variable) is no price. Undefined when no model has one. */
export function parseOpenRouterPricing(value: unknown): PriceList | undefined {
  const parsed = OpenRouterModels.safeParse(value);
  if (!parsed.success) return undefined;
  const prices = keyedTable<ModelPrice>();
  for (const model of parsed.data.data) {
    const p = model.pricing;
    if (p == null) continue;
    const price: ModelPrice = { currency: 'USD' };
    if (p.prompt != null && p.prompt >= 0) price.input = round(p.prompt * 1e6);
    if (p.completion != null && p.completion >= 0) price.output = round(p.completion * 1e6);
    if (p.request != null && p.request > 0) price.perRequest = round(p.request);
    if (price.input !== undefined || price.output !== undefined || price.perRequest !== undefined) prices[model.id] = price;
  }
  return Object.keys(prices).length === 0 ? undefined : prices;
}

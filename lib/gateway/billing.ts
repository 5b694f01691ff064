/**
 * A key's money as the pages use it: the balance and the models' prices (billing-answers.ts parses
 * them from what gateways answer), a reply's cost, and whether a request may cost more than is
 * left. Apart from the parsing, which only the client needs: the pages' first scripts (the popup's
 * first chunk) carry none of its code or schemas.
 */
import { ownValue } from '../shared/own-keys';

export const BALANCE_SOURCES = ['new-api-token-usage', 'dashboard-billing', 'openrouter-key'] as const;
export type BalanceSource = (typeof BALANCE_SOURCES)[number];

export interface Balance {
  /** What is left, in `currency`; null when the gateway says only what was used. */
  remaining: number | null;
  total?: number;
  used?: number;
  /** `USD`, `CNY`, `tokens` (a site that counts raw quota), or another code a gateway reports. */
  currency: string;
  unlimited: boolean;
  source: BalanceSource;
}

/** A model's price, per 1M tokens (or per request). */
export interface ModelPrice {
  input?: number;
  output?: number;
  perRequest?: number;
  currency: string;
}

/** Prices by model id: ids are the gateway's words, so read one with `priceOf`. */
export type PriceList = Record<string, ModelPrice>;

/** The listed price of `model`, or undefined (a model named `constructor` has no price but its own). */
export function priceOf(prices: PriceList | null | undefined, model: string | undefined): ModelPrice | undefined {
  return prices == null || model === undefined ? undefined : ownValue(prices, model);
}

/** Rounded so that float noise (0.15 × 2 = 0.30000000000000004) never shows. */
export const round = (n: number): number => Math.round(n * 1e9) / 1e9;

export interface ReplyCost {
  amount: number;
  currency: string;
  /** From the listed price (the gateway did not report the cost itself). */
  estimated: boolean;
}

/** What a reply cost: as the gateway reported it (OpenRouter's `cost`, in dollars), else at the listed price. */
export function replyCost(usage: { promptTokens?: number; completionTokens?: number; cost?: number } | undefined, price: ModelPrice | undefined, images?: number): ReplyCost | undefined {
  if (usage?.cost !== undefined) return { amount: usage.cost, currency: 'USD', estimated: false };
  // An image model priced per call bills each image it made (new-api: the call's price × n).
  if (images !== undefined && price?.perRequest !== undefined) return { amount: round(price.perRequest * images), currency: price.currency, estimated: true };
  if (usage === undefined) return undefined;
  const amount = costOf(price, usage);
  return amount === undefined || price === undefined ? undefined : { amount, currency: price.currency, estimated: true };
}

/**
 * Whether a request may cost more than the balance left (its prompt, estimated, and as many reply
 * tokens as it allows): the estimate and what is left when it may; undefined when it fits or
 * either is not known in one currency.
 */
export function overBudget(balance: Balance | null | undefined, price: ModelPrice | undefined, promptTokens: number, maxTokens: number | undefined): { cost: number; left: number; currency: string } | undefined {
  return overBudgetAll(balance, [price], promptTokens, maxTokens);
}

/** The same for one question to several models at once (a comparison): their costs added up. */
export function overBudgetAll(balance: Balance | null | undefined, prices: readonly (ModelPrice | undefined)[], promptTokens: number, maxTokens: number | undefined): { cost: number; left: number; currency: string } | undefined {
  if (balance == null || balance.unlimited || balance.remaining === null) return undefined;
  let cost = 0;
  for (const price of prices) {
    if (price === undefined || balance.currency !== price.currency) continue;
    cost += costOf(price, { promptTokens, completionTokens: maxTokens ?? 0 }) ?? 0;
  }
  if (cost === 0 || cost <= balance.remaining) return undefined;
  return { cost: round(cost), left: balance.remaining, currency: balance.currency };
}

/** What a reply cost at a price (undefined without a price for its kind of billing). */
export function costOf(price: ModelPrice | undefined, usage: { promptTokens?: number; completionTokens?: number }): number | undefined {
  if (price === undefined) return undefined;
  if (price.perRequest !== undefined) return price.perRequest;
  if (price.input === undefined && price.output === undefined) return undefined;
  return round(((usage.promptTokens ?? 0) * (price.input ?? 0) + (usage.completionTokens ?? 0) * (price.output ?? price.input ?? 0)) / 1e6);
}

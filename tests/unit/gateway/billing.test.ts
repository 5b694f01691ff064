/**
 * Balance and prices: each shape gateways answer (new-api's token usage, the dashboard/billing
 * pair of new-api and one-api, OpenRouter's key and prices, new-api's price list), the order the
 * client asks in and what it remembers, and the reference gateway's answers against its billing.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayClient, costOf } from '@/lib/gateway';
import { overBudget, replyCost } from '@/lib/gateway/billing';
import { parseBillingPair, parseDisplayMode, parseNewApiPricing, parseOpenRouterKey, parseOpenRouterPricing, parseTokenUsage } from '@/lib/gateway/billing-answers';
import { BROKE_KEY, EXPIRED_KEY, UNLIMITED_KEY } from '../../gateway/server';
import { collect, textOf } from './recordings';
import { referenceGatewayPerFile } from './reference';

const SITE = 'https://gw.example.com';
const KEY = 'sk-test-abcdefghijklmnopqrstuvwxyz012345';

describe('shapes', () => {
  it('new-api /api/usage/token/: raw units (500,000 = $1); an unlimited key has no remaining', () => {
    const limited = { code: true, message: 'ok', data: { object: 'token_usage', name: 'k', total_granted: 10_000_000, total_used: 2_500_000, total_available: 7_500_000, unlimited_quota: false, model_limits: {}, expires_at: 0 } };
    expect(parseTokenUsage(limited)).toEqual({ remaining: 15, total: 20, used: 5, currency: 'USD', unlimited: false, source: 'new-api-token-usage' });
    const unlimited = { code: true, data: { total_granted: 0, total_used: 1_000_000, total_available: -1_000_000, unlimited_quota: true } };
    expect(parseTokenUsage(unlimited)).toEqual({ remaining: null, used: 2, currency: 'USD', unlimited: true, source: 'new-api-token-usage' });
    // A site that shows yuan, or raw tokens; a site with another quota per dollar.
    expect(parseTokenUsage(limited, { quotaPerUnit: 500_000, currency: 'CNY', exchangeRate: 7 })?.remaining).toBe(105);
    expect(parseTokenUsage(limited, { quotaPerUnit: 500_000, currency: 'tokens', exchangeRate: 1 })).toMatchObject({ remaining: 7_500_000, currency: 'tokens' });
    expect(parseTokenUsage(limited, { quotaPerUnit: 1_000_000, currency: 'USD', exchangeRate: 1 })?.remaining).toBe(7.5);
    expect(parseTokenUsage({ code: false, message: 'token expired', data: {} })).toBeUndefined();
    expect(parseTokenUsage({ data: [] })).toBeUndefined();
  });

  it('/api/status says how the site shows amounts', () => {
    expect(parseDisplayMode({ success: true, data: { quota_per_unit: 500000, quota_display_type: 'CNY', usd_exchange_rate: 7.2 } })).toEqual({ quotaPerUnit: 500_000, currency: 'CNY', exchangeRate: 7.2 });
    expect(parseDisplayMode({ success: true, data: { display_in_currency: false } })).toMatchObject({ currency: 'tokens' });
    expect(parseDisplayMode({ success: true, data: { system_name: 'old build' } })).toEqual({ quotaPerUnit: 500_000, currency: 'USD', exchangeRate: 1 });
    expect(parseDisplayMode('<html>')).toEqual({ quotaPerUnit: 500_000, currency: 'USD', exchangeRate: 1 });
  });

  it('the dashboard/billing pair (new-api, one-api): total in dollars, use in cents; 100,000,000 is no limit', () => {
    const subscription = { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: 25, hard_limit_usd: 25, system_hard_limit_usd: 25, access_until: 0 };
    expect(parseBillingPair(subscription, { object: 'list', total_usage: 1234 })).toEqual({ remaining: 12.66, total: 25, used: 12.34, currency: 'USD', unlimited: false, source: 'dashboard-billing' });
    expect(parseBillingPair({ ...subscription, hard_limit_usd: 100000000 }, { object: 'list', total_usage: 50 })).toEqual({ remaining: null, used: 0.5, currency: 'USD', unlimited: true, source: 'dashboard-billing' });
    // one-api: the same pair, numbers as strings on some builds.
    expect(parseBillingPair({ object: 'billing_subscription', hard_limit_usd: '10.5' }, { total_usage: '250' })).toMatchObject({ remaining: 8, total: 10.5, used: 2.5 });
    // Without the use, the total is known and the rest is not.
    expect(parseBillingPair(subscription, undefined)).toMatchObject({ remaining: null, total: 25 });
    expect(parseBillingPair({ object: 'list', data: [] }, undefined)).toBeUndefined();
  });

  it('OpenRouter /api/v1/key: with a limit, and without one', () => {
    expect(parseOpenRouterKey({ data: { label: 'sk-or-v1-…', limit: 20, usage: 4.5, limit_remaining: 15.5, is_free_tier: false } })).toEqual({ remaining: 15.5, total: 20, used: 4.5, currency: 'USD', unlimited: false, source: 'openrouter-key' });
    expect(parseOpenRouterKey({ data: { label: 'x', limit: null, usage: 1.25, limit_remaining: null } })).toEqual({ remaining: null, used: 1.25, currency: 'USD', unlimited: true, source: 'openrouter-key' });
    expect(parseOpenRouterKey({ data: { limit: 10, usage: 3 } })?.remaining).toBe(7);
    expect(parseOpenRouterKey({ object: 'list' })).toBeUndefined();
  });

  it('new-api /api/pricing: per token (ratio × 2 × the lowest group ratio), per call, tiered skipped', () => {
    const body = {
      success: true,
      data: [
        { model_name: 'gpt-4o', quota_type: 0, model_ratio: 1.25, completion_ratio: 4, model_price: 0, enable_groups: ['default', 'vip'] },
        { model_name: 'dall-e-3', quota_type: 1, model_ratio: 0, completion_ratio: 1, model_price: 0.04, enable_groups: ['default'] },
        { model_name: 'free-model', quota_type: 0, model_ratio: 0, completion_ratio: 1, enable_groups: [] },
        { model_name: 'tiered', quota_type: 0, model_ratio: 1, billing_mode: 'tiered_expr' },
      ],
      group_ratio: { default: 1, vip: 0.8 },
    };
    expect(parseNewApiPricing(body)).toEqual({
      'gpt-4o': { input: 2, output: 8, currency: 'USD' },
      'dall-e-3': { perRequest: 0.04, currency: 'USD' },
      'free-model': { input: 0, output: 0, currency: 'USD' },
    });
    expect(parseNewApiPricing(body, { quotaPerUnit: 500_000, currency: 'CNY', exchangeRate: 7 })?.['gpt-4o']).toEqual({ input: 14, output: 56, currency: 'CNY' });
    expect(parseNewApiPricing({ success: false, message: 'not public' })).toBeUndefined();
  });

  it('OpenRouter /models pricing: USD per token as strings → per 1M; -1 (variable) is no price', () => {
    const body = { data: [
      { id: 'anthropic/claude-sonnet-4', pricing: { prompt: '0.000003', completion: '0.000015', request: '0', image: '0.0048' } },
      { id: 'openrouter/auto', pricing: { prompt: '-1', completion: '-1' } },
      { id: 'meta/free', pricing: { prompt: '0', completion: '0' } },
    ] };
    expect(parseOpenRouterPricing(body)).toEqual({
      'anthropic/claude-sonnet-4': { input: 3, output: 15, currency: 'USD' },
      'meta/free': { input: 0, output: 0, currency: 'USD' },
    });
    expect(parseOpenRouterPricing({ data: [{ id: 'x' }] })).toBeUndefined();
  });

  it('a reply\'s cost from its usage and the price', () => {
    expect(costOf({ input: 2, output: 8, currency: 'USD' }, { promptTokens: 1000, completionTokens: 500 })).toBe(0.006);
    expect(costOf({ perRequest: 0.04, currency: 'USD' }, { promptTokens: 1000 })).toBe(0.04);
    expect(costOf(undefined, { promptTokens: 1 })).toBeUndefined();
  });
});

/** A gateway that answers by path (anything else: 404 with an OpenAI error body). */
function routes(answers: Record<string, { status?: number; body: unknown } | undefined>) {
  const calls: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    calls.push(url.pathname);
    const headers = new Headers(init?.headers);
    const answer = answers[url.pathname];
    if (answer === undefined) return new Response(JSON.stringify({ error: { message: `Invalid URL (GET ${url.pathname})`, type: 'invalid_request_error', code: '' } }), { status: 404, headers: { 'content-type': 'application/json' } });
    // The key goes only where it must: never to the public pages.
    if (url.pathname === '/api/status' || url.pathname === '/api/pricing') expect(headers.get('authorization')).toBeNull();
    else expect(headers.get('authorization')).toBe(`Bearer ${KEY}`);
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { calls, client: createGatewayClient({ baseUrl: `${SITE}/v1`, apiKey: KEY, fetch }) };
}

describe('getBalance: the order it asks in, and what it remembers', () => {
  const usage = { code: true, data: { total_granted: 5_000_000, total_used: 1_000_000, total_available: 4_000_000, unlimited_quota: false } };
  const subscription = { object: 'billing_subscription', hard_limit_usd: 10 };

  it('new-api\'s token usage first, in the site\'s currency', async () => {
    const { client, calls } = routes({ '/api/usage/token/': { body: usage }, '/api/status': { body: { success: true, data: { quota_display_type: 'CNY', usd_exchange_rate: 7 } } } });
    expect(await client.getBalance()).toEqual({ remaining: 56, total: 70, used: 14, currency: 'CNY', unlimited: false, source: 'new-api-token-usage' });
    expect(calls.sort()).toEqual(['/api/status', '/api/usage/token/']);
  });

  it('an older new-api or one-api: the dashboard/billing pair', async () => {
    const { client, calls } = routes({ '/v1/dashboard/billing/subscription': { body: subscription }, '/v1/dashboard/billing/usage': { body: { object: 'list', total_usage: 300 } } });
    expect(await client.getBalance()).toMatchObject({ remaining: 7, total: 10, used: 3, source: 'dashboard-billing' });
    expect(calls).toContain('/api/usage/token/');
  });

  it('an error in a 200 body is "not here", and the next source is asked', async () => {
    const { client } = routes({
      '/api/usage/token/': { body: { error: { message: 'not supported', type: 'new_api_error' } } },
      '/v1/dashboard/billing/subscription': { body: { error: { message: 'upstream', type: 'upstream_error' } } },
      '/v1/key': { body: { data: { limit: 5, usage: 1, limit_remaining: 4 } } },
    });
    expect(await client.getBalance()).toMatchObject({ remaining: 4, source: 'openrouter-key' });
  });

  it('a gateway with none: null, each endpoint asked once at most; remembered as none, nothing is asked', async () => {
    const { client, calls } = routes({});
    expect(await client.getBalance()).toBeNull();
    expect(calls.filter((c) => c !== '/api/status').sort()).toEqual(['/api/usage/token/', '/v1/dashboard/billing/subscription', '/v1/key']);
    calls.length = 0;
    expect(await client.getBalance({ known: 'none' })).toBeNull();
    expect(calls).toEqual([]);
  });

  it('the source that worked is asked first next time', async () => {
    const { client, calls } = routes({ '/v1/key': { body: { data: { limit: null, usage: 2 } } } });
    expect(await client.getBalance({ known: 'openrouter-key' })).toMatchObject({ unlimited: true, used: 2 });
    expect(calls).toEqual(['/v1/key']);
  });

  it('a bad key is still invalid_key, not "no balance"', async () => {
    const { client } = routes({ '/api/usage/token/': { status: 401, body: { error: { message: 'invalid token', type: 'invalid_request_error', code: 'INVALID_API_KEY' } } } });
    await expect(client.getBalance()).rejects.toMatchObject({ kind: 'invalid_key' });
  });
});

describe('the reference gateway: balance and prices from its own billing', () => {
  const env = referenceGatewayPerFile();

  it('the balance drops by what a reply cost at the listed price', async () => {
    const before = await env.client.getBalance();
    expect(before).toEqual({ remaining: 2, total: 2, used: 0, currency: 'USD', unlimited: false, source: 'new-api-token-usage' });
    const events = await collect(env.client.streamChat({ model: 'vision-1', messages: [{ role: 'user', content: 'hello there' }] }));
    expect(textOf(events)).toBe('No image received. You said: hello there');
    const usage = events.find((e) => e.type === 'usage');
    const prices = await env.client.getPricing();
    const cost = costOf(prices?.['vision-1'], usage?.type === 'usage' ? usage.usage : {});
    expect(cost).toBeGreaterThan(0);
    const after = await env.client.getBalance();
    expect(after?.remaining).toBeCloseTo(2 - cost!, 9);
    expect(after?.used).toBeCloseTo(cost!, 9);
  });

  it('prices: model_ratio × 2 per 1M tokens, one per model', async () => {
    const prices = await env.client.getPricing();
    expect(prices?.['echo-1']).toEqual({ input: 2, output: 2, currency: 'USD' });
    expect(prices?.['vision-1']).toEqual({ input: 4, output: 4, currency: 'USD' });
    // The image models are priced per call (issue 30).
    expect(prices?.['gpt-image-1']).toEqual({ perRequest: 0.04, currency: 'USD' });
    expect(Object.keys(prices ?? {})).toHaveLength(12);
  });

  it('an unlimited key, a site in yuan, only the old pair, none at all', async () => {
    expect(await createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: UNLIMITED_KEY }).getBalance()).toMatchObject({ remaining: null, unlimited: true });
    env.gateway.setBilling({ display: 'CNY', exchangeRate: 7 });
    expect(await env.client.getBalance()).toMatchObject({ remaining: 14, currency: 'CNY' });
    env.gateway.setBilling({ display: 'USD', mode: 'old-pair' });
    expect(await env.client.getBalance()).toMatchObject({ remaining: 2, total: 2, source: 'dashboard-billing' });
    env.gateway.setBilling({ mode: 'none' });
    expect(await env.client.getBalance()).toBeNull();
    expect(await env.client.getPricing()).toBeNull();
  });

  it('a spent balance reads 0 or less; a wrong or expired key is invalid_key', async () => {
    expect((await createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: BROKE_KEY }).getBalance())?.remaining).toBe(0);
    await expect(createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: 'sk-wrong' }).getBalance()).rejects.toMatchObject({ kind: 'invalid_key' });
    // An expired key: new-api refuses it on every endpoint, the balance's too.
    await expect(createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: EXPIRED_KEY }).getBalance()).rejects.toMatchObject({ kind: 'invalid_key', status: 401 });
  });

  it('the bare /api/usage/token redirects (and redirects are not followed), so the client asks with the slash', async () => {
    await env.client.getBalance();
    expect(env.gateway.requests.map((r) => r.path)).toContain('/api/usage/token/');
    const bare = await fetch(`${env.gateway.siteUrl}/api/usage/token`, { redirect: 'manual', headers: { authorization: `Bearer ${env.gateway.demoKey}` } });
    expect(bare.status).toBe(301);
  });
});

describe('a reply\'s cost', () => {
  it('the gateway\'s own cost when it reports one, else estimated from the listed price', () => {
    expect(replyCost({ promptTokens: 10, completionTokens: 20, cost: 0.0012 }, { input: 2, output: 8, currency: 'USD' })).toEqual({ amount: 0.0012, currency: 'USD', estimated: false });
    expect(replyCost({ promptTokens: 1000, completionTokens: 500 }, { input: 2, output: 8, currency: 'CNY' })).toEqual({ amount: 0.006, currency: 'CNY', estimated: true });
    expect(replyCost({ promptTokens: 1000 }, undefined)).toBeUndefined();
    expect(replyCost(undefined, { input: 2, currency: 'USD' })).toBeUndefined();
  });
});

describe('before spending', () => {
  const balance = { remaining: 0.001, currency: 'USD', unlimited: false, source: 'new-api-token-usage' as const };
  const price = { input: 2, output: 8, currency: 'USD' };

  it('a request that may cost more than is left: the estimate and what is left', () => {
    expect(overBudget(balance, price, 100, 200)).toEqual({ cost: 0.0018, left: 0.001, currency: 'USD' });
    expect(overBudget(balance, price, 100, undefined)).toBeUndefined();
  });

  it('nothing to say without a limit, a balance, a price, or one currency for both', () => {
    expect(overBudget({ ...balance, unlimited: true, remaining: null }, price, 1e6, 1e6)).toBeUndefined();
    expect(overBudget(null, price, 1e6, 1e6)).toBeUndefined();
    expect(overBudget(balance, undefined, 1e6, 1e6)).toBeUndefined();
    expect(overBudget({ ...balance, currency: 'CNY' }, price, 1e6, 1e6)).toBeUndefined();
  });
});

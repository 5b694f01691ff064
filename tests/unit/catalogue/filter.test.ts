import { describe, expect, it } from 'vitest';
import { CatalogueIndex, INTERFACE_FILTERS, firstChatModel, isFree, servesThrough } from '@/lib/catalogue/filter';
import type { ModelInfo } from '@/lib/gateway';

const U = 'unknown' as const;
function model(id: string, ownedBy: string | undefined, caps: Partial<ModelInfo['capabilities']> = {}): ModelInfo {
  return { id, ...(ownedBy === undefined ? {} : { ownedBy }), capabilities: { chat: U, responses: U, imageInput: U, imageGeneration: U, embeddings: U, reasoning: U, tools: U, ...caps } };
}

const models = [
  model('gpt-4o', 'openai', { chat: true, responses: true, imageInput: true }),
  model('gpt-4o-mini', 'openai', { chat: true, imageInput: false }),
  model('dall-e-3', 'openai', { chat: false, imageGeneration: true }),
  model('claude-3-5-sonnet', 'anthropic', { chat: true, imageInput: true }),
  model('deepseek-reasoner', 'deepseek', { chat: true, imageInput: false }),
  model('mystery-model', undefined),
];
const index = new CatalogueIndex(models);
const ids = (list: ModelInfo[]) => list.map((m) => m.id);

describe('CatalogueIndex', () => {
  it('no query: everything, sorted by name', () => {
    expect(ids(index.query({ text: '', capabilities: [], sort: 'name' }))).toEqual(['claude-3-5-sonnet', 'dall-e-3', 'deepseek-reasoner', 'gpt-4o', 'gpt-4o-mini', 'mystery-model']);
  });

  it('sorted by owner, then name; a model without owner first', () => {
    expect(ids(index.query({ text: '', capabilities: [], sort: 'owner' }))).toEqual(['mystery-model', 'claude-3-5-sonnet', 'deepseek-reasoner', 'dall-e-3', 'gpt-4o', 'gpt-4o-mini']);
  });

  it('substring of id or owner, case-insensitive', () => {
    expect(ids(index.query({ text: 'GPT-4O', capabilities: [], sort: 'name' }))).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(ids(index.query({ text: 'anthropic', capabilities: [], sort: 'name' }))).toEqual(['claude-3-5-sonnet']);
  });

  it('fuzzy: letters in order, after the substring matches, closest first', () => {
    expect(ids(index.query({ text: 'cl35', capabilities: [], sort: 'name' }))).toEqual(['claude-3-5-sonnet']);
    expect(ids(index.query({ text: 'g4m', capabilities: [], sort: 'name' }))).toEqual(['gpt-4o-mini']);
    expect(ids(index.query({ text: 'dee', capabilities: [], sort: 'name' }))[0]).toBe('deepseek-reasoner');
  });

  it('capability filters need the capability stated; "unknown" is a model the gateway says nothing about', () => {
    expect(ids(index.query({ text: '', capabilities: ['imageInput'], sort: 'name' }))).toEqual(['claude-3-5-sonnet', 'gpt-4o']);
    expect(ids(index.query({ text: '', capabilities: ['imageInput', 'responses'], sort: 'name' }))).toEqual(['gpt-4o']);
    expect(ids(index.query({ text: '', capabilities: ['imageGeneration'], sort: 'name' }))).toEqual(['dall-e-3']);
    expect(ids(index.query({ text: '', capabilities: ['unknown'], sort: 'name' }))).toEqual(['mystery-model']);
  });

  it('owner filter and owners with counts', () => {
    expect(ids(index.query({ text: 'o', capabilities: [], owner: 'openai', sort: 'name' }))).toEqual(['dall-e-3', 'gpt-4o', 'gpt-4o-mini']);
    expect(index.owners()).toEqual([{ owner: 'anthropic', count: 1 }, { owner: 'deepseek', count: 1 }, { owner: 'openai', count: 3 }]);
  });
});

describe('firstChatModel', () => {
  const model = (id: string, caps: Partial<ModelInfo['capabilities']>): ModelInfo => ({ id, capabilities: { chat: 'unknown', responses: 'unknown', imageInput: 'unknown', imageGeneration: 'unknown', embeddings: 'unknown', reasoning: 'unknown', tools: 'unknown', ...caps } });
  it('prefers a model stated to chat, skips embedding and drawing models, then takes one not ruled out', () => {
    expect(firstChatModel([model('text-embedding-3', { embeddings: true }), model('dall-e-3', { imageGeneration: true }), model('mystery', {}), model('gpt-4o', { chat: true })])).toBe('gpt-4o');
    expect(firstChatModel([model('text-embedding-3', { embeddings: true }), model('mystery', {})])).toBe('mystery');
    expect(firstChatModel([])).toBeUndefined();
  });

  it('skips speech and transcription models, which new-api lists as chat models', () => {
    expect(firstChatModel([model('tts-1', { chat: true }), model('whisper-1', { chat: true }), model('gpt-4o-mini-tts', { chat: true }), model('gpt-4o', { chat: true })])).toBe('gpt-4o');
  });
});

describe('filtering by interface', () => {
  const served = new CatalogueIndex([
    { ...model('claude-x', 'anthropic', { chat: true }), apis: ['anthropic', 'chat'], preferredApi: 'anthropic' },
    { ...model('gemini-x', 'google', { chat: true }), apis: ['gemini', 'chat'], preferredApi: 'gemini' },
    { ...model('resp-x', 'openai', { chat: false, responses: true }), apis: ['responses'], preferredApi: 'responses' },
    // A gateway that names no interfaces: chat and responses from the capabilities it states.
    model('plain-x', 'openai', { chat: true, responses: true }),
    model('silent-x', undefined),
  ]);
  const query = (capabilities: Parameters<CatalogueIndex['query']>[0]['capabilities']) => ids(served.query({ text: '', capabilities, sort: 'name' }));

  it('keeps the models the gateway serves through each chosen interface', () => {
    expect(query(['anthropic'])).toEqual(['claude-x']);
    expect(query(['gemini'])).toEqual(['gemini-x']);
    expect(query(['chat'])).toEqual(['claude-x', 'gemini-x', 'plain-x']);
    expect(query(['responses'])).toEqual(['plain-x', 'resp-x']);
    expect(query(['anthropic', 'gemini'])).toEqual([]);
  });

  it('servesThrough reads the named interfaces, else the stated capabilities', () => {
    const byId = new Map(served.query({ text: '', capabilities: [], sort: 'name' }).map((m) => [m.id, m]));
    const through = (id: string) => INTERFACE_FILTERS.filter((api) => servesThrough(byId.get(id)!, api));
    expect(through('claude-x')).toEqual(['chat', 'anthropic']);
    expect(through('plain-x')).toEqual(['chat', 'responses']);
    expect(through('silent-x')).toEqual([]);
  });
});

describe('prices', () => {
  const priced = new CatalogueIndex([model('cheap', 'a'), model('dear', 'a'), model('per-call', 'b'), model('free', 'b'), model('unpriced', 'c')]);
  const prices = {
    cheap: { input: 0.5, output: 1.5, currency: 'USD' },
    dear: { input: 15, output: 75, currency: 'USD' },
    'per-call': { perRequest: 0.04, currency: 'USD' },
    free: { input: 0, output: 0, currency: 'USD' },
  };

  it('sorts by input price: per-token first, per-request after, unpriced last', () => {
    expect(ids(priced.query({ text: '', capabilities: [], sort: 'price', prices }))).toEqual(['free', 'cheap', 'dear', 'per-call', 'unpriced']);
  });

  it('"free" keeps the models listed at no cost, and none without a price list', () => {
    expect(ids(priced.query({ text: '', capabilities: ['free'], sort: 'name', prices }))).toEqual(['free']);
    expect(ids(priced.query({ text: '', capabilities: ['free'], sort: 'name', prices: null }))).toEqual([]);
    expect(isFree({ perRequest: 0, currency: 'USD' })).toBe(true);
    expect(isFree({ input: 0, output: 0.1, currency: 'USD' })).toBe(false);
  });
});

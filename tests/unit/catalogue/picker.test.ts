import { describe, expect, it } from 'vitest';
import { CatalogueIndex } from '@/lib/catalogue/filter';
import { pickerRows } from '@/lib/catalogue/picker';
import type { ModelInfo } from '@/lib/gateway';
import { ProfileSchema, RECENT_MODELS, withFavouriteModel, withRecentModel } from '@/lib/settings/schema';

const U = 'unknown' as const;
const model = (id: string): ModelInfo => ({ id, capabilities: { chat: true, responses: U, imageInput: U, imageGeneration: U, embeddings: U, reasoning: U, tools: U } });
const models = ['alpha-1', 'beta-2', 'gamma-3', 'delta-4'].map(model);
const rows = (text: string, favourites: string[], recent: string[]) =>
  pickerRows(new CatalogueIndex(models), new Map(models.map((m) => [m.id, m])), text, { favourites, recent }).map((r) => `${r.group}:${r.id}`);

describe('pickerRows', () => {
  it('starred first, then recent, then the rest by name; a model appears once', () => {
    expect(rows('', ['gamma-3'], ['delta-4', 'gamma-3'])).toEqual(['favourites:gamma-3', 'recent:delta-4', 'all:alpha-1', 'all:beta-2']);
  });

  it('search narrows every group', () => {
    expect(rows('ta-', ['gamma-3', 'beta-2'], ['delta-4'])).toEqual(['favourites:beta-2', 'recent:delta-4']);
    expect(rows('bet', ['gamma-3'], ['delta-4'])).toEqual(['all:beta-2']);
  });

  it('keeps a starred model the gateway no longer lists, marked unlisted', () => {
    const result = pickerRows(new CatalogueIndex(models), new Map(models.map((m) => [m.id, m])), '', { favourites: ['gone-9'], recent: [] });
    expect(result[0]).toEqual({ id: 'gone-9', group: 'favourites', model: undefined });
  });
});

describe('favourite and recent models on a profile', () => {
  const profile = ProfileSchema.parse({ id: 'p', name: 'P', siteUrl: 'https://g.example', baseUrl: 'https://g.example/v1', apiKey: 'k' });

  it('recent: newest first, no duplicates, at most RECENT_MODELS', () => {
    let p = profile;
    for (const id of ['a', 'b', 'c', 'a', 'd', 'e', 'f', 'g']) p = withRecentModel(p, id);
    expect(p.recentModels).toEqual(['g', 'f', 'e', 'd', 'a'].slice(0, RECENT_MODELS));
    expect(withRecentModel(p, 'g')).toBe(p);
  });

  it('star and unstar', () => {
    const starred = withFavouriteModel(withFavouriteModel(profile, 'a', true), 'b', true);
    expect(starred.favouriteModels).toEqual(['a', 'b']);
    expect(withFavouriteModel(starred, 'a', false).favouriteModels).toEqual(['b']);
  });
});

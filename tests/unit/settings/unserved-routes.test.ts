/**
 * The interfaces a gateway was found not to serve, as kept in storage per profile (issue 28,
 * item 3): read back for its address only, and two noted at once (two columns of a comparison
 * rerouted together) both kept.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { loadUnservedApis, removeCatalogue, saveUnservedApi } from '@/lib/settings/storage.adapter';

const profile = { id: 'p1', baseUrl: 'https://gw.example.com/v1' };

beforeEach(() => fakeBrowser.reset());

describe('the remembered missing routes', () => {
  it('two noted at once are both kept; another address knows none; a deleted profile forgets them', async () => {
    await Promise.all([saveUnservedApi(profile, 'anthropic'), saveUnservedApi(profile, 'gemini')]);
    expect((await loadUnservedApis(profile)).sort()).toEqual(['anthropic', 'gemini']);
    expect(await loadUnservedApis({ ...profile, baseUrl: 'https://moved.example.com/v1' })).toEqual([]);
    await removeCatalogue(profile.id);
    expect(await loadUnservedApis(profile)).toEqual([]);
  });
});

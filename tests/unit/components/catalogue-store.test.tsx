// @vitest-environment jsdom
import { renderHook, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useCatalogue } from '@/components/stores/catalogue';
import { loadCatalogue } from '@/lib/settings/storage.adapter';
import type { Profile } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

let gateway: ReferenceGateway;
beforeAll(async () => {
  gateway = await startReferenceGateway();
});
afterAll(async () => {
  await gateway.close();
});

it('two views of one profile share one fetch of the catalogue, and one refresh; the cache is written for the next page', async () => {
  const profile: Profile = { id: 'shared', name: 'Ref', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat', confirmedImageModels: [] };
  const models = () => gateway.requests.filter((r) => r.path === '/v1/models').length;
  const a = renderHook(() => useCatalogue(profile));
  const b = renderHook(() => useCatalogue(profile));
  await waitFor(() => expect(a.result.current.models.length).toBeGreaterThan(0));
  expect(b.result.current.models).toBe(a.result.current.models);
  expect(models()).toBe(1);
  await Promise.all([a.result.current.refresh(), b.result.current.refresh()]);
  expect(models()).toBe(2);
  expect((await loadCatalogue('shared'))?.models.map((m) => m.id)).toEqual(a.result.current.models.map((m) => m.id));
  // A third view, later: the page's copy, no fetch.
  const c = renderHook(() => useCatalogue(profile));
  expect(c.result.current.models).toBe(a.result.current.models);
  expect(models()).toBe(2);
});

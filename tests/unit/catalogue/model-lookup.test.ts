import { describe, expect, it, vi } from 'vitest';
import { modelLookup, type StoredCatalogue } from '@/lib/catalogue/model-lookup';
import type { ModelInfo } from '@/lib/gateway/types';

/** Entries with an id only: the lookup reads nothing else of them. */
const catalogue = (...ids: string[]): StoredCatalogue => ({ models: ids.map((id) => ({ id }) as ModelInfo) });

/** Storage of catalogues by profile, counting reads, telling its watchers of each write. */
function storage(initial: Record<string, StoredCatalogue>) {
  const data = new Map(Object.entries(initial));
  const watchers = new Map<string, ((c: StoredCatalogue | undefined) => void)[]>();
  const load = vi.fn(async (profileId: string) => data.get(profileId));
  const watch = (profileId: string, onChange: (c: StoredCatalogue | undefined) => void): void => {
    watchers.set(profileId, [...(watchers.get(profileId) ?? []), onChange]);
  };
  const write = (profileId: string, value: StoredCatalogue | undefined): void => {
    if (value === undefined) data.delete(profileId);
    else data.set(profileId, value);
    for (const w of watchers.get(profileId) ?? []) w(value);
  };
  return { load, watch, write };
}

describe('modelLookup', () => {
  it('reads a profile\'s catalogue once for every question about its models', async () => {
    const s = storage({ p1: catalogue('gpt-4o', 'claude'), p2: catalogue('gemini') });
    const lookup = modelLookup(s.load, s.watch);
    const answers = await Promise.all([lookup.info('p1', 'gpt-4o'), lookup.info('p1', 'claude'), lookup.info('p1', 'missing')]);
    expect(answers).toEqual([{ id: 'gpt-4o' }, { id: 'claude' }, undefined]);
    await expect(lookup.info('p1', 'gpt-4o')).resolves.toEqual({ id: 'gpt-4o' });
    expect(s.load).toHaveBeenCalledTimes(1);
    await expect(lookup.info('p2', 'gemini')).resolves.toEqual({ id: 'gemini' });
    expect(s.load).toHaveBeenCalledTimes(2);
  });

  it('answers from the catalogue as last written, without reading it again', async () => {
    const s = storage({ p1: catalogue('old-model') });
    const lookup = modelLookup(s.load, s.watch);
    await expect(lookup.info('p1', 'new-model')).resolves.toBeUndefined();
    s.write('p1', catalogue('new-model'));
    await expect(lookup.info('p1', 'new-model')).resolves.toEqual({ id: 'new-model' });
    await expect(lookup.info('p1', 'old-model')).resolves.toBeUndefined();
    s.write('p1', undefined);
    await expect(lookup.info('p1', 'new-model')).resolves.toBeUndefined();
    expect(s.load).toHaveBeenCalledTimes(1);
  });

  it('a write that lands while the first read is under way wins over it', async () => {
    const s = storage({ p1: catalogue('old-model') });
    const lookup = modelLookup(s.load, s.watch);
    const first = lookup.info('p1', 'old-model');
    s.write('p1', catalogue('new-model'));
    await expect(first).resolves.toEqual({ id: 'old-model' });
    await expect(lookup.info('p1', 'new-model')).resolves.toEqual({ id: 'new-model' });
  });

  it('a read that failed is tried again next time', async () => {
    const s = storage({ p1: catalogue('m') });
    s.load.mockRejectedValueOnce(new Error('storage unavailable'));
    const lookup = modelLookup(s.load, s.watch);
    await expect(lookup.info('p1', 'm')).rejects.toThrow('storage unavailable');
    await expect(lookup.info('p1', 'm')).resolves.toEqual({ id: 'm' });
    expect(s.load).toHaveBeenCalledTimes(2);
  });
});

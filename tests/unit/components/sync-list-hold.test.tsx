// @vitest-environment jsdom
/**
 * A page that shows sync's status reads its conversation list once a round that brings many files
 * down has ended, not after each of its writes (components/stores/sync.ts); a round with one file
 * to read, or none, leaves the list live.
 */
import { renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SyncServiceStatus } from '@/lib/sync/service';
import { bringsManyDown } from '@/lib/sync/scheduler';

const calls: string[] = [];
let report: ((status: SyncServiceStatus) => void) | undefined;

vi.mock('@/components/stores/conversations', () => ({
  holdConversationList: () => {
    calls.push('hold');
    return () => calls.push('release');
  },
}));
vi.mock('@/lib/sync/sync.adapter', () => ({
  loadSyncConfig: async () => undefined,
  loadSyncStatus: async (): Promise<SyncServiceStatus> => ({ state: 'idle' }),
  watchSyncConfig: () => () => undefined,
  watchSyncStatus: (onStatus: (status: SyncServiceStatus) => void) => {
    report = onStatus;
    return () => undefined;
  },
}));

const { useSync } = await import('@/components/stores/sync');

beforeEach(() => {
  calls.length = 0;
  report = undefined;
});

describe('the conversation list while sync brings changes down', () => {
  it('is held from the round\'s first report of many files down until the round ends, once', async () => {
    const view = renderHook(() => useSync());
    await vi.waitFor(() => expect(report).toBeDefined());
    report!({ state: 'syncing', progress: { phase: 'up', done: 1, total: 3 } });
    expect(calls).toEqual([]);
    report!({ state: 'syncing', progress: { phase: 'down', done: 1, total: 53 } });
    report!({ state: 'syncing', progress: { phase: 'down', done: 20, total: 53 } });
    expect(calls).toEqual(['hold']);
    report!({ state: 'idle', lastSyncedAt: 1 });
    expect(calls).toEqual(['hold', 'release']);
    // A round that fails midway releases it too; so does the page no longer looking.
    report!({ state: 'syncing', progress: { phase: 'down', done: 2, total: 9 } });
    report!({ state: 'retrying', code: 'unreachable', retryAt: 5 });
    expect(calls).toEqual(['hold', 'release', 'hold', 'release']);
    report!({ state: 'syncing', progress: { phase: 'down', done: 2, total: 9 } });
    view.unmount();
    expect(calls).toEqual(['hold', 'release', 'hold', 'release', 'hold', 'release']);
  });

  it('a round with one file or none to read leaves the list live', () => {
    expect(bringsManyDown({ state: 'syncing', progress: { phase: 'down', done: 1, total: 1 } })).toBe(false);
    expect(bringsManyDown({ state: 'syncing' })).toBe(false);
    expect(bringsManyDown({ state: 'syncing', progress: { phase: 'rekey', done: 1, total: 40 } })).toBe(false);
    expect(bringsManyDown({ state: 'off' })).toBe(false);
  });
});

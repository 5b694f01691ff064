import { useEffect } from 'react';
import { create } from 'zustand';
import type { SyncConfig } from '@/lib/sync/config';
import type { SyncServiceStatus } from '@/lib/sync/service';
import { bringsManyDown } from '@/lib/sync/scheduler';
import { holdConversationList } from './conversations';

/** Where sync goes, as pages show it: never a credential (those stay in storage.local). */
export type SyncSummary =
  | { service: 'webdav'; address: string; folder: string; syncSettings: boolean }
  | { service: 's3'; endpoint: string; bucket: string; folder: string; syncSettings: boolean };

export function summaryOf(config: SyncConfig): SyncSummary {
  return config.service === 'webdav'
    ? { service: 'webdav', address: config.address, folder: config.folder, syncSettings: config.syncSettings }
    : { service: 's3', endpoint: config.endpoint, bucket: config.bucket, folder: config.folder, syncSettings: config.syncSettings };
}

interface SyncState {
  /** False until the first read of the config and the status. */
  loaded: boolean;
  /** Sync is set up on this device (undefined: it is not). */
  summary: SyncSummary | undefined;
  status: SyncServiceStatus;
  /** When this page learnt the status: "2 minutes ago" is counted from no earlier than this. */
  seenAt: number;
}

/**
 * The page's one copy of whether sync is set up (its summary) and the background's status, fed
 * from storage.local and kept current while any view shows it.
 */
export const useSyncStore = create<SyncState>(() => ({ loaded: false, summary: undefined, status: { state: 'off' }, seenAt: 0 }));

let watchers = 0;
let stop: (() => void) | undefined;

/**
 * While a round brings many files down (a device catching up), the conversation list is read
 * once when the round ends, as after an import, not after each of its writes: ten thousand
 * conversations read again every few seconds kept the page's garbage collector busy, in pauses
 * of 50–80 ms (measured: `npm run bench -- sync`).
 */
let listHeld: (() => void) | undefined;
function holdListWhile(status: SyncServiceStatus | undefined): void {
  const bringing = status !== undefined && bringsManyDown(status);
  if (bringing && listHeld === undefined) listHeld = holdConversationList();
  if (!bringing && listHeld !== undefined) {
    listHeld();
    listHeld = undefined;
  }
}

/**
 * Reads and watches while someone looks (the first view starts, the last one stops): a watch
 * that reports before the first read ends wins over that read. The adapter (with the storage
 * clients its schema names) arrives with the first view, off the chat page's first paint.
 */
function subscribe(): () => void {
  if (watchers++ === 0) {
    let stopped = false;
    const unwatch: (() => void)[] = [];
    stop = () => {
      stopped = true;
      for (const off of unwatch) off();
      holdListWhile(undefined);
    };
    void import('@/lib/sync/sync.adapter').then(({ loadSyncConfig, loadSyncStatus, watchSyncConfig, watchSyncStatus }) => {
      if (stopped) return;
      let configSeen = false;
      let statusSeen = false;
      unwatch.push(watchSyncConfig((config) => {
        configSeen = true;
        useSyncStore.setState({ summary: config === undefined ? undefined : summaryOf(config) });
      }));
      unwatch.push(watchSyncStatus((status) => {
        statusSeen = true;
        useSyncStore.setState({ status, seenAt: Date.now() });
        holdListWhile(status);
      }));
      return Promise.all([loadSyncConfig(), loadSyncStatus()]).then(([config, status]) => {
        if (stopped) return;
        useSyncStore.setState({
          loaded: true,
          ...(configSeen ? {} : { summary: config === undefined ? undefined : summaryOf(config) }),
          ...(statusSeen ? {} : { status, seenAt: Date.now() }),
        });
        if (!statusSeen) holdListWhile(status);
      });
    });
  }
  return () => {
    if (--watchers === 0) {
      stop?.();
      stop = undefined;
    }
  };
}

/** Sync's summary and status, read and watched while the calling view is mounted. */
export function useSync(): SyncState {
  useEffect(subscribe, []);
  const loaded = useSyncStore((s) => s.loaded);
  const summary = useSyncStore((s) => s.summary);
  const status = useSyncStore((s) => s.status);
  const seenAt = useSyncStore((s) => s.seenAt);
  return { loaded, summary, status, seenAt };
}

/**
 * Sync in the background worker (issue 31): the service fed from storage (sync.adapter.ts), a
 * round when the worker starts, when the settings change, a minute after the database changes
 * or the settings change (from any page: Dexie relays writes), on "Sync now", and every 15 minutes (an alarm, which
 * also wakes a stopped worker). The worker is kept up while a round runs.
 */
import { browser } from 'wxt/browser';
import type { ConversationStore } from '@/lib/conversations/store';
import { createKeepAlive } from '@/lib/runs/keep-alive.adapter';
import { loadSettings, updateSettings, watchSettings } from '@/lib/settings/storage.adapter';
import { SyncService } from './service';
import { loadDeviceSync, loadSyncConfig, loadSyncKey, saveDeviceSync, saveSyncKey, saveSyncStatus, watchSyncConfig } from './sync.adapter';

const ALARM = 'sync';
const PERIOD_MINUTES = 15;

export function runSyncInBackground(store: ConversationStore): SyncService {
  const keepAlive = createKeepAlive();
  const service = new SyncService({
    store,
    loadConfig: loadSyncConfig,
    loadKey: loadSyncKey,
    saveKey: saveSyncKey,
    loadDevice: loadDeviceSync,
    settings: {
      read: async () => {
        const loaded = await loadSettings();
        return loaded.ok ? loaded.settings : undefined;
      },
      write: async (change) => {
        // Refused (full disk, say): the round fails and is tried again; the merged state keeps
        // what arrived, and nothing is taken for deleted here.
        const saved = await updateSettings(change);
        if (!saved.ok) throw new Error(`settings not saved: ${saved.problem}`);
      },
    },
    saveDevice: saveDeviceSync,
    onStatus: (status) => void saveSyncStatus(status).catch(() => undefined),
    busy: (running) => keepAlive(running ? 1 : 0),
  });
  watchSyncConfig(() => void service.settingsChanged());
  store.watchSyncChanges(() => service.changed(), () => undefined);
  // Presets, actions and settings changed on any page (and by sync itself: the next round then finds nothing to send).
  watchSettings(() => service.changed());
  void browser.alarms.get(ALARM).then((alarm) => {
    if (alarm === undefined) void browser.alarms.create(ALARM, { periodInMinutes: PERIOD_MINUTES });
  });
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) service.alarm();
  });
  void service.start();
  return service;
}

import { describe, expect, it } from 'vitest';
import { HybridClock, compareStamps } from '@/lib/sync/clock';
import { newDeviceId, storageFor, SyncConfigSchema, syncOrigin } from '@/lib/sync/config';
import type { DeviceSync } from '@/lib/sync/device';
import { newMemory } from '@/lib/sync/engine';
import { applyChanges, emptyState, mergedView } from '@/lib/sync/merge';
import { restoreDeviceSync, saveDeviceSync } from '@/lib/sync/persist';
import { S3Storage } from '@/lib/sync/s3';
import { WebDavStorage } from '@/lib/sync/webdav';

describe('a device\'s sync, saved between rounds', () => {
  it('comes back as it was (memory, merged state, clock), through JSON', () => {
    const clock = new HybridClock('laptop01');
    const device: DeviceSync = { memory: { ...newMemory('laptop01'), segments: 3, manifestVersion: 4, merged: { desktop1: 7 } }, state: emptyState(), clock };
    applyChanges(device.state, [
      { type: 'message', stamp: clock.tick(), message: { id: 'm1', conversationId: 'c1', parentId: null, seq: 1, role: 'user', text: 'hi', reasoning: '', status: 'complete', createdAt: 1 } },
      { type: 'field', stamp: clock.tick(), kind: 'conversation', id: 'c1', field: 'title', value: 'One' },
      { type: 'field', stamp: clock.tick(), kind: 'conversation', id: 'c1', field: 'title', value: 'Two' },
      { type: 'delete', stamp: clock.tick(), kind: 'preset', id: 'p1' },
    ]);
    const last = clock.tick();
    const back = restoreDeviceSync(JSON.parse(JSON.stringify(saveDeviceSync(device))))!;
    expect(back.memory).toEqual(device.memory);
    expect(mergedView(back.state)).toEqual(mergedView(device.state));
    expect(back.state.tombstones).toEqual(device.state.tombstones);
    // The restored clock never stamps before what it stamped already.
    expect(compareStamps(back.clock.tick(), last)).toBeGreaterThan(0);
  });

  it('is not believed when it cannot be read: sync starts over', () => {
    expect(restoreDeviceSync({ format: 1, memory: {} })).toBeUndefined();
    expect(restoreDeviceSync('garbage')).toBeUndefined();
  });
});

describe('where a device syncs to', () => {
  it('names its storage and its one origin; a bad address or a device id that is not a path is refused', () => {
    const webdav = SyncConfigSchema.parse({ service: 'webdav', address: 'https://dav.jianguoyun.com/dav/', username: 'me@example.com', password: 'app-password', deviceId: newDeviceId() });
    expect(webdav.folder).toBe('Gateway Chat');
    expect(storageFor(webdav)).toBeInstanceOf(WebDavStorage);
    expect(syncOrigin(webdav)).toBe('https://dav.jianguoyun.com');
    const s3 = SyncConfigSchema.parse({ service: 's3', endpoint: 'https://acct.r2.cloudflarestorage.com', bucket: 'chats', accessKeyId: 'k', secretAccessKey: 's', deviceId: 'desktop1' });
    expect(s3.service === 's3' && s3.region).toBe('auto');
    expect(storageFor(s3)).toBeInstanceOf(S3Storage);
    expect(syncOrigin(s3)).toBe('https://acct.r2.cloudflarestorage.com');
    expect(SyncConfigSchema.safeParse({ ...webdav, address: 'dav.example.com' }).success).toBe(false);
    expect(SyncConfigSchema.safeParse({ ...webdav, address: 'javascript:alert(1)' }).success).toBe(false);
    expect(SyncConfigSchema.safeParse({ ...webdav, deviceId: '../other' }).success).toBe(false);
  });
});

import { expect } from 'vitest';
import type { SyncStorage } from '../../lib/sync/storage';

const bytes = (text: string) => new TextEncoder().encode(text);

/**
 * What every sync storage must do with tags (lib/sync/storage.ts): each object directly in a
 * folder (not its sub-folders) tagged, a rewritten object tagged anew, an untouched one not, a
 * missing folder empty. Leaves nothing behind.
 */
export async function checkTags(storage: SyncStorage): Promise<void> {
  await storage.write('gateway-chat/manifests/laptop01', bytes('one'));
  await storage.write('gateway-chat/manifests/desktop1', bytes('two'));
  await storage.write('gateway-chat/manifests/sub/other', bytes('deeper'));
  const first = await storage.tags('gateway-chat/manifests/');
  expect([...first.keys()].sort()).toEqual(['desktop1', 'laptop01']);
  await storage.write('gateway-chat/manifests/laptop01', bytes('one, rewritten'));
  const second = await storage.tags('gateway-chat/manifests/');
  expect(second.get('laptop01')).not.toBe(first.get('laptop01'));
  expect(second.get('desktop1')).toBe(first.get('desktop1'));
  expect(await storage.tags('gateway-chat/nothing-here/')).toEqual(new Map());
  await storage.remove('gateway-chat/manifests/');
}

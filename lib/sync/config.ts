/**
 * Where a device syncs to, as the options page's "Sync" section sets it: the service and its
 * credentials, the folder, this device's id, and whether settings sync too. Kept in
 * storage.local like the API key (never storage.sync), parsed on read. The passphrase is never
 * kept: only the key it gave (a non-extractable CryptoKey, in IndexedDB).
 */
import * as z from 'zod/mini';
import { isDeviceId } from './changes';
import { S3Storage } from './s3';
import { globalFetch, type SyncStorage } from './storage';
import { WebDavStorage } from './webdav';

const Common = {
  folder: z._default(z.string(), 'Gateway Chat'),
  deviceId: z.string().check(z.refine(isDeviceId)),
  /** Non-secret settings (theme, language, defaults) sync too. */
  syncSettings: z._default(z.boolean(), false),
};

const HttpAddress = z.string().check(z.refine((value) => {
  try {
    return ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}));

export const SyncConfigSchema = z.discriminatedUnion('service', [
  z.object({ service: z.literal('webdav'), address: HttpAddress, username: z.string(), password: z.string(), ...Common }),
  z.object({ service: z.literal('s3'), endpoint: HttpAddress, bucket: z.string().check(z.minLength(3)), region: z._default(z.string(), 'auto'), accessKeyId: z.string(), secretAccessKey: z.string(), ...Common }),
]);
export type SyncConfig = z.infer<typeof SyncConfigSchema>;

/** The storage a config names. */
export function storageFor(config: SyncConfig, fetcher: typeof fetch = globalFetch): SyncStorage {
  if (config.service === 'webdav') return new WebDavStorage({ address: config.address, username: config.username, password: config.password, folder: config.folder }, fetcher);
  return new S3Storage({ endpoint: config.endpoint, bucket: config.bucket, region: config.region, accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey, folder: config.folder }, fetcher);
}

/** The one origin sync talks to (host access is asked for it alone). */
export function syncOrigin(config: SyncConfig): string {
  return new URL(config.service === 'webdav' ? config.address : config.endpoint).origin;
}

/** A new device id: random, in the characters paths allow. */
export function newDeviceId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

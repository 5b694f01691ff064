/**
 * What devices write for each other (README.md): changes, the segments that carry them, and each
 * device's manifest. All of it is read from the server, so all of it is parsed with these.
 */
import * as z from 'zod/mini';
import { MessageSchema } from '@/lib/conversations/records';
import { ExportedImageSchema } from '@/lib/transfer/history-file';

export const SYNC_FORMAT = 1;

/** The kinds of records whose fields sync (settings: the one record `settings`, when the user syncs them). */
export const RECORD_KINDS = ['conversation', 'preset', 'prompt', 'action', 'settings', 'profile'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

const Stamp = z.string().check(z.regex(/^\d{13}-\d{4}-.+$/));
/** A count of segments. */
const Count = z.number().check(z.int(), z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));

export const ChangeSchema = z.discriminatedUnion('type', [
  /** A complete message: immutable from now on. */
  z.object({ type: z.literal('message'), stamp: Stamp, message: MessageSchema }),
  /** One field of one record set to a value (JSON). */
  z.object({ type: z.literal('field'), stamp: Stamp, kind: z.enum(RECORD_KINDS), id: z.string(), field: z.string(), value: z.unknown() }),
  /** A record deleted. */
  z.object({ type: z.literal('delete'), stamp: Stamp, kind: z.enum(RECORD_KINDS), id: z.string() }),
  /** An image a message holds, its bytes as base64 (as history files carry them): immutable, like a message. */
  z.object({ type: z.literal('image'), stamp: Stamp, image: ExportedImageSchema }),
]);
export type Change = z.infer<typeof ChangeSchema>;

/** One published batch of one device's changes. */
export const SegmentSchema = z.object({
  format: z.literal(SYNC_FORMAT),
  device: z.string(),
  n: z.number().check(z.int(), z.positive()),
  changes: z.array(ChangeSchema),
});
export type Segment = z.infer<typeof SegmentSchema>;

/** A device's own index: what it has published, and how far it has read everyone else. */
export const ManifestSchema = z.object({
  format: z.literal(SYNC_FORMAT),
  device: z.string(),
  /** Grows with every rewrite: bound to the sealed object, so a rolled-back manifest does not open as this one. */
  version: z.number().check(z.int(), z.positive()),
  /** Segments 1..segments are published. */
  segments: z.number().check(z.int(), z.nonnegative()),
  /**
   * The device's newest snapshot (snapshot.ts): its merged state, in `parts` objects, as of
   * `merged` (every device's segments it had merged then, its own included).
   */
  snapshot: z.optional(z.object({ n: z.number().check(z.int(), z.positive()), id: z.string().check(z.minLength(16), z.maxLength(64)), parts: z.number().check(z.int(), z.positive(), z.maximum(100_000)), merged: z.record(z.string(), Count) })),
  /** How many segments of each device this one has merged (tombstones go once every device is past them). */
  merged: z.record(z.string(), Count),
  /** The device's clock when this was written: everything it sends from now on is stamped later. */
  clock: z.optional(Stamp),
  /**
   * Every change stamped before this, from any device, is merged here (snapshot.ts): a deletion
   * older than every device's horizon is collected.
   */
  horizon: z.optional(Stamp),
  /** A name for people: which browser this is. */
  label: z.optional(z.string()),
  /**
   * "Stop syncing on this device": it publishes nothing more. Its segments are still read; its
   * horizon no longer holds deletions back (snapshot.ts).
   */
  retired: z.optional(z.boolean()),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** One part of a snapshot: changes that rebuild the merged state it was written from. */
export const SnapshotPartSchema = z.object({
  format: z.literal(SYNC_FORMAT),
  device: z.string(),
  n: z.number().check(z.int(), z.positive()),
  /** The snapshot's random id, as its manifest names it: a part of another snapshot numbered alike does not pass for one of this. */
  id: z.string(),
  part: z.number().check(z.int(), z.positive()),
  changes: z.array(ChangeSchema),
});
export type SnapshotPart = z.infer<typeof SnapshotPartSchema>;

const DEVICE_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** A device id is used in paths: only these characters. */
export function isDeviceId(id: string): boolean {
  return DEVICE_ID.test(id);
}

/** Where each object lives, under the user's folder. */
export const syncPaths = {
  keyCheck: (): string => 'gateway-chat/keycheck.json',
  /** Every device's manifest in one folder: one listing says which changed (`SyncStorage.tags`). */
  manifests: (): string => 'gateway-chat/manifests/',
  manifest: (device: string): string => `gateway-chat/manifests/${device}`,
  segment: (device: string, n: number): string => `gateway-chat/devices/${device}/seg-${n}`,
  /** Part `part` (1, 2, …) of the device's snapshot `n`. */
  snapshot: (device: string, n: number, part: number): string => `gateway-chat/devices/${device}/snap-${n}-${part}`,
};

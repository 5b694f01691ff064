/**
 * A device's sync between rounds, saved locally (never synced): its memory (engine.ts), its merged
 * state (merge.ts) and its clock's position, as JSON, parsed on read like any stored data.
 */
import * as z from 'zod/mini';
import { MessageSchema } from '@/lib/conversations/records';
import { ExportedImageSchema } from '@/lib/transfer/history-file';
import { HybridClock } from './clock';
import type { DeviceSync } from './device';
import type { SyncState } from './merge';

const StampSchema = z.string();
const FieldValueSchema = z.object({ value: z.unknown(), stamp: StampSchema });

const SavedSyncSchema = z.object({
  format: z.literal(1),
  memory: z.object({
    device: z.string(),
    segments: z.number(),
    manifestVersion: z.number(),
    merged: z.record(z.string(), z.number()),
    seenVersions: z.record(z.string(), z.number()),
    seenTags: z._default(z.record(z.string(), z.string()), {}),
    heard: z._default(z.record(z.string(), z.string()), {}),
    horizons: z._default(z.record(z.string(), z.string()), {}),
    devices: z._default(z.array(z.string()), []),
    horizon: z.optional(z.string()),
    snapshot: z.optional(z.object({ n: z.number(), id: z.string(), parts: z.number(), merged: z.record(z.string(), z.number()) })),
    snapshotCover: z._default(z.number(), 0),
    sealedWith: z.optional(z.number()),
    keyGeneration: z.optional(z.number()),
    rekey: z.optional(z.object({ generation: z.number(), done: z.number() })),
    legacy: z.optional(z.object({ generation: z.number(), devices: z.array(z.string()) })),
    keyed: z.optional(z.record(z.string(), z.number())),
    retired: z.optional(z.array(z.string())),
  }),
  clock: z.object({ wall: z.number(), counter: z.number() }),
  deferred: z._default(z.array(z.string()), []),
  settingsKnown: z.optional(z.object({ preset: z.array(z.string()), action: z.array(z.string()), settings: z.optional(z.boolean()), behind: z.optional(z.boolean()) })),
  state: z.object({
    messages: z.array(z.tuple([z.string(), z.object({ conversationId: z.string(), stamp: StampSchema })])),
    bodies: z.array(MessageSchema),
    fields: z.array(z.tuple([z.string(), z.array(z.tuple([z.string(), z.object({ value: z.unknown(), stamp: StampSchema, history: z.array(FieldValueSchema) })]))])),
    tombstones: z.array(z.tuple([z.string(), StampSchema])),
    images: z._default(z.array(z.tuple([z.string(), z.object({ conversationId: z.string(), stamp: StampSchema })])), []),
    imageBodies: z._default(z.array(ExportedImageSchema), []),
  }),
});
export type SavedSync = z.infer<typeof SavedSyncSchema>;

export function saveDeviceSync(device: DeviceSync): SavedSync {
  return {
    format: 1,
    memory: device.memory,
    clock: device.clock.position(),
    deferred: device.deferred ?? [],
    ...(device.settingsKnown === undefined ? {} : { settingsKnown: device.settingsKnown }),
    state: {
      messages: [...device.state.messages],
      bodies: [...device.state.bodies.values()],
      fields: [...device.state.fields].map(([key, fields]) => [key, [...fields]]),
      tombstones: [...device.state.tombstones],
      images: [...device.state.images],
      imageBodies: [...device.state.imageBodies.values()],
    },
  };
}

/** A saved device sync, or undefined when it cannot be read (sync then starts over: nothing is lost, only read again). */
export function restoreDeviceSync(saved: unknown): DeviceSync | undefined {
  const parsed = SavedSyncSchema.safeParse(saved);
  if (!parsed.success) return undefined;
  const { memory, clock: position, state, deferred, settingsKnown } = parsed.data;
  const clock = new HybridClock(memory.device);
  clock.restore(position);
  const restored: SyncState = {
    messages: new Map(state.messages),
    bodies: new Map(state.bodies.map((m) => [m.id, m])),
    fields: new Map(state.fields.map(([key, fields]) => [key, new Map(fields.map(([name, register]) => [name, { value: register.value, stamp: register.stamp, history: register.history.map((h) => ({ value: h.value, stamp: h.stamp })) }]))])),
    tombstones: new Map(state.tombstones),
    images: new Map(state.images),
    imageBodies: new Map(state.imageBodies.map((image) => [image.id, image])),
  };
  return { memory, state: restored, clock, deferred, ...(settingsKnown === undefined ? {} : { settingsKnown }) };
}

import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import { ChangeSchema, ManifestSchema, SegmentSchema, isDeviceId, type Change } from '@/lib/sync/changes';
import { HybridClock, compareStamps, formatStamp, parseStamp } from '@/lib/sync/clock';
import { applyChanges, collectTombstones, emptyState, FIELD_HISTORY, mergedView, settle } from '@/lib/sync/merge';

const stamp = (wall: number, device: string, counter = 0): string => formatStamp({ wall, counter, device });

function message(id: string, conversationId: string, parentId: string | null, seq: number, text: string, role: 'user' | 'assistant' = 'user'): Message {
  return { id, conversationId, parentId, seq, role, text, reasoning: '', status: 'complete', createdAt: 1 };
}

const view = (changes: Change[]) => {
  const v = mergedView(applyChanges(emptyState(), changes));
  return JSON.parse(JSON.stringify({ records: v.records, messages: [...v.messages], deleted: v.deleted })) as unknown;
};

/** Every order of `items` (small lists), and then some more shuffles. */
function orders<T>(items: T[]): T[][] {
  const out: T[][] = [];
  const permute = (rest: T[], done: T[]): void => {
    if (out.length > 720) return;
    if (rest.length === 0) out.push(done);
    rest.forEach((item, i) => permute([...rest.slice(0, i), ...rest.slice(i + 1)], [...done, item]));
  };
  permute(items, []);
  return out;
}

describe('the hybrid logical clock', () => {
  it('never goes backwards on one device, and stamps sort as they compare', () => {
    let now = 1_000;
    const clock = new HybridClock('laptop01', () => now);
    const a = clock.tick();
    now = 900; // the wall clock was set back
    const b = clock.tick();
    const c = clock.tick();
    expect(compareStamps(a, b)).toBeLessThan(0);
    expect(compareStamps(b, c)).toBeLessThan(0);
    expect([c, a, b].sort()).toEqual([a, b, c]);
    expect(parseStamp(a)).toEqual({ wall: 1000, counter: 0, device: 'laptop01' });
  });

  it('orders a change after everything its device had seen, with its clock an hour behind', () => {
    const hour = 3_600_000;
    const now = 1_700_000_000_000;
    const right = new HybridClock('desktop1', () => now);
    const behind = new HybridClock('laptop01', () => now - hour);
    const renamed = right.tick();
    behind.observe(renamed);
    const renamedAgain = behind.tick();
    expect(compareStamps(renamedAgain, renamed)).toBeGreaterThan(0);
    // A stamp from a clock days ahead is not believed: it would stop this clock for days.
    behind.observe(stamp(now + 3 * 24 * hour, 'broken01'));
    expect(parseStamp(behind.tick())!.wall).toBeLessThan(now + hour);
  });
});

describe('the merge', () => {
  const hello = message('m1', 'c1', null, 1, 'Hello');
  const answer = message('m2', 'c1', 'm1', 2, 'Hi', 'assistant');
  const laptopTurn = message('m3', 'c1', 'm2', 3, 'From the laptop');
  const desktopTurn = message('m4', 'c1', 'm2', 3, 'From the desktop');
  const changes: Change[] = [
    { type: 'message', stamp: stamp(1, 'laptop01'), message: hello },
    { type: 'message', stamp: stamp(2, 'laptop01'), message: answer },
    { type: 'field', stamp: stamp(3, 'laptop01'), kind: 'conversation', id: 'c1', field: 'title', value: 'Greetings' },
    { type: 'message', stamp: stamp(10, 'laptop01'), message: laptopTurn },
    { type: 'message', stamp: stamp(11, 'desktop1'), message: desktopTurn },
    { type: 'field', stamp: stamp(12, 'laptop01'), kind: 'conversation', id: 'c1', field: 'title', value: 'Laptop title' },
    { type: 'field', stamp: stamp(13, 'desktop1'), kind: 'conversation', id: 'c1', field: 'title', value: 'Desktop title' },
  ];

  it('gives the same state whatever order the changes come in, and however often', () => {
    const expected = view(changes);
    for (const order of orders(changes)) expect(view(order)).toEqual(expected);
    expect(view([...changes, ...changes.slice().reverse()])).toEqual(expected);
  });

  it('keeps both devices\' offline turns as versions, and the newer title with the other in its history', () => {
    const v = mergedView(applyChanges(emptyState(), changes));
    const turns = v.messages.get('c1')!;
    expect(turns.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(turns.filter((m) => m.parentId === 'm2').map((m) => m.text)).toEqual(['From the laptop', 'From the desktop']);
    const conversation = v.records.find((r) => r.id === 'c1')!;
    expect(conversation.fields.title).toBe('Desktop title');
    expect(conversation.history.title!.map((h) => h.value)).toEqual(['Laptop title', 'Greetings']);
  });

  it('keeps a field\'s last few losing values only', () => {
    const many: Change[] = Array.from({ length: 12 }, (_, i) => ({ type: 'field', stamp: stamp(i + 1, 'laptop01'), kind: 'preset', id: 'p1', field: 'name', value: `name ${i}` }));
    const record = mergedView(applyChanges(emptyState(), many.reverse())).records[0]!;
    expect(record.fields.name).toBe('name 11');
    expect(record.history.name!.map((h) => h.value)).toEqual(Array.from({ length: FIELD_HISTORY }, (_, i) => `name ${10 - i}`));
  });

  it('a deletion wins over older edits; a turn added after it, on a device that had not seen it, brings the conversation back whole', () => {
    const deletion: Change = { type: 'delete', stamp: stamp(20, 'desktop1'), kind: 'conversation', id: 'c1' };
    const deleted = mergedView(applyChanges(emptyState(), [deletion, ...changes]));
    expect(deleted.records.find((r) => r.id === 'c1')).toBeUndefined();
    expect(deleted.messages.has('c1')).toBe(false);
    expect(deleted.deleted).toEqual([{ kind: 'conversation', id: 'c1' }]);

    const later: Change = { type: 'message', stamp: stamp(25, 'laptop01'), message: message('m5', 'c1', 'm3', 4, 'Still here') };
    const back = mergedView(applyChanges(emptyState(), [later, ...changes, deletion]));
    expect(back.messages.get('c1')!.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(back.deleted).toEqual([]);
  });

  it('keeps no message text once the database has it, but keeps a deleted conversation\'s until a later change brings it back', () => {
    const state = applyChanges(emptyState(), changes);
    settle(state);
    expect(state.bodies.size).toBe(0);
    expect(mergedView(state).messages.size).toBe(0);
    // Read again (a segment read twice): nothing to put again.
    applyChanges(state, changes);
    expect(mergedView(state).messages.size).toBe(0);

    const other = applyChanges(emptyState(), [...changes, { type: 'delete', stamp: stamp(20, 'desktop1'), kind: 'conversation', id: 'c1' }]);
    settle(other);
    expect(other.bodies.size).toBe(4);
    applyChanges(other, [{ type: 'message', stamp: stamp(25, 'laptop01'), message: message('m5', 'c1', 'm3', 4, 'Still here') }]);
    expect(mergedView(other).messages.get('c1')!.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('forgets a deletion once every device is past it, with what it deleted; not before', () => {
    const state = applyChanges(emptyState(), [...changes, { type: 'delete', stamp: stamp(20, 'desktop1'), kind: 'conversation', id: 'c1' }]);
    expect(collectTombstones(state, stamp(15, 'laptop01'))).toBe(0);
    expect(collectTombstones(state, stamp(30, 'laptop01'))).toBe(1);
    expect(state.tombstones.size).toBe(0);
    expect(state.messages.size).toBe(0);
    expect(state.bodies.size).toBe(0);
    expect(state.fields.size).toBe(0);
  });
});

describe('what devices write for each other', () => {
  it('is parsed before use: a change, a segment and a manifest that do not fit are refused', () => {
    expect(ChangeSchema.safeParse({ type: 'message', stamp: stamp(1, 'laptop01'), message: message('m1', 'c1', null, 1, 'x') }).success).toBe(true);
    expect(ChangeSchema.safeParse({ type: 'field', stamp: 'yesterday', kind: 'conversation', id: 'c1', field: 'title', value: 'x' }).success).toBe(false);
    expect(ChangeSchema.safeParse({ type: 'field', stamp: stamp(1, 'a'), kind: 'apiKey', id: 'c1', field: 'x', value: 'x' }).success).toBe(false);
    expect(SegmentSchema.safeParse({ format: 1, device: 'laptop01', n: 0, changes: [] }).success).toBe(false);
    expect(ManifestSchema.safeParse({ format: 1, device: 'laptop01', version: 3, segments: 2, merged: { desktop1: 4 } }).success).toBe(true);
    // Segment counts, in what was merged and what a snapshot covers, are whole and not negative.
    const manifest = { format: 1, device: 'laptop01', version: 3, segments: 2, merged: { desktop1: 4 } };
    const snapshot = { n: 1, id: '0123456789abcdef0123', parts: 1, merged: { laptop01: 2 } };
    expect(ManifestSchema.safeParse({ ...manifest, snapshot }).success).toBe(true);
    for (const bad of [1.5, -1, Number.POSITIVE_INFINITY, 1e300]) {
      expect(ManifestSchema.safeParse({ ...manifest, merged: { desktop1: bad } }).success, String(bad)).toBe(false);
      expect(ManifestSchema.safeParse({ ...manifest, snapshot: { ...snapshot, merged: { laptop01: bad } } }).success, String(bad)).toBe(false);
    }
    expect(ManifestSchema.safeParse({ ...manifest, snapshot: { ...snapshot, id: 'short' } }).success).toBe(false);
    expect(isDeviceId('laptop01')).toBe(true);
    expect(isDeviceId('../../etc')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@/lib/conversations/records';
import { ChangeSchema, type Change } from '@/lib/sync/changes';
import { HybridClock } from '@/lib/sync/clock';
import { planLocalChanges, planLocalUpdates, type LocalRecords } from '@/lib/sync/local';
import { applyChanges, emptyState, mergedView, type SyncState } from '@/lib/sync/merge';

const conversation = (id: string, title: string): Conversation => ({ id, title, createdAt: 1, updatedAt: 2, profileId: 'p1', model: 'gpt-4o', surface: 'popup' });
const message = (id: string, conversationId: string, seq: number, status: Message['status'] = 'complete'): Message => ({ id, conversationId, parentId: null, seq, role: 'user', text: `text ${id}`, reasoning: '', status, createdAt: 1 });

/** A device: its database (records) and its merged state. */
class Device {
  state: SyncState = emptyState();
  deletedHere: string[] = [];
  deferred: string[] = [];
  constructor(public local: LocalRecords, readonly clock: HybridClock) {}
  /** One round without a server: what changed here, then what arrived, then the database updated. */
  round(arrived: readonly Change[]) {
    const outgoing = planLocalChanges(this.local, this.state, () => this.clock.tick(), this.deletedHere, this.deferred);
    this.deletedHere = [];
    applyChanges(this.state, outgoing);
    for (const change of arrived) this.clock.observe(change.stamp);
    applyChanges(this.state, arrived);
    const updates = planLocalUpdates(mergedView(this.state), this.local);
    this.deferred = updates.deferred;
    const deleted = new Set(updates.deleteConversations);
    const putIds = new Set(updates.putConversations.map((c) => c.id));
    this.local = {
      conversations: [...this.local.conversations.filter((c) => !deleted.has(c.id) && !putIds.has(c.id)), ...updates.putConversations],
      messages: [...this.local.messages.filter((m) => !deleted.has(m.conversationId)), ...updates.putMessages],
    };
    return { updates, outgoing };
  }
}

describe('between the local database and the sync state', () => {
  it('sends a conversation\'s fields and its final messages; a conversation with a reply streaming waits until it ends; then nothing until something changes', () => {
    const laptop = new Device({ conversations: [conversation('c1', 'Trip'), conversation('c2', 'Busy')], messages: [message('m1', 'c1', 1), message('m2', 'c2', 1), message('m3', 'c2', 2, 'streaming')] }, new HybridClock('laptop01'));
    const { outgoing } = laptop.round([]);
    expect(outgoing.filter((c) => c.type === 'message').map((c) => c.type === 'message' && c.message.id)).toEqual(['m1']);
    expect(outgoing.filter((c) => c.type === 'field').map((c) => c.type === 'field' && `${c.id}.${c.field}`).sort()).toEqual(['c1.createdAt', 'c1.model', 'c1.profileId', 'c1.surface', 'c1.title', 'c1.updatedAt']);
    expect(laptop.round([]).outgoing).toEqual([]);
    laptop.local = { conversations: [{ ...conversation('c1', 'Trip to Kyoto'), pinned: true }, conversation('c2', 'Busy')], messages: laptop.local.messages.map((m) => (m.id === 'm3' ? { ...m, status: 'complete' as const } : m)) };
    const next = laptop.round([]).outgoing;
    expect(next.map((c) => (c.type === 'field' ? `${c.id}.${c.field}` : c.type === 'message' ? c.message.id : c.type)).sort()).toEqual(['c1.pinned', 'c1.title', 'c2.createdAt', 'c2.model', 'c2.profileId', 'c2.surface', 'c2.title', 'c2.updatedAt', 'm2', 'm3']);
  });

  it('carries a question\'s attached files to the other device, through the segment format, as they were (issue 32)', () => {
    const files: Message['files'] = [{ id: 'f1', name: 'report.pdf', kind: 'pdf', type: 'application/pdf', size: 3841, pages: 3, lines: 4, tokens: 12, text: '[Page 1]\nfirst\n\n[Page 2]\nsecond' }];
    const asked = { ...message('m1', 'c1', 1), files };
    const desktop = new Device({ conversations: [conversation('c1', 'Report')], messages: [asked] }, new HybridClock('desktop1'));
    const laptop = new Device({ conversations: [], messages: [] }, new HybridClock('laptop01'));
    // As a segment travels: written as JSON, read back through its schema.
    const sent = desktop.round([]).outgoing.map((c) => ChangeSchema.parse(JSON.parse(JSON.stringify(c))));
    laptop.round(sent);
    expect(laptop.local.messages).toEqual([asked]);
  });

  it('leaves a conversation streaming here as it is until its reply ends: what arrived for it is applied after', () => {
    const desktop = new Device({ conversations: [conversation('c1', 'Trip')], messages: [message('m1', 'c1', 1)] }, new HybridClock('desktop1'));
    const laptop = new Device({ conversations: [], messages: [] }, new HybridClock('laptop01'));
    laptop.round(desktop.round([]).outgoing);
    // The laptop is streaming a reply in c1 when the desktop's rename arrives.
    laptop.local = { ...laptop.local, messages: [...laptop.local.messages, message('m2', 'c1', 2, 'streaming')] };
    desktop.local = { ...desktop.local, conversations: [conversation('c1', 'Renamed on the desktop')] };
    desktop.local = { ...desktop.local, messages: [...desktop.local.messages, message('d2', 'c1', 2)] };
    const rename = desktop.round([]).outgoing;
    const during = laptop.round(rename).updates;
    expect(during.putConversations).toEqual([]);
    expect(during.deferred).toEqual(['c1']);
    // A turn from elsewhere is written at once: a version beside the reply that streams.
    expect(during.putMessages.map((m) => m.id)).toEqual(['d2']);
    laptop.local = { ...laptop.local, messages: laptop.local.messages.map((m) => (m.id === 'm2' ? { ...m, status: 'complete' as const } : m)) };
    const after = laptop.round([]);
    expect(after.updates.putConversations.map((c) => c.title)).toEqual(['Renamed on the desktop']);
    expect(after.outgoing.filter((c) => c.type === 'message').map((c) => c.type === 'message' && c.message.id)).toEqual(['m2']);
  });

  it('brings another device\'s conversations in whole, and a deletion made here out to it', () => {
    const laptop = new Device({ conversations: [conversation('c1', 'Trip'), conversation('c2', 'Old')], messages: [message('m1', 'c1', 1), message('m3', 'c2', 1)] }, new HybridClock('laptop01'));
    const desktop = new Device({ conversations: [], messages: [] }, new HybridClock('desktop1'));
    const sent = laptop.round([]).outgoing;
    const { updates } = desktop.round(sent);
    expect(updates.putConversations.map((c) => c.title).sort()).toEqual(['Old', 'Trip']);
    expect(desktop.local.messages.map((m) => m.id).sort()).toEqual(['m1', 'm3']);
    // The desktop deletes c2: its next round says so, and the laptop's database loses it.
    desktop.local = { conversations: desktop.local.conversations.filter((c) => c.id !== 'c2'), messages: desktop.local.messages.filter((m) => m.conversationId !== 'c2') };
    desktop.deletedHere = ['c2'];
    const deletion = desktop.round([]).outgoing;
    expect(deletion).toEqual([expect.objectContaining({ type: 'delete', kind: 'conversation', id: 'c2' })]);
    const back = laptop.round(deletion);
    expect(back.updates.deleteConversations).toEqual(['c2']);
    expect(laptop.local.conversations.map((c) => c.id)).toEqual(['c1']);
    expect(back.outgoing).toEqual([]);
  });

  it('leaves a conversation out until its fields have arrived (its messages came first), and does not take its absence for a deletion', () => {
    const desktop = new Device({ conversations: [], messages: [] }, new HybridClock('desktop1'));
    const { updates } = desktop.round([{ type: 'message', stamp: new HybridClock('laptop01').tick(), message: message('m9', 'c9', 1) }]);
    expect(updates.putConversations).toEqual([]);
    expect(updates.putMessages.map((m) => m.id)).toEqual(['m9']);
    expect(desktop.round([]).outgoing).toEqual([]);
  });

  it('keeps an edit made here since the last round, rather than the older merged value', () => {
    const laptop = new Device({ conversations: [conversation('c1', 'Trip')], messages: [] }, new HybridClock('laptop01'));
    laptop.round([]);
    laptop.local = { conversations: [conversation('c1', 'Trip to Kyoto')], messages: [] };
    laptop.round([]);
    expect(laptop.local.conversations[0]!.title).toBe('Trip to Kyoto');
  });
});

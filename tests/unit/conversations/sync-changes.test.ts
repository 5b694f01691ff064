import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '@/lib/conversations/store';

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 50));

describe('the store tells sync when something it carries changed', () => {
  it('calls back on a turn, a rename, a pin, a reply finishing and a deletion, not on the first read', async () => {
    const store = new ConversationStore('sync-changes');
    await store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'popup', title: 'One' });
    let calls = 0;
    const stop = store.watchSyncChanges(() => calls++, (error) => {
      throw error;
    });
    await settle();
    expect(calls).toBe(0);
    const expectCall = async (change: () => Promise<unknown>): Promise<void> => {
      const before = calls;
      await change();
      await settle();
      expect(calls).toBeGreaterThan(before);
    };
    await expectCall(() => store.renameConversation('c1', 'Renamed'));
    await expectCall(() => store.setPinned('c1', true));
    const conversation = (await store.getConversation('c1'))!;
    await expectCall(() => store.addTurn({ conversation, created: false, messages: [
      { id: 'u1', conversationId: 'c1', parentId: null, seq: 1, role: 'user', text: 'hi', reasoning: '', status: 'complete', createdAt: 1 },
      { id: 'a1', conversationId: 'c1', parentId: 'u1', seq: 2, role: 'assistant', text: '', reasoning: '', status: 'streaming', createdAt: 1 },
    ] }));
    await expectCall(() => store.updateMessage('a1', { text: 'hello', status: 'complete' }));
    await expectCall(() => store.deleteConversation('c1'));
    stop();
    store.close();
  });

  it('a deletion from elsewhere is not applied to a conversation changed here while the round ran', async () => {
    const store = new ConversationStore('sync-delete-race');
    await store.createConversation({ id: 'd1', profileId: 'p', model: 'm', surface: 'popup', title: 'Busy here' });
    await store.createConversation({ id: 'd2', profileId: 'p', model: 'm', surface: 'popup', title: 'Untouched' });
    const readAs = (await store.syncRecords()).conversations;
    // A turn arrives here meanwhile (its conversation's record changes with it).
    await store.renameConversation('d1', 'Busy here, renamed meanwhile');
    await store.applySyncUpdates({ putConversations: [], putMessages: [], deleteConversations: ['d1', 'd2'] }, readAs);
    expect((await store.getConversation('d1'))?.title).toBe('Busy here, renamed meanwhile');
    expect(await store.getConversation('d2')).toBeUndefined();
    store.close();
  });
});

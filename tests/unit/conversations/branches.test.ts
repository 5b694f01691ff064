import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTree, currentBranch, legacyVersionId, versionInfo } from '@/lib/conversations/branches';
import type { Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { createGatewayClient } from '@/lib/gateway';
import { RunManager } from '@/lib/runs/run-manager';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

function msg(id: string, seq: number, role: Message['role'], extra: Partial<Message> = {}): Message {
  return { id, conversationId: 'c', seq, role, text: id, reasoning: '', status: 'complete', createdAt: seq, ...extra };
}

describe('the versions model (pure)', () => {
  it('messages saved before branching follow the one before them', () => {
    const tree = buildTree([msg('u1', 0, 'user'), msg('a1', 1, 'assistant'), msg('u2', 2, 'user'), msg('a2', 3, 'assistant')]);
    expect(currentBranch(tree).map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(versionInfo(tree, 'a2')).toEqual({ index: 1, count: 1 });
  });

  it('a regenerated reply is a second version; the branch follows the selected one and what came after it', () => {
    const messages = [
      msg('u1', 0, 'user', { parentId: null }), msg('a1', 1, 'assistant', { parentId: 'u1' }),
      msg('u2', 2, 'user', { parentId: 'a1' }), msg('a2', 3, 'assistant', { parentId: 'u2' }),
      msg('a1b', 4, 'assistant', { parentId: 'u1' }),
    ];
    const tree = buildTree(messages);
    // The newest message is shown by default: the second version of the first reply.
    expect(currentBranch(tree).map((m) => m.id)).toEqual(['u1', 'a1b']);
    expect(versionInfo(tree, 'a1b')).toEqual({ index: 2, count: 2, previous: 'a1' });
    // Choosing the first version brings back the conversation that followed it.
    expect(currentBranch(tree, 'a1').map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(versionInfo(tree, 'a1')).toEqual({ index: 1, count: 2, next: 'a1b' });
  });

  it('an edited question at the root is a version of the first message', () => {
    const tree = buildTree([
      msg('u1', 0, 'user', { parentId: null }), msg('a1', 1, 'assistant', { parentId: 'u1' }),
      msg('u1b', 2, 'user', { parentId: null }), msg('a1c', 3, 'assistant', { parentId: 'u1b' }),
    ]);
    expect(currentBranch(tree, 'u1b').map((m) => m.id)).toEqual(['u1b', 'a1c']);
    expect(versionInfo(tree, 'u1b')).toEqual({ index: 2, count: 2, previous: 'u1' });
    expect(currentBranch(tree, 'u1').map((m) => m.id)).toEqual(['u1', 'a1']);
  });

  it('a reply asked again before branching shows its inline earlier answers as versions', () => {
    const old = msg('a1', 1, 'assistant', { createdAt: 10, versions: [{ text: 'first try', reasoning: '', status: 'interrupted', createdAt: 5 }] });
    const tree = buildTree([msg('u1', 0, 'user'), old]);
    const earlier = legacyVersionId('a1', 0);
    expect(currentBranch(tree).map((m) => m.id)).toEqual(['u1', 'a1']);
    expect(versionInfo(tree, 'a1')).toEqual({ index: 2, count: 2, previous: earlier });
    expect(currentBranch(tree, earlier).map((m) => m.text)).toEqual(['u1', 'first try']);
  });

  it('a message whose parent is missing starts a branch of its own (never lost)', () => {
    const tree = buildTree([msg('u1', 0, 'user', { parentId: 'gone' }), msg('a1', 1, 'assistant', { parentId: 'u1' })]);
    expect(currentBranch(tree).map((m) => m.id)).toEqual(['u1', 'a1']);
  });
});

describe('versions, as the background makes them', () => {
  let gateway: ReferenceGateway;
  let store: ConversationStore;
  let settings: Settings;
  let n = 0;
  beforeAll(async () => {
    gateway = await startReferenceGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });
  beforeEach(() => {
    gateway.reset();
    store = new ConversationStore(`branches-${n++}`);
    settings = { ...defaultSettings(), chat: { systemPrompt: 'GLOBAL PROMPT' }, profiles: [{ id: 'p1', name: 'Ref', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat', defaultModel: 'echo-1', confirmedImageModels: [] }], activeProfileId: 'p1' };
  });
  const manager = (): RunManager => new RunManager({ store, loadSettings: async () => settings, clientFor: (p) => createGatewayClient({ baseUrl: p.baseUrl, siteUrl: p.siteUrl, apiKey: p.apiKey }) });
  const sent = (): { role: string; content: unknown }[][] => gateway.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => (r.body as { messages: { role: string; content: unknown }[] }).messages);
  const shown = async (id: string): Promise<string[]> => {
    const conversation = await store.getConversation(id);
    return currentBranch(buildTree(await store.messages(id)), conversation?.leafId).map((m) => m.text);
  };

  it('edit & resend: a version of the question with its own reply; the old one stays with its reply', async () => {
    const runs = manager();
    const first = await runs.start({ surface: 'chat', text: 'one' });
    await runs.whenIdle();
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'two' });
    await runs.whenIdle();
    const question = (await store.messages(first.conversationId)).find((m) => m.text === 'two')!;
    await runs.edit({ messageId: question.id, text: 'two, edited' });
    await runs.whenIdle();
    expect(await shown(first.conversationId)).toEqual(['one', 'Echo: one', 'two, edited', 'Echo: two, edited']);
    // What went to the gateway: the branch up to the edited question, not the old one.
    expect(sent().at(-1)?.map((m) => m.content)).toEqual(['GLOBAL PROMPT', 'one', 'Echo: one', 'two, edited']);
    // Switching back shows the first version and its reply; a new message continues from it.
    await store.selectVersion(first.conversationId, question.id);
    expect(await shown(first.conversationId)).toEqual(['one', 'Echo: one', 'two', 'Echo: two']);
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'three' });
    await runs.whenIdle();
    expect(sent().at(-1)?.map((m) => m.content)).toEqual(['GLOBAL PROMPT', 'one', 'Echo: one', 'two', 'Echo: two', 'three']);
    expect(await shown(first.conversationId)).toEqual(['one', 'Echo: one', 'two', 'Echo: two', 'three', 'Echo: three']);
  });

  it('regenerating a reply in the middle sends only the branch above it', async () => {
    const runs = manager();
    const first = await runs.start({ surface: 'chat', text: 'one' });
    await runs.whenIdle();
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'two' });
    await runs.whenIdle();
    const again = await runs.retry(first.messageId, { model: 'echo-2' });
    await runs.whenIdle();
    expect(sent().at(-1)?.map((m) => m.content)).toEqual(['GLOBAL PROMPT', 'one']);
    expect(await shown(first.conversationId)).toEqual(['one', (await store.getMessage(again.messageId))!.text]);
    const tree = buildTree(await store.messages(first.conversationId));
    expect(versionInfo(tree, again.messageId)).toMatchObject({ index: 2, count: 2 });
  });

  it("a conversation's own system prompt and parameters reach the gateway; another keeps the global ones", async () => {
    const runs = manager();
    const mine = await runs.start({ surface: 'chat', text: 'hello' });
    await runs.whenIdle();
    await store.setConversationSettings(mine.conversationId, { systemPrompt: 'YOU ARE A PIRATE', temperature: 0.2, maxTokens: 50 });
    await runs.start({ surface: 'chat', conversationId: mine.conversationId, text: 'again' });
    await runs.start({ surface: 'chat', text: 'other conversation' });
    await runs.whenIdle();
    const bodies = gateway.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { messages: { content: string }[]; temperature?: number; max_tokens?: number });
    const pirate = bodies.find((b) => b.messages.some((m) => m.content === 'again'))!;
    expect(pirate.messages[0]?.content).toBe('YOU ARE A PIRATE');
    expect(pirate).toMatchObject({ temperature: 0.2, max_tokens: 50 });
    const other = bodies.find((b) => b.messages.some((m) => m.content === 'other conversation'))!;
    expect(other.messages[0]?.content).toBe('GLOBAL PROMPT');
    expect(other.temperature).toBeUndefined();
  });

  it('a reply records its time to first token and its duration', async () => {
    const runs = manager();
    const { messageId } = await runs.start({ surface: 'chat', text: 'time me' });
    await runs.whenIdle();
    const timing = (await store.getMessage(messageId))?.timing;
    expect(timing?.firstTokenMs).toBeGreaterThanOrEqual(0);
    expect(timing?.durationMs).toBeGreaterThanOrEqual(timing?.firstTokenMs ?? 0);
  });

  it('deleting a pair keeps what followed it, and Undo puts it back', async () => {
    const runs = manager();
    const first = await runs.start({ surface: 'chat', text: 'one' });
    await runs.whenIdle();
    const second = await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'two' });
    await runs.whenIdle();
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'three' });
    await runs.whenIdle();
    const question = (await store.getMessage(second.messageId))!.parentId!;
    const removed = await store.deletePair(question, second.messageId);
    expect(await shown(first.conversationId)).toEqual(['one', 'Echo: one', 'three', 'Echo: three']);
    await store.restorePair(removed!);
    expect(await shown(first.conversationId)).toEqual(['one', 'Echo: one', 'two', 'Echo: two', 'three', 'Echo: three']);
  });
});

import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTree, currentBranch, versionInfo } from '@/lib/conversations/branches';
import type { Conversation, Message } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { conversationMarkdown, exportHistory, HISTORY_FORMAT, parseHistory } from '@/lib/transfer/history-file';
import { runImport } from '@/lib/transfer/run-import';
import type { Profile } from '@/lib/settings/schema';

const KEY = 'sk-live-0123456789abcdefghijklmnop';
const profile: Profile = { id: 'p1', name: 'Home', siteUrl: 'https://gw.example.com', baseUrl: 'https://gw.example.com/v1', apiKey: KEY, apiStyle: 'chat', confirmedImageModels: [] };

const conversation = (id: string, updatedAt: number, extra: Partial<Conversation> = {}): Conversation => ({ id, title: `Title ${id}`, createdAt: 1, updatedAt, profileId: 'p1', model: 'm', surface: 'chat', ...extra });
const message = (conversationId: string, seq: number, extra: Partial<Message> = {}): Message => ({
  id: `${conversationId}-${seq}`, conversationId, seq, role: seq % 2 === 0 ? 'user' : 'assistant', parentId: seq === 0 ? null : `${conversationId}-${seq - 1}`, text: `text ${seq}`, reasoning: '', status: 'complete', createdAt: seq, ...extra,
});
const failed = (conversationId: string, seq: number): Message => message(conversationId, seq, {
  status: 'error', text: '',
  error: { kind: 'invalid_key', url: 'https://gw.example.com/v1/chat/completions', siteUrl: 'https://gw.example.com', status: 401, links: [{ id: 'keys', url: 'https://gw.example.com/console/token' }], detail: { code: 'redirected', params: { location: 'https://gw.example.com/login' } } },
});

let n = 0;
async function seeded(): Promise<ConversationStore> {
  const store = new ConversationStore(`transfer-${n++}`);
  await store.importConversations([
    { conversation: conversation('a', 10, { leafId: 'a-2', settings: { systemPrompt: 'Be brief' } }), messages: [message('a', 0), message('a', 1), message('a', 2, { role: 'assistant', parentId: 'a-0', text: 'second version' })] },
    { conversation: conversation('b', 20), messages: [message('b', 0), failed('b', 1)] },
  ]);
  return store;
}

describe('our history file', () => {
  it('export → clear → import gives back every record byte for byte, versions included', async () => {
    const store = await seeded();
    const before = await store.exportRaw();
    const file = exportHistory(before, { includeProfiles: true, profiles: [profile] });
    await store.clearAll();
    expect(await store.listConversations()).toEqual([]);
    const result = await runImport(file, store, { profileId: 'p1' });
    expect(result).toMatchObject({ ok: true, source: 'gateway_chat', written: 2, skipped: [] });
    expect(JSON.stringify(await store.exportRaw())).toBe(JSON.stringify(before));
  });

  it('never holds a key; without profiles, no address either', async () => {
    const store = await seeded();
    const raw = await store.exportRaw();
    const withProfiles = exportHistory(raw, { includeProfiles: true, profiles: [profile] });
    expect(withProfiles).not.toContain(KEY);
    expect(JSON.parse(withProfiles).profiles).toEqual([{ id: 'p1', name: 'Home', siteUrl: 'https://gw.example.com', baseUrl: 'https://gw.example.com/v1', apiStyle: 'chat' }]);
    const plain = exportHistory(raw, { includeProfiles: false, profiles: [profile] });
    expect(plain).not.toContain(KEY);
    expect(plain).not.toContain('gw.example.com');
    expect(JSON.parse(plain)).not.toHaveProperty('profiles');
    // The error is still there, as a kind and status.
    const parsed = parseHistory(plain, { profileId: 'p1' });
    expect(parsed.ok && parsed.conversations.find((c) => c.conversation.id === 'b')?.messages[1]?.error).toMatchObject({ kind: 'invalid_key', status: 401, url: '' });
  });

  it('merges by id: a newer copy replaces, an older one is skipped, never a second copy', async () => {
    const store = await seeded();
    const newer = exportHistory([{ conversation: conversation('a', 99, { title: 'Renamed later' }), messages: [message('a', 0)] }, { conversation: conversation('b', 5), messages: [message('b', 0)] }], { includeProfiles: false, profiles: [] });
    const result = await runImport(newer, store, { profileId: 'p1' });
    expect(result).toMatchObject({ ok: true, written: 1, olderSkipped: 1 });
    const list = await store.listConversations();
    expect(list.map((c) => [c.id, c.title])).toEqual([['a', 'Renamed later'], ['b', 'Title b']]);
    expect(await store.messages('a')).toHaveLength(1);
    expect(await store.messages('b')).toHaveLength(2);
  });

  it('reports each record it skipped and why, and imports the rest', async () => {
    const store = new ConversationStore(`transfer-${n++}`);
    const file = JSON.stringify({
      format: HISTORY_FORMAT, version: 1, exportedAt: 1,
      conversations: [
        { conversation: conversation('ok', 1), messages: [message('ok', 0)] },
        { conversation: { id: 'bad', title: 3 }, messages: [] },
        { conversation: conversation('half', 1), messages: [message('half', 0), { id: 'x', role: 'robot' }] },
      ],
    });
    const result = await runImport(file, store, { profileId: 'p1' });
    expect(result).toMatchObject({ ok: true, written: 1, skipped: [{ conversation: 'bad', reason: 'conversation_damaged', path: 'title' }, { conversation: 'half', reason: 'message_damaged' }] });
  });

  it('a malformed file, a foreign one, or one from a newer version is refused whole and changes nothing', async () => {
    const store = await seeded();
    const before = JSON.stringify(await store.exportRaw());
    expect(await runImport('{"format": "gateway-chat-history", "version": 1, "conv', store, { profileId: 'p1' })).toMatchObject({ ok: false, problem: 'not_json' });
    expect(await runImport('{"hello": 1}', store, { profileId: 'p1' })).toMatchObject({ ok: false, problem: 'unknown_format' });
    expect(await runImport(JSON.stringify({ format: HISTORY_FORMAT, version: 7 }), store, { profileId: 'p1' })).toMatchObject({ ok: false, problem: 'newer_version', params: { version: 7, supported: 1 } });
    expect(await runImport(JSON.stringify({ format: HISTORY_FORMAT, version: 1, exportedAt: 1, conversations: 'no' }), store, { profileId: 'p1' })).toMatchObject({ ok: false, problem: 'damaged', params: { path: 'conversations' } });
    expect(JSON.stringify(await store.exportRaw())).toBe(before);
  });

  it('reads records saved by older builds (inline versions, English error sentences) as today\'s', () => {
    const old = {
      id: 'o-1', conversationId: 'o', seq: 1, role: 'assistant', text: 'again', reasoning: '', status: 'complete', createdAt: 2,
      versions: [{ text: 'first', reasoning: '', status: 'error', createdAt: 1, error: { kind: 'invalid_key', url: 'u', message: 'Key rejected', remedy: { text: 'Check it', links: [{ label: 'Keys page', url: 'k' }] } } }],
    };
    const parsed = parseHistory(JSON.stringify({ format: HISTORY_FORMAT, version: 1, exportedAt: 1, conversations: [{ conversation: conversation('o', 1), messages: [message('o', 0, { parentId: undefined }), old] }] }), { profileId: 'p1' });
    expect(parsed.ok).toBe(true);
    const messages = parsed.ok ? parsed.conversations[0]!.messages : [];
    expect(messages[1]?.versions?.[0]?.error).toEqual({ kind: 'invalid_key', url: 'u', siteUrl: 'u', links: [{ id: 'keys', url: 'k' }] });
    const tree = buildTree(messages);
    expect(versionInfo(tree, 'o-1')).toMatchObject({ index: 2, count: 2 });
  });

  it('a reply a later build saved, with an error kind or detail this build does not know, is read with its text (the error as a plain gateway failure)', () => {
    const later = message('l', 1, {
      status: 'error', text: 'what came before',
      error: { kind: 'a_later_kind' as 'server', url: 'u', siteUrl: 's', gatewayMessage: 'said', links: [], detail: { code: 'a_later_detail' as 'internal', params: { x: 1 } } },
    });
    const parsed = parseHistory(JSON.stringify({ format: HISTORY_FORMAT, version: 1, exportedAt: 1, conversations: [{ conversation: conversation('l', 1), messages: [message('l', 0), later] }] }), { profileId: 'p1' });
    expect(parsed).toMatchObject({ ok: true, skipped: [] });
    const read = parsed.ok ? parsed.conversations[0]!.messages[1] : undefined;
    expect(read).toMatchObject({ text: 'what came before', status: 'error', error: { kind: 'server', gatewayMessage: 'said' } });
    expect(read?.error?.detail).toBeUndefined();
  });

  it('a reply the model\'s filter blocked goes out and comes back as it was', async () => {
    const store = new ConversationStore(`transfer-${n++}`);
    const blocked = message('f', 1, {
      status: 'error', text: 'the text before the block',
      error: { kind: 'content_blocked', url: 'u', siteUrl: 's', links: [{ id: 'catalogue', url: 's/models' }], detail: { code: 'reply_blocked', params: { reason: 'safety', category: 'dangerous' } } },
    });
    await store.importConversations([{ conversation: conversation('f', 1), messages: [message('f', 0), blocked] }]);
    const file = exportHistory(await store.exportRaw(), { includeProfiles: true, profiles: [profile] });
    const parsed = parseHistory(file, { profileId: 'p1' });
    expect(parsed.ok ? parsed.conversations[0]!.messages[1] : undefined).toEqual(blocked);
  });
});

describe("ChatGPT's export", () => {
  const text = readFileSync(new URL('../../fixtures/chatgpt/conversations.json', import.meta.url), 'utf8');

  it('flattens the tree along the current branch and keeps the other branches as versions', () => {
    const parsed = parseHistory(text, { profileId: 'p1' });
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(parsed.source).toBe('chatgpt');
    const sourdough = parsed.conversations.find((c) => c.conversation.title === 'Sourdough starter')!;
    expect(sourdough.conversation).toMatchObject({ id: 'chatgpt-6f1c2a4e-0000-4000-8000-000000000001', profileId: 'p1', createdAt: 1_700_000_000_500, updatedAt: 1_700_000_900_250, model: 'o3' });
    const tree = buildTree(sourdough.messages);
    const shown = currentBranch(tree, sourdough.conversation.leafId);
    expect(shown.map((m) => m.text)).toEqual(['How do I start a sourdough starter?', 'Combine flour and water, then wait.', 'What flour is best?', 'Whole rye gets it going fastest.']);
    // The system message and the tool output are left out; the branches stay, as versions.
    expect(sourdough.messages).toHaveLength(9);
    expect(versionInfo(tree, shown[1]!.id)).toMatchObject({ index: 2, count: 2 });
    expect(versionInfo(tree, shown[2]!.id)).toMatchObject({ index: 1, count: 2 });
    expect(currentBranch(tree, versionInfo(tree, shown[1]!.id).previous).map((m) => m.text)).toEqual(['How do I start a sourdough starter?', 'Mix equal parts flour and water.', 'How often do I feed it?', 'Once a day, discarding half.']);
    expect(shown[3]?.model).toBe('o3');
  });

  it('keeps Chinese text and code content; skips conversations with nothing to show, saying why', () => {
    const parsed = parseHistory(text, { profileId: 'p1' });
    if (!parsed.ok) throw new Error(parsed.problem);
    const poem = parsed.conversations.find((c) => c.conversation.title === '写一首关于猫的诗')!;
    expect(poem.messages.map((m) => m.text)).toEqual(['写一首关于猫的诗', '窗台上的猫，晒着午后的阳光。']);
    expect(parsed.skipped).toEqual([{ conversation: 'Only a system message', reason: 'no_messages' }, { conversation: 'Broken', reason: 'conversation_damaged', path: 'mapping' }]);
  });

  it('importing it twice never makes a second copy', async () => {
    const store = new ConversationStore(`transfer-${n++}`);
    await runImport(text, store, { profileId: 'p1' });
    await runImport(text, store, { profileId: 'p1' });
    expect(await store.listConversations()).toHaveLength(2);
  });
});

describe('one conversation as Markdown', () => {
  it('writes the shown branch with the words the page gives', () => {
    const md = conversationMarkdown(conversation('a', 1, { leafId: 'a-1' }), [message('a', 0), message('a', 1, { model: 'gpt-x' }), message('a', 2, { role: 'assistant', parentId: 'a-0', text: 'other' })], { user: 'You', assistant: 'Assistant' });
    expect(md).toBe('# Title a\n\n## You\n\ntext 0\n\n## Assistant (gpt-x)\n\ntext 1\n');
  });
});

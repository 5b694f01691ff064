import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient, type StreamEvent } from '@/lib/gateway';
import { ConversationStore } from '@/lib/conversations/store';
import { RunError, RunManager, type RunEvent } from '@/lib/runs/run-manager';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

let gateway: ReferenceGateway;
let store: ConversationStore;
let settings: Settings;
let dbCount = 0;

beforeAll(async () => {
  gateway = await startReferenceGateway();
});
afterAll(async () => {
  await gateway.close();
});
beforeEach(() => {
  gateway.reset();
  store = new ConversationStore(`test-${dbCount++}`);
  settings = {
    ...defaultSettings(),
    profiles: [{ id: 'p1', name: 'Reference', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat', defaultModel: 'echo-1', confirmedImageModels: [] }],
    activeProfileId: 'p1',
  };
});

function manager(overrides: Partial<ConstructorParameters<typeof RunManager>[0]> = {}): RunManager {
  return new RunManager({
    store,
    loadSettings: async () => settings,
    clientFor: (profile) => createGatewayClient({ baseUrl: profile.baseUrl, siteUrl: profile.siteUrl, apiKey: profile.apiKey }),
    ...overrides,
  });
}

function scripted(events: StreamEvent[]): GatewayClient {
  return {
    baseUrl: 'x', siteUrl: 'x',
    listModels: async () => [],
    async *streamChat() {
      for (const e of events) yield e;
    },
  };
}

/** A gateway whose reply never ends (the worker dies before it does). */
function neverEnding(): GatewayClient {
  return {
    baseUrl: 'x', siteUrl: 'x',
    listModels: async () => [],
    streamChat: () => ({ [Symbol.asyncIterator]: () => ({ next: () => new Promise<IteratorResult<StreamEvent>>(() => undefined) }) }),
  };
}

describe('RunManager', () => {
  it('streams a reply into a new conversation and saves it complete', async () => {
    const runs = manager();
    const events: RunEvent[] = [];
    const { conversationId, messageId } = await runs.start({ surface: 'popup', text: 'hello background' });
    runs.watch(conversationId, (e) => events.push(e));
    await runs.whenIdle();
    const messages = await store.messages(conversationId);
    expect(messages.map((m) => [m.role, m.text, m.status])).toEqual([
      ['user', 'hello background', 'complete'],
      ['assistant', 'Echo: hello background', 'complete'],
    ]);
    expect(messages[1]?.id).toBe(messageId);
    expect(messages[1]?.usage?.totalTokens).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'complete', finishReason: 'stop' });
    const conversation = await store.getConversation(conversationId);
    expect(conversation).toMatchObject({ title: 'hello background', model: 'echo-1', surface: 'popup', profileId: 'p1' });
  });

  it('a watcher that arrives mid-stream (the popup reopened) gets everything so far, then the rest', async () => {
    gateway.setPace({ delayMs: 5, chunkChars: 3 });
    const runs = manager();
    const { conversationId } = await runs.start({ surface: 'popup', text: 'a reply long enough to be caught in the middle of streaming' });
    await new Promise((r) => setTimeout(r, 60));
    let text = '';
    let first: RunEvent | undefined;
    runs.watch(conversationId, (e) => {
      first ??= e;
      if (e.type === 'snapshot') text = e.text;
      if (e.type === 'delta') text += e.text;
    });
    expect(first?.type).toBe('snapshot');
    await runs.whenIdle();
    expect(text).toBe('Echo: a reply long enough to be caught in the middle of streaming');
  });

  it('coalesces deltas: far fewer messages to watchers than chunks from the gateway', async () => {
    gateway.setPace({ delayMs: 0, chunkChars: 1 });
    const runs = manager({ flushIntervalMs: 20 });
    const { conversationId } = await runs.start({ surface: 'popup', text: 'x'.repeat(400) });
    const deltas: RunEvent[] = [];
    runs.watch(conversationId, (e) => {
      if (e.type === 'delta') deltas.push(e);
    });
    await runs.whenIdle();
    expect(deltas.length).toBeLessThan(100);
    expect(deltas.map((d) => (d.type === 'delta' ? d.text : '')).join('').length).toBeGreaterThan(0);
  });

  it('continues a conversation with its history', async () => {
    const runs = manager();
    const first = await runs.start({ surface: 'popup', text: 'one' });
    await runs.whenIdle();
    await runs.start({ surface: 'popup', conversationId: first.conversationId, text: 'two' });
    await runs.whenIdle();
    expect((await store.messages(first.conversationId)).map((m) => m.text)).toEqual(['one', 'Echo: one', 'two', 'Echo: two']);
  });

  it('stop keeps what arrived and marks the reply stopped', async () => {
    gateway.setPace({ delayMs: 10, chunkChars: 2 });
    const runs = manager();
    const { messageId } = await runs.start({ surface: 'popup', text: 'a long message that streams slowly enough to stop' });
    await new Promise((r) => setTimeout(r, 80));
    expect(runs.stop(messageId)).toBe(true);
    await runs.whenIdle();
    const message = await store.getMessage(messageId);
    expect(message?.status).toBe('stopped');
    expect(message?.text.length).toBeGreaterThan(0);
    expect('Echo: a long message that streams slowly enough to stop'.startsWith(message?.text ?? '?')).toBe(true);
  });

  it('a dropped connection keeps the text, marks it interrupted, and Retry completes it', async () => {
    gateway.setFault({ kind: 'drop', afterBytes: 600 });
    const runs = manager();
    const { messageId, conversationId } = await runs.start({ surface: 'popup', text: 'one two three four five six seven eight' });
    await runs.whenIdle();
    const cut = await store.getMessage(messageId);
    expect(cut?.status).toBe('interrupted');
    expect(cut?.text.length).toBeGreaterThan(0);
    expect(cut?.error?.kind).toBe('network');

    await runs.retry(messageId);
    await runs.whenIdle();
    const again = await store.getMessage(messageId);
    expect(again).toMatchObject({ status: 'complete', text: 'Echo: one two three four five six seven eight' });
    expect(again?.error).toBeUndefined();
    expect((await store.messages(conversationId))).toHaveLength(2);
  });

  it('an error before the stream is saved with its remedy', async () => {
    const runs = manager();
    const { messageId } = await runs.start({ surface: 'popup', model: 'gpt-9', text: 'hi' });
    await runs.whenIdle();
    const message = await store.getMessage(messageId);
    expect(message?.status).toBe('error');
    expect(message?.error).toMatchObject({ kind: 'model_not_found', remedy: { links: [{ label: 'Model catalogue', url: `${gateway.siteUrl}/models` }] } });
    expect(JSON.stringify(message)).not.toContain(gateway.demoKey);
  });

  it('reasoning moved out of the text is sent as a snapshot', async () => {
    const runs = manager({ clientFor: () => scripted([{ type: 'text', text: 'thinking…' }, { type: 'reasoning', text: '', movedFromText: true }, { type: 'text', text: 'Answer' }, { type: 'done', finishReason: 'stop' }]) });
    const { conversationId, messageId } = await runs.start({ surface: 'popup', text: 'q' });
    const events: RunEvent[] = [];
    runs.watch(conversationId, (e) => events.push(e));
    await runs.whenIdle();
    expect(await store.getMessage(messageId)).toMatchObject({ text: 'Answer', reasoning: 'thinking…', status: 'complete' });
  });

  it('a full disk: the watcher still gets the text and a clear message', async () => {
    const full = new ConversationStore(`full-${dbCount++}`);
    const quota = Object.assign(new Error('The quota has been exceeded.'), { name: 'QuotaExceededError' });
    full.updateMessage = async () => {
      throw quota;
    };
    const runs = manager({ store: full });
    const { conversationId } = await runs.start({ surface: 'popup', text: 'save me' });
    let text = '';
    let end: RunEvent | undefined;
    runs.watch(conversationId, (e) => {
      if (e.type === 'snapshot') text = e.text;
      if (e.type === 'delta') text += e.text;
      if (e.type === 'end') end = e;
    });
    await runs.whenIdle();
    expect(text).toBe('Echo: save me');
    expect(end).toMatchObject({ type: 'end', status: 'complete' });
    expect(end?.type === 'end' && end.saveError).toMatch(/storage for this extension is full/);
  });

  it('refuses clearly: no profile, no model, empty message, busy conversation', async () => {
    settings = defaultSettings();
    await expect(manager().start({ surface: 'popup', text: 'hi' })).rejects.toMatchObject({ problem: 'no_profile' });
    settings = { ...defaultSettings(), profiles: [{ id: 'p', name: 'x', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat', confirmedImageModels: [] }] };
    await expect(manager().start({ surface: 'popup', text: 'hi' })).rejects.toMatchObject({ problem: 'no_model' });
    await expect(manager().start({ surface: 'popup', text: '  ', model: 'echo-1' })).rejects.toBeInstanceOf(RunError);

    gateway.setPace({ delayMs: 20 });
    const runs = manager();
    const { conversationId } = await runs.start({ surface: 'popup', text: 'slow one', model: 'echo-1' });
    await expect(runs.start({ surface: 'popup', conversationId, text: 'again' })).rejects.toMatchObject({ problem: 'busy' });
    await runs.whenIdle();
  });

  it('after a worker restart, replies left streaming are marked interrupted', async () => {
    const runs = manager({ clientFor: () => neverEnding() });
    const { messageId } = await runs.start({ surface: 'popup', text: 'never ends' });
    expect((await store.getMessage(messageId))?.status).toBe('streaming');
    // A new worker: the old one's runs are gone.
    expect(await store.markStreamingInterrupted()).toBe(1);
    expect((await store.getMessage(messageId))?.status).toBe('interrupted');
  });

  it('a page that saw more than the dead worker saved keeps it; less never overwrites', async () => {
    const runs = manager({ clientFor: () => neverEnding() });
    const { messageId } = await runs.start({ surface: 'popup', text: 'q' });
    await store.updateMessage(messageId, { text: 'saved part' });
    expect(await store.keepInterruptedText(messageId, 'saved part and what the page saw', '')).toBe(true);
    expect(await store.getMessage(messageId)).toMatchObject({ text: 'saved part and what the page saw', status: 'interrupted' });
    expect(await store.keepInterruptedText(messageId, 'short', '')).toBe(false);
    expect((await store.getMessage(messageId))?.text).toBe('saved part and what the page saw');
    await store.updateMessage(messageId, { status: 'complete', text: 'final' });
    expect(await store.keepInterruptedText(messageId, 'a much longer but stale text', '')).toBe(false);
    expect(await store.getMessage(messageId)).toMatchObject({ text: 'final', status: 'complete' });
  });

  it('reports the number of active runs (the background keeps itself alive meanwhile)', async () => {
    const counts: number[] = [];
    const runs = manager({ onActiveRunsChange: (n) => counts.push(n) });
    await runs.start({ surface: 'popup', text: 'hi' });
    await runs.whenIdle();
    expect(counts).toEqual([1, 0]);
  });
});

describe('ConversationStore', () => {
  it('lists newest first, renames, deletes with everything needed to undo', async () => {
    const runs = manager();
    const a = await runs.start({ surface: 'popup', text: 'first' });
    await runs.whenIdle();
    const b = await runs.start({ surface: 'sidepanel', text: 'second' });
    await runs.whenIdle();
    expect((await store.listConversations()).map((c) => c.title)).toEqual(['second', 'first']);
    await store.renameConversation(a.conversationId, '  Renamed  ');
    expect((await store.getConversation(a.conversationId))?.title).toBe('Renamed');
    const deleted = await store.deleteConversation(b.conversationId);
    expect(deleted?.messages).toHaveLength(2);
    expect(await store.messages(b.conversationId)).toEqual([]);
    expect((await store.listConversations()).map((c) => c.id)).toEqual([a.conversationId]);
    await store.restoreConversation(deleted!);
    expect((await store.messages(b.conversationId)).map((m) => m.text)).toEqual(['second', 'Echo: second']);
    expect(await store.listConversations()).toHaveLength(2);
  });
});

describe('retry with another model', () => {
  it('after "model does not exist", Retry with another model answers and the conversation keeps it', async () => {
    const runs = manager();
    const { messageId, conversationId } = await runs.start({ surface: 'sidepanel', model: 'gpt-9', text: 'hi' });
    await runs.whenIdle();
    expect((await store.getMessage(messageId))?.error?.kind).toBe('model_not_found');
    await runs.retry(messageId, { model: 'echo-1' });
    await runs.whenIdle();
    expect(await store.getMessage(messageId)).toMatchObject({ status: 'complete', text: 'Echo: hi', model: 'echo-1' });
    expect((await store.getConversation(conversationId))?.model).toBe('echo-1');
  });
});

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient, type StreamEvent } from '@/lib/gateway';
import { ConversationStore } from '@/lib/conversations/store';
import { RunError, RunManager, type RunEvent } from '@/lib/runs/run-manager';
import { defaultSettings, type Profile, type Settings } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';
import { UNSERVED_FOR_MS, unservedAt, withUnserved, type UnservedRoutes } from '@/lib/settings/unserved-routes';
import { NO_AUDIO, NO_IMAGES } from '../gateway/no-images';
import type { AttachedFile } from '@/lib/files/types';

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
function profile(id: string, extra: Partial<Profile> = {}): Profile {
  return { id, name: id === 'p1' ? 'Reference' : id, siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat', defaultModel: 'echo-1', confirmedImageModels: [], ...extra };
}

beforeEach(() => {
  gateway.reset();
  store = new ConversationStore(`test-${dbCount++}`);
  settings = { ...defaultSettings(), profiles: [profile('p1')], activeProfileId: 'p1' };
});

const chatRequests = () => gateway.requests.filter((r) => r.path === '/v1/chat/completions');

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
    listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
    async *streamChat() {
      for (const e of events) yield e;
    },
  };
}

/** A gateway whose reply never ends (the worker dies before it does). */
function neverEnding(): GatewayClient {
  return {
    baseUrl: 'x', siteUrl: 'x',
    listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
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

  it('a conversation started from a preset keeps its prompt, parameters and model as its own; an action can use one', async () => {
    settings = {
      ...settings,
      presets: [{ id: 'fr', name: 'French', systemPrompt: 'Answer in French.', temperature: 0.3, maxTokens: 200, model: 'summarise-1' }],
      actions: settings.actions.map((a) => (a.id === settings.actions[0]!.id ? { ...a, presetId: 'fr', model: undefined } : a)),
    };
    const runs = manager();
    const started = await runs.start({ surface: 'chat', text: 'hello', presetId: 'fr' });
    await runs.whenIdle();
    const conversation = await store.getConversation(started.conversationId);
    expect(conversation?.model).toBe('summarise-1');
    expect(conversation?.settings).toEqual({ systemPrompt: 'Answer in French.', temperature: 0.3, maxTokens: 200, presetId: 'fr' });
    const body = chatRequests().at(-1)?.body as { model: string; temperature?: number; max_tokens?: number; messages: { role: string; content: unknown }[] };
    expect(body.model).toBe('summarise-1');
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(200);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Answer in French.' });
    // Changing the preset later does not change a conversation started from it.
    settings = { ...settings, presets: [{ ...settings.presets[0]!, systemPrompt: 'Answer in German.' }] };
    await runs.start({ surface: 'chat', conversationId: started.conversationId, text: 'again' });
    await runs.whenIdle();
    expect((chatRequests().at(-1)?.body as typeof body).messages[0]).toEqual({ role: 'system', content: 'Answer in French.' });
    // A preset deleted meanwhile is not used: the global settings are.
    const gone = await runs.start({ surface: 'chat', text: 'hi', presetId: 'deleted' });
    await runs.whenIdle();
    expect((await store.getConversation(gone.conversationId))?.settings).toBeUndefined();
    expect((chatRequests().at(-1)?.body as typeof body).model).toBe('echo-1');
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

    const retried = await runs.retry(messageId);
    await runs.whenIdle();
    const again = await store.getMessage(retried.messageId);
    expect(again).toMatchObject({ status: 'complete', text: 'Echo: one two three four five six seven eight', parentId: cut?.parentId ?? 'none' });
    expect(again?.error).toBeUndefined();
    // The cut reply stays, as the first version; the conversation shows the new one.
    expect(await store.getMessage(messageId)).toMatchObject({ status: 'interrupted', text: cut?.text });
    expect((await store.messages(conversationId))).toHaveLength(3);
    expect((await store.getConversation(conversationId))?.leafId).toBe(retried.messageId);
  });

  it('an error before the stream is saved with its remedy', async () => {
    const runs = manager();
    const { messageId } = await runs.start({ surface: 'popup', model: 'gpt-9', text: 'hi' });
    await runs.whenIdle();
    const message = await store.getMessage(messageId);
    expect(message?.status).toBe('error');
    expect(message?.error).toMatchObject({ kind: 'model_not_found', links: [{ id: 'catalogue', url: `${gateway.siteUrl}/models` }] });
    expect(message?.error).not.toHaveProperty('message');
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
    expect(end?.type === 'end' && end.saveError).toEqual({ problem: 'quota' });
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
    const retried = await runs.retry(messageId, { model: 'echo-1' });
    await runs.whenIdle();
    expect(await store.getMessage(retried.messageId)).toMatchObject({ status: 'complete', text: 'Echo: hi', model: 'echo-1' });
    expect((await store.getConversation(conversationId))?.model).toBe('echo-1');
  });
});

// Issue 8: nothing lost, nothing charged twice, the key never follows a new address. Each case
// below failed on the main before the fix.

/** A client that counts calls and replies with the given events. */
function counting(events: StreamEvent[]): GatewayClient & { calls: number } {
  const client = {
    calls: 0,
    baseUrl: 'x', siteUrl: 'x',
    listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
    async *streamChat() {
      client.calls++;
      for (const e of events) yield e;
    },
  };
  return client;
}

describe('one run per reply', () => {
  it('two concurrent retries of one reply: one request, the other refused as busy', async () => {
    const runs = manager();
    const { messageId } = await runs.start({ surface: 'popup', text: 'first' });
    await runs.whenIdle();
    gateway.reset();
    const results = await Promise.allSettled([runs.retry(messageId), runs.retry(messageId)]);
    await runs.whenIdle();
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason instanceof RunError && refused.reason.problem).toBe('busy');
    expect(chatRequests()).toHaveLength(1);
  });

  it('two concurrent sends into one conversation (two surfaces): one request, unique seq', async () => {
    const runs = manager();
    const { conversationId } = await runs.start({ surface: 'popup', text: 'first' });
    await runs.whenIdle();
    gateway.reset();
    const results = await Promise.allSettled([
      runs.start({ surface: 'popup', conversationId, text: 'from the popup' }),
      runs.start({ surface: 'sidepanel', conversationId, text: 'from the panel' }),
    ]);
    await runs.whenIdle();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(chatRequests()).toHaveLength(1);
    const seqs = (await store.messages(conversationId)).map((m) => m.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('a retry racing a send in the same conversation: only one of them asks the gateway', async () => {
    const runs = manager();
    const { conversationId, messageId } = await runs.start({ surface: 'popup', text: 'first' });
    await runs.whenIdle();
    gateway.reset();
    const results = await Promise.allSettled([runs.retry(messageId), runs.start({ surface: 'popup', conversationId, text: 'second' })]);
    await runs.whenIdle();
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(chatRequests()).toHaveLength(1);
  });

  it('the keep-alive count never drops to 0 while a stream lives, and is 0 once all ended', async () => {
    // Streams that end when the test says so; `live` counts those still open.
    let live = 0;
    const enders: (() => void)[] = [];
    const client: GatewayClient = {
      baseUrl: 'x', siteUrl: 'x',
      listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
      async *streamChat() {
        live++;
        try {
          yield { type: 'text', text: 'part' };
          await new Promise<void>((resolve) => enders.push(resolve));
          yield { type: 'done' };
        } finally {
          live--;
        }
      },
    };
    const seen: { count: number; live: number }[] = [];
    const runs = manager({ clientFor: () => client, onActiveRunsChange: (count) => seen.push({ count, live }) });
    const endNext = async (): Promise<void> => {
      for (let i = 0; i < 100 && enders.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      enders.shift()?.();
      // Let that run end and report before the next one does.
      await new Promise((r) => setTimeout(r, 20));
    };
    const first = await runs.start({ surface: 'popup', text: 'first' });
    await endNext();
    await runs.whenIdle();
    // A double-clicked Retry.
    await Promise.allSettled([runs.retry(first.messageId), runs.retry(first.messageId)]);
    while (live > 0) await endNext();
    await runs.whenIdle();
    expect(seen.filter((s) => s.count === 0 && s.live > 0)).toEqual([]);
    expect(seen.at(-1)?.count).toBe(0);
    expect(live).toBe(0);
  });
});

describe('retry never destroys what was kept', () => {
  it('a retry that fails keeps the earlier text as a version', async () => {
    gateway.setFault({ kind: 'drop', afterBytes: 600 });
    const runs = manager();
    const { messageId } = await runs.start({ surface: 'popup', text: 'one two three four five six seven eight' });
    await runs.whenIdle();
    const cut = await store.getMessage(messageId);
    expect(cut?.status).toBe('interrupted');
    const kept = cut?.text ?? '';
    expect(kept.length).toBeGreaterThan(0);

    gateway.setFault({ kind: 'server-error' });
    const failed = await runs.retry(messageId);
    await runs.whenIdle();
    expect((await store.getMessage(failed.messageId))?.status).toBe('error');
    expect(await store.getMessage(messageId)).toMatchObject({ status: 'interrupted', text: kept });

    const done = await runs.retry(failed.messageId);
    await runs.whenIdle();
    const reply = await store.getMessage(done.messageId);
    expect(reply?.status).toBe('complete');
    expect(reply?.text).toBe('Echo: one two three four five six seven eight');
    // Three versions of the reply, under the same question, the first as it was.
    const all = await store.messages(reply!.conversationId);
    const question = all.find((m) => m.role === 'user')!;
    expect(all.filter((m) => m.role === 'assistant').map((m) => [m.parentId, m.status])).toEqual([[question.id, 'interrupted'], [question.id, 'error'], [question.id, 'complete']]);
    expect(await store.getMessage(messageId)).toMatchObject({ text: kept });
  });
});

describe('a conversation continues on its own profile', () => {
  it('sending in an old conversation uses its profile, not the active one', async () => {
    const used: string[] = [];
    settings = { ...settings, profiles: [profile('p1'), profile('p2', { apiKey: 'sk-other-gateway-key-0123456789' })], activeProfileId: 'p1' };
    const runs = manager({ clientFor: (p) => { used.push(p.id); return createGatewayClient({ baseUrl: p.baseUrl, apiKey: p.apiKey }); } });
    const { conversationId } = await runs.start({ surface: 'popup', text: 'on p1' });
    await runs.whenIdle();
    settings = { ...settings, activeProfileId: 'p2' };
    // A surface passing the active profile does not move the conversation.
    await runs.start({ surface: 'popup', conversationId, profileId: 'p2', text: 'still p1' });
    await runs.whenIdle();
    expect(used).toEqual(['p1', 'p1']);
    expect((await store.getConversation(conversationId))?.profileId).toBe('p1');
  });

  it('its profile deleted: refused as profile_gone, for send and retry; the user chooses another', async () => {
    settings = { ...settings, profiles: [profile('p1'), profile('p2')], activeProfileId: 'p1' };
    const runs = manager();
    const { conversationId, messageId } = await runs.start({ surface: 'popup', text: 'on p1' });
    await runs.whenIdle();
    settings = { ...settings, profiles: [profile('p2')], activeProfileId: 'p2' };
    gateway.reset();
    await expect(runs.start({ surface: 'popup', conversationId, text: 'more' })).rejects.toMatchObject({ problem: 'profile_gone' });
    await expect(runs.retry(messageId)).rejects.toMatchObject({ problem: 'profile_gone' });
    expect(chatRequests()).toHaveLength(0);
    await runs.start({ surface: 'popup', conversationId, switchProfileId: 'p2', text: 'more' });
    await runs.whenIdle();
    expect((await store.getConversation(conversationId))?.profileId).toBe('p2');
    expect(chatRequests()).toHaveLength(1);
  });
});

describe('a new conversation for a profile deleted meanwhile', () => {
  it('is refused as profile_missing (there is no conversation to move yet)', async () => {
    const runs = manager();
    await expect(runs.start({ surface: 'popup', profileId: 'gone', text: 'hello' })).rejects.toMatchObject({ problem: 'profile_missing' });
    expect(chatRequests()).toHaveLength(0);
  });
});

describe('Retry-After', () => {
  it('a 429 stores when Retry may go; an earlier retry is refused with that time, a later one runs', async () => {
    let now = 1_000_000;
    const runs = manager({ now: () => now });
    gateway.setFault({ kind: 'rate-limit', retryAfter: 7 });
    const { messageId } = await runs.start({ surface: 'popup', text: 'hello' });
    await runs.whenIdle();
    const limited = await store.getMessage(messageId);
    expect(limited?.error).toMatchObject({ kind: 'rate_limited', retryAfter: 7, retryAt: 1_007_000 });
    gateway.reset();
    await expect(runs.retry(messageId)).rejects.toMatchObject({ problem: 'wait', params: { retryAt: 1_007_000 } });
    expect(chatRequests()).toHaveLength(0);
    now = 1_007_001;
    const retried = await runs.retry(messageId);
    await runs.whenIdle();
    expect((await store.getMessage(retried.messageId))?.status).toBe('complete');
  });
});

describe('deleting mid-reply', () => {
  it('stopConversation stops the run and resolves once its end is saved', async () => {
    gateway.setPace({ delayMs: 10, chunkChars: 2 });
    const runs = manager();
    const { conversationId, messageId } = await runs.start({ surface: 'popup', text: 'a long message that streams slowly enough to stop' });
    await new Promise((r) => setTimeout(r, 80));
    await expect(runs.stopConversation(conversationId)).resolves.toBe(true);
    expect(runs.activeCount).toBe(0);
    const saved = await store.getMessage(messageId);
    expect(saved?.status).toBe('stopped');
    const deleted = await store.deleteConversation(conversationId);
    expect(deleted?.messages.find((m) => m.id === messageId)?.text).toBe(saved?.text);
  });

  it('Undo of a conversation deleted while streaming brings the reply back interrupted, not streaming', async () => {
    const conversation = await store.createConversation({ profileId: 'p1', model: 'echo-1', surface: 'popup', title: 't' });
    await store.addMessage({ id: 'u', conversationId: conversation.id, seq: 0, role: 'user', text: 'q', reasoning: '', status: 'complete', createdAt: 1 });
    await store.addMessage({ id: 'a', conversationId: conversation.id, seq: 1, role: 'assistant', text: 'part', reasoning: '', status: 'streaming', createdAt: 1 });
    const deleted = await store.deleteConversation(conversation.id);
    await store.restoreConversation(deleted!);
    expect(await store.getMessage('a')).toMatchObject({ status: 'interrupted', text: 'part' });
  });
});

describe('size limits on what users send', () => {
  it('an oversized message is refused with its numbers before anything is written or sent', async () => {
    const client = counting([{ type: 'done' }]);
    const runs = manager({ clientFor: () => client, messageLimits: { maxTextTokens: 100, maxImages: 2, maxImageBytes: 1000 } });
    await expect(runs.start({ surface: 'popup', text: 'word '.repeat(200) })).rejects.toMatchObject({ problem: 'text_too_long', params: { tokens: 250, limit: 100 } });
    await expect(runs.start({ surface: 'popup', text: 'x', images: ['data:a', 'data:b', 'data:c'] })).rejects.toMatchObject({ problem: 'too_many_images', params: { count: 3, limit: 2 } });
    await expect(runs.start({ surface: 'popup', text: 'x', images: [`data:${'a'.repeat(2000)}`] })).rejects.toMatchObject({ problem: 'images_too_large', params: { limit: 1000 } });
    expect(client.calls).toBe(0);
    expect(await store.listConversations()).toEqual([]);
  });
});

describe('attached files', () => {
  const file = (name: string, text: string, extra: Partial<AttachedFile> = {}): AttachedFile => ({ id: `f-${name}`, name, kind: 'text', type: 'text/plain', size: text.length, lines: text.split('\n').length, tokens: Math.ceil(text.length / 4), text, ...extra });
  const lastUser = () => (chatRequests().at(-1)?.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === 'user');

  it('are saved with the question and quoted after it in the request, on this turn and the next', async () => {
    const runs = manager();
    const report = file('report.pdf', '[Page 1]\nfirst\n\n[Page 2]\nMARKER-PAGE-2', { kind: 'pdf', pages: 2, type: 'application/pdf' });
    const { conversationId } = await runs.start({ surface: 'popup', text: 'Summarise', files: [report] });
    await runs.whenIdle();
    const [question] = await store.messages(conversationId);
    expect(question).toMatchObject({ role: 'user', text: 'Summarise', files: [report] });
    expect(lastUser()[0]!.content).toBe('Summarise\n\nAttached file "report.pdf" (2 pages):\n```text\n[Page 1]\nfirst\n\n[Page 2]\nMARKER-PAGE-2\n```');
    await runs.start({ surface: 'popup', conversationId, text: 'And page 2?' });
    await runs.whenIdle();
    // The history carries the file again, as the model saw it.
    expect(lastUser()[0]!.content).toContain('MARKER-PAGE-2');
    expect(lastUser()[1]!.content).toBe('And page 2?');
  });

  it('a PDF goes as itself to a model whose catalogue says it takes files, as its text to the others; it is saved as text only', async () => {
    const report = file('report.pdf', '[Page 1]\nMARKER', { kind: 'pdf', pages: 1, type: 'application/pdf', data: 'data:application/pdf;base64,JVBERi0xLjcK' });
    const takesFiles = (model: string) => ({ capabilities: { fileInput: model === 'gpt-4o' } });
    const runs = manager({ modelInfo: async (_profile, model) => takesFiles(model) });
    const { conversationId } = await runs.compare({ surface: 'chat', text: 'Summarise', files: [report], models: ['gpt-4o', 'echo-1'] });
    await runs.whenIdle();
    const sent = chatRequests().map((r) => r.body as { model: string; messages: { role: string; content: unknown }[] });
    const to = (model: string) => sent.find((b) => b.model === model)!.messages.at(-1)!.content;
    expect(to('gpt-4o')).toEqual([{ type: 'text', text: 'Summarise' }, { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjcK' } }]);
    expect(to('echo-1')).toBe('Summarise\n\nAttached file "report.pdf" (1 page):\n```text\n[Page 1]\nMARKER\n```');
    const [question] = await store.messages(conversationId);
    expect(question!.files).toEqual([{ ...report, data: undefined }].map(({ data: _d, ...f }) => f));
  });

  it('a question of files alone is sent; an edited question keeps its files', async () => {
    const runs = manager();
    const { conversationId } = await runs.start({ surface: 'popup', text: '', files: [file('a.txt', 'alpha')] });
    await runs.whenIdle();
    expect(lastUser()[0]!.content).toBe('Attached file "a.txt" (1 line):\n```text\nalpha\n```');
    const [question] = await store.messages(conversationId);
    await runs.edit({ messageId: question!.id, text: 'About a.txt' });
    await runs.whenIdle();
    expect(lastUser()[0]!.content).toBe('About a.txt\n\nAttached file "a.txt" (1 line):\n```text\nalpha\n```');
  });

  it('files over the message\'s token budget, with the text, are refused naming the largest, before anything is written', async () => {
    const client = counting([{ type: 'done' }]);
    const runs = manager({ clientFor: () => client, messageLimits: { maxTextTokens: 100, maxImages: 2, maxImageBytes: 1000 } });
    const files = [file('small.txt', 'x'.repeat(40)), file('big.csv', 'y'.repeat(360))];
    await expect(runs.start({ surface: 'popup', text: 'word '.repeat(8), files })).rejects.toMatchObject({ problem: 'files_too_long', params: { name: 'big.csv', tokens: 110, limit: 100, fits: 90 } });
    expect(client.calls).toBe(0);
    expect(await store.listConversations()).toEqual([]);
  });
});

describe('the key is in no saved text', () => {
  /** Every 8-character piece of the key. */
  const pieces = (key: string) => Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8));

  it.each([
    ['with the sk- prefix', 'sk-Zq8vR2mN5pL7xT4wK9yB3cD6fG1hJ0aE'],
    ['without a prefix', 'Zq8vR2mN5pL7xT4wK9yB3cD6fG1hJ0aEuu'],
  ])('%s: errors that echo it (whole, cut, inside a chunk) keep none of it', async (_name, key) => {
    const bodies = [
      // A 401 body quoting the key.
      new Response(JSON.stringify({ error: { message: `Invalid token ${key}`, type: 'invalid_request_error', code: '' } }), { status: 401, headers: { 'content-type': 'application/json' } }),
      // A 500 whose plain-text body quotes the key after 190 characters (cut at 200).
      new Response(`${'x'.repeat(190)} ${key} and more`, { status: 500, headers: { 'content-type': 'text/plain' } }),
      // A malformed chunk quoting the key after 110 characters (cut at 120).
      new Response(`data: {"choices":[{"delta":{"content":"hi"}}]}\n\ndata: {"oops": "${'y'.repeat(100)}${key}\n\n`, { headers: { 'content-type': 'text/event-stream' } }),
      // An in-stream error quoting the first half of the key.
      new Response(`data: {"error":{"message":"key ${key.slice(0, 16)}… exhausted","code":"quota"}}\n\n`, { headers: { 'content-type': 'text/event-stream' } }),
    ];
    settings = { ...settings, profiles: [profile('p1', { apiKey: key })] };
    const runs = manager({ clientFor: (p) => createGatewayClient({ baseUrl: p.baseUrl, apiKey: p.apiKey, fetch: async () => bodies.shift()! }) });
    const errors: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const { messageId } = await runs.start({ surface: 'popup', text: `ask ${i}` });
      await runs.whenIdle();
      errors.push((await store.getMessage(messageId))?.error);
    }
    expect(errors.every((e) => e !== undefined)).toBe(true);
    const saved = JSON.stringify(errors);
    for (const piece of pieces(key)) expect(saved).not.toContain(piece);
  });
});

describe('first words without waiting', () => {
  it('a watcher gets the run\'s new messages with its snapshot (no image bytes), and the first delta without the coalescing wait', async () => {
    gateway.setPace({ delayMs: 200, chunkChars: 4 });
    const runs = manager({ flushIntervalMs: 1_000 });
    const started = await runs.start({ surface: 'popup', model: 'vision-1', text: 'look', images: ['data:image/png;base64,AAAA'] });
    const events: { type: string; at: number; records?: number; images?: boolean }[] = [];
    const t0 = Date.now();
    runs.watch(started.conversationId, (e) => {
      events.push({ type: e.type, at: Date.now() - t0, ...(e.type === 'snapshot' && e.records !== undefined ? { records: e.records.length, images: e.records.some((m) => m.images !== undefined) } : {}) });
    });
    await runs.whenIdle();
    expect(events[0]).toMatchObject({ type: 'snapshot', records: 2, images: false });
    const firstDelta = events.find((e) => e.type === 'delta');
    // The gateway's first words come after its 200 ms pace; the 1 s coalescing did not hold them.
    expect(firstDelta?.at).toBeLessThan(900);
  });

  it('an event that brings no words before them does not use up the first words\' head start', async () => {
    // Fed by the test: an empty piece of text (as a held-back piece of an image reference leaves), then the words.
    let push: ((event: StreamEvent) => void) | undefined;
    const fed: GatewayClient = {
      baseUrl: 'x', siteUrl: 'x',
      listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
      async *streamChat() {
        const queue: StreamEvent[] = [];
        let wake: (() => void) | undefined;
        push = (event) => { queue.push(event); wake?.(); };
        for (;;) {
          while (queue.length === 0) await new Promise<void>((r) => { wake = r; });
          const event = queue.shift()!;
          yield event;
          if (event.type === 'done') return;
        }
      },
    };
    const runs = manager({ clientFor: () => fed, flushIntervalMs: 1_000 });
    const conversationId = 'first-words-after-nothing';
    const deltas: { text: string; at: number }[] = [];
    runs.watch(conversationId, (e) => {
      if (e.type === 'delta') deltas.push({ text: e.text, at: Date.now() });
    });
    await runs.start({ surface: 'popup', newConversationId: conversationId, text: 'hi' });
    while (push === undefined) await new Promise((r) => setTimeout(r, 5));
    push({ type: 'text', text: '' });
    await new Promise((r) => setTimeout(r, 50));
    const sentAt = Date.now();
    push({ type: 'text', text: 'Hello' });
    await new Promise((r) => setTimeout(r, 100));
    // Out at once, not after the 1 s coalescing interval.
    expect(deltas[0]?.text).toBe('Hello');
    expect(deltas[0]!.at - sentAt).toBeLessThan(100);
    push({ type: 'done' });
    await runs.whenIdle();
  });

  it('a page that watches a new conversation before it exists gets every event from the first, and its messages keep the ids the page chose', async () => {
    const runs = manager();
    const events: RunEvent[] = [];
    runs.watch('chosen-conversation', (e) => events.push(e));
    const started = await runs.start({ surface: 'popup', text: 'shown at once', newConversationId: 'chosen-conversation', userMessageId: 'chosen-user-message', replyMessageId: 'chosen-reply' });
    expect(started).toEqual({ conversationId: 'chosen-conversation', messageId: 'chosen-reply' });
    await runs.whenIdle();
    const messages = await store.messages('chosen-conversation');
    expect(messages[0]).toMatchObject({ id: 'chosen-user-message', role: 'user', text: 'shown at once' });
    expect(messages[1]).toMatchObject({ id: 'chosen-reply', role: 'assistant', text: 'Echo: shown at once', status: 'complete' });
    expect(events[0]).toMatchObject({ type: 'snapshot', text: '' });
    expect(events.filter((e) => e.type === 'delta').map((e) => (e.type === 'delta' ? e.text : '')).join('')).toBe('Echo: shown at once');
  });
});

describe('each model through its own interface', () => {
  const withCatalogue = () => manager({
    modelInfo: async (_profileId, model) => (await createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: gateway.demoKey }).listModels()).find((m) => m.id === model),
  });

  it('a model that prefers Anthropic\'s interface goes through /v1/messages; its signed thinking is kept and sent back with the next turn', async () => {
    const runs = withCatalogue();
    const first = await runs.start({ surface: 'sidepanel', text: 'first', model: 'claude-ref-1' });
    await runs.whenIdle();
    const reply = (await store.messages(first.conversationId))[1]!;
    expect(reply).toMatchObject({ text: 'Claude: first', reasoning: 'Considering 1 words.', status: 'complete' });
    expect(reply.reasoningSignature).toMatch(/.{20,}/);
    expect(gateway.requests.at(-1)).toMatchObject({ path: '/v1/messages', keyIn: 'x-api-key' });

    await runs.start({ surface: 'sidepanel', conversationId: first.conversationId, text: 'second' });
    await runs.whenIdle();
    const sent = gateway.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'thinking', thinking: 'Considering 1 words.', signature: reply.reasoningSignature }, { type: 'text', text: 'Claude: first' }] });
    expect((await store.messages(first.conversationId)).at(-1)).toMatchObject({ text: 'Claude: second', status: 'complete' });
  });

  it('a model that prefers Gemini\'s goes through streamGenerateContent; a Responses-only model works under a Chat profile', async () => {
    const runs = withCatalogue();
    const gemini = await runs.start({ surface: 'sidepanel', text: 'hello', model: 'gemini-ref-1' });
    await runs.whenIdle();
    expect(gateway.requests.at(-1)).toMatchObject({ path: '/v1beta/models/gemini-ref-1:streamGenerateContent', query: '?alt=sse', keyIn: 'x-goog-api-key' });
    expect((await store.messages(gemini.conversationId))[1]).toMatchObject({ text: 'Gemini: hello', reasoning: 'Thinking about: hello', status: 'complete' });

    const responses = await runs.start({ surface: 'sidepanel', text: 'hello', model: 'responses-only-1' });
    await runs.whenIdle();
    expect(gateway.requests.at(-1)?.path).toBe('/v1/responses');
    expect((await store.messages(responses.conversationId))[1]).toMatchObject({ text: 'Responses: hello', status: 'complete' });
  });

  it('a conversation\'s own choice of interface wins over the model\'s preferred one', async () => {
    const runs = withCatalogue();
    const first = await runs.start({ surface: 'sidepanel', text: 'one', model: 'claude-ref-1' });
    await runs.whenIdle();
    await store.setConversationSettings(first.conversationId, { apiStyle: 'chat' });
    await runs.start({ surface: 'sidepanel', conversationId: first.conversationId, text: 'two' });
    await runs.whenIdle();
    expect(gateway.requests.at(-1)?.path).toBe('/v1/chat/completions');
    expect((await store.messages(first.conversationId)).at(-1)).toMatchObject({ text: 'Claude: two', status: 'complete' });
  });
});

describe('an interface the gateway lists but does not serve', () => {
  /** The background's wiring, with the remembered routes kept here instead of in storage. */
  function remembering() {
    let record: UnservedRoutes | undefined;
    const noted: string[] = [];
    const runs = manager({
      modelInfo: async (_profileId, model) => (await createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: gateway.demoKey }).listModels()).find((m) => m.id === model),
      unservedApis: async (p) => unservedAt(record, p.baseUrl, Date.now()),
      noteUnserved: async (p, api) => {
        noted.push(api);
        record = withUnserved(record, p.baseUrl, api, Date.now());
      },
    });
    return { runs, noted };
  }
  const routes = () => gateway.requests.filter((r) => r.method === 'POST').map((r) => r.path);

  it('a reply asked through Anthropic\'s route that 404s arrives through Chat Completions, says so, and the next turn goes straight there', async () => {
    gateway.setUnserved(['anthropic']);
    const { runs, noted } = remembering();
    const first = await runs.start({ surface: 'sidepanel', text: 'first', model: 'claude-ref-1' });
    await runs.whenIdle();
    const reply = (await store.messages(first.conversationId))[1]!;
    expect(reply).toMatchObject({ text: 'Claude: first', status: 'complete', notice: { code: 'sent_through_chat', params: { api: 'anthropic' } } });
    expect(reply.error).toBeUndefined();
    expect(routes()).toEqual(['/v1/messages', '/v1/chat/completions']);
    expect(noted).toEqual(['anthropic']);

    const second = await runs.start({ surface: 'sidepanel', conversationId: first.conversationId, text: 'second' });
    await runs.whenIdle();
    expect(routes().slice(2)).toEqual(['/v1/chat/completions']);
    expect(await store.getMessage(second.messageId)).toMatchObject({ text: 'Claude: second', status: 'complete', notice: { code: 'sent_through_chat', params: { api: 'anthropic' } } });
  });

  it('the same in a three-model comparison, a retry and an edit: every reply completes', async () => {
    gateway.setUnserved(['anthropic', 'gemini']);
    const { runs } = remembering();
    const compared = await runs.compare({ surface: 'chat', text: 'side by side', models: ['claude-ref-1', 'gemini-ref-1', 'echo-1'] });
    await runs.whenIdle();
    const replies = await Promise.all(compared.messageIds.map((id) => store.getMessage(id)));
    expect(replies.map((m) => [m?.text, m?.status, m?.notice?.params.api])).toEqual([
      ['Claude: side by side', 'complete', 'anthropic'],
      ['Gemini: side by side', 'complete', 'gemini'],
      ['Echo: side by side', 'complete', undefined],
    ]);

    const retried = await runs.retry(compared.messageIds[1]!);
    await runs.whenIdle();
    expect(await store.getMessage(retried.messageId)).toMatchObject({ text: 'Gemini: side by side', status: 'complete', notice: { params: { api: 'gemini' } } });

    const question = (await store.messages(compared.conversationId)).find((m) => m.role === 'user')!;
    const edited = await runs.edit({ messageId: question.id, text: 'edited', model: 'claude-ref-1' });
    await runs.whenIdle();
    expect(await store.getMessage(edited.messageId)).toMatchObject({ text: 'Claude: edited', status: 'complete' });
    // Once known, neither route is asked again.
    expect(routes().filter((path) => path !== '/v1/chat/completions')).toEqual(['/v1/messages', '/v1beta/models/gemini-ref-1:streamGenerateContent']);
  });

  it('what is remembered belongs to an address and lasts a day', () => {
    const at = 1_000_000;
    const record = withUnserved(undefined, 'https://a.example/v1', 'anthropic', at);
    expect(unservedAt(record, 'https://a.example/v1', at + 1000)).toEqual(['anthropic']);
    expect(unservedAt(record, 'https://b.example/v1', at + 1000)).toEqual([]);
    expect(unservedAt(record, 'https://a.example/v1', at + UNSERVED_FOR_MS)).toEqual([]);
    // Noting one at a new address forgets the old address's.
    expect(withUnserved(record, 'https://b.example/v1', 'gemini', at).apis.map((e) => e.api)).toEqual(['gemini']);
    expect(withUnserved(record, 'https://a.example/v1', 'gemini', at + 5).apis.map((e) => e.api)).toEqual(['anthropic', 'gemini']);
  });
});

describe('compare: one question to several models at once', () => {
  const COMPARED = ['echo-1', 'summarise-1', 'reasoner-1'];

  it('starts a run per model together: their requests overlap at the gateway, each reply is saved under the one question', async () => {
    gateway.setPace({ delayMs: 15, chunkChars: 4 });
    const runs = manager();
    const { conversationId, messageIds } = await runs.compare({ surface: 'chat', text: 'compare this sentence across three models please', models: COMPARED });
    expect(messageIds).toHaveLength(3);
    await runs.whenIdle();
    const asked = chatRequests();
    expect(asked.map((r) => (r.body as { model: string }).model).sort()).toEqual([...COMPARED].sort());
    // Every request began before every other had ended: none waited for another.
    for (const a of asked) for (const b of asked) expect(a.time).toBeLessThan(b.endedAt ?? 0);
    const messages = await store.messages(conversationId);
    const question = messages.find((m) => m.role === 'user')!;
    const replies = messages.filter((m) => m.role === 'assistant');
    expect(replies.map((r) => [r.model, r.status, r.parentId])).toEqual(COMPARED.map((m) => [m, 'complete', question.id]));
    expect(replies.every((r) => r.text !== '' && r.usage !== undefined && r.timing?.firstTokenMs !== undefined)).toBe(true);
    const conversation = await store.getConversation(conversationId);
    expect(conversation?.compare).toEqual({ userId: question.id, replyIds: messageIds });
    expect(conversation?.leafId).toBe(messageIds[0]);
  });

  it('a mid-stream error in one column is that column\'s: the others complete', async () => {
    gateway.setPace({ delayMs: 5, chunkChars: 4 });
    gateway.setFault({ kind: 'midstream-error', afterChunks: 2, thenDone: true }, 1, 'summarise-1');
    const runs = manager();
    const { conversationId } = await runs.compare({ surface: 'chat', text: 'a question long enough for a few chunks of each reply', models: COMPARED });
    await runs.whenIdle();
    const replies = (await store.messages(conversationId)).filter((m) => m.role === 'assistant');
    expect(replies.map((r) => [r.model, r.status])).toEqual([['echo-1', 'complete'], ['summarise-1', 'error'], ['reasoner-1', 'complete']]);
    expect(replies[1]?.error?.kind).toBeDefined();
    expect(replies[1]?.text.length).toBeGreaterThan(0);
  });

  it('refuses fewer than two or more than four models, and a plain send while the comparison streams', async () => {
    const runs = manager();
    await expect(runs.compare({ surface: 'chat', text: 'x', models: ['echo-1'] })).rejects.toMatchObject({ problem: 'compare_models', params: { min: 2, max: 4 } });
    await expect(runs.compare({ surface: 'chat', text: 'x', models: ['echo-1', 'echo-1'] })).rejects.toMatchObject({ problem: 'compare_models' });
    await expect(runs.compare({ surface: 'chat', text: 'x', models: ['a', 'b', 'c', 'd', 'e'] })).rejects.toMatchObject({ problem: 'compare_models' });
    gateway.setPace({ delayMs: 20 });
    const { conversationId } = await runs.compare({ surface: 'chat', text: 'slow', models: ['echo-1', 'summarise-1'] });
    await expect(runs.start({ surface: 'chat', conversationId, text: 'again' })).rejects.toMatchObject({ problem: 'busy' });
    await runs.whenIdle();
  });

  it('a column asked again while the others stream: a new version of its own model takes its place; the branch shown stays', async () => {
    gateway.setPace({ delayMs: 25, chunkChars: 3 });
    gateway.setFault({ kind: 'server-error' }, 1, 'echo-1');
    const runs = manager();
    const { conversationId, messageIds } = await runs.compare({ surface: 'chat', text: 'a question that takes a moment to answer', models: COMPARED });
    // The refused column ends while the others still stream.
    await expect.poll(async () => (await store.getMessage(messageIds[0]!))?.status, { timeout: 5_000 }).toBe('error');
    expect((await store.getMessage(messageIds[1]!))?.status).toBe('streaming');
    const again = await runs.retry(messageIds[0]!);
    await runs.whenIdle();
    const conversation = await store.getConversation(conversationId);
    expect(conversation?.compare?.replyIds).toEqual([again.messageId, messageIds[1], messageIds[2]]);
    expect(conversation?.leafId).toBe(messageIds[0]);
    const retried = await store.getMessage(again.messageId);
    expect([retried?.model, retried?.status, retried?.text]).toEqual(['echo-1', 'complete', 'Echo: a question that takes a moment to answer']);
  });

  it('continue with this one: its model becomes the conversation\'s, the others stay as versions, the next question follows it', async () => {
    const runs = manager();
    const { conversationId, messageIds } = await runs.compare({ surface: 'chat', text: 'pick one', models: COMPARED });
    await runs.whenIdle();
    await store.continueWith(conversationId, messageIds[2]!);
    const conversation = await store.getConversation(conversationId);
    expect(conversation).toMatchObject({ model: 'reasoner-1', leafId: messageIds[2] });
    expect(conversation?.compare).toBeUndefined();
    const chosen = await store.getMessage(messageIds[2]!);
    gateway.requests.length = 0;
    await runs.start({ surface: 'chat', conversationId, text: 'and then?' });
    await runs.whenIdle();
    const body = chatRequests()[0]?.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('reasoner-1');
    expect(body.messages.map((m) => m.content)).toEqual(['pick one', chosen?.text, 'and then?']);
    // The three answers are still versions of one reply.
    expect((await store.messages(conversationId)).filter((m) => m.role === 'assistant' && m.parentId === chosen?.parentId)).toHaveLength(3);
  });

  it('replies streaming together reach watchers together (one flush per interval for the conversation) and are saved in one write', async () => {
    // Each model's stream is fed by the test: what arrives when is known exactly.
    const feeds = new Map<string, { push(event: StreamEvent): void }>();
    const fed: GatewayClient = {
      baseUrl: 'x', siteUrl: 'x',
      listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_IMAGES, ...NO_AUDIO,
      async *streamChat(request) {
        const queue: StreamEvent[] = [];
        let wake: (() => void) | undefined;
        feeds.set(request.model, { push: (event) => { queue.push(event); wake?.(); } });
        for (;;) {
          while (queue.length === 0) await new Promise<void>((r) => { wake = r; });
          const event = queue.shift()!;
          yield event;
          if (event.type === 'done') return;
        }
      },
    };
    const runs = manager({ clientFor: () => fed, flushIntervalMs: 40, saveIntervalMs: 1 });
    const writes: string[][] = [];
    const real = store.updateMessageTexts.bind(store);
    store.updateMessageTexts = async (texts) => {
      writes.push(texts.map((t) => t.id));
      return real(texts);
    };
    const conversationId = 'compared-together';
    // Deltas emitted in one go (no await between them) land in one batch.
    const batches: Set<string>[] = [];
    let open: Set<string> | undefined;
    runs.watch(conversationId, (event) => {
      if (event.type !== 'delta') return;
      if (open === undefined) {
        open = new Set();
        batches.push(open);
        queueMicrotask(() => { open = undefined; });
      }
      open.add(event.messageId);
    });
    const { messageIds } = await runs.compare({ surface: 'chat', newConversationId: conversationId, text: 'q', models: ['a-1', 'b-1'] });
    const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
    while (feeds.size < 2) await settle(1);
    const [a, b] = [feeds.get('a-1')!, feeds.get('b-1')!];
    // First words go out at once.
    a.push({ type: 'text', text: 'A1' });
    b.push({ type: 'text', text: 'B1' });
    await settle(10);
    const before = batches.length;
    expect(before).toBeGreaterThan(0);
    // What follows, from both, goes out in one flush (a timer per reply would make two).
    a.push({ type: 'text', text: 'A2' });
    b.push({ type: 'text', text: 'B2' });
    await settle(100);
    expect(batches.slice(before).map((batch) => [...batch].sort())).toEqual([[...messageIds].sort()]);
    // Each save wrote both replies at once.
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((ids) => ids.length === 2 && messageIds.every((id) => ids.includes(id)))).toBe(true);
    a.push({ type: 'done' });
    b.push({ type: 'done' });
    await runs.whenIdle();
    expect((await store.messages(conversationId)).filter((m) => m.role === 'assistant').map((m) => m.text)).toEqual(['A1A2', 'B1B2']);
  });

  it('a plain question while a comparison awaits a choice continues from the reply shown, and closes the comparison', async () => {
    const runs = manager();
    const { conversationId, messageIds } = await runs.compare({ surface: 'chat', text: 'first', models: ['echo-1', 'summarise-1'] });
    await runs.whenIdle();
    await runs.start({ surface: 'chat', conversationId, text: 'second' });
    await runs.whenIdle();
    const conversation = await store.getConversation(conversationId);
    expect(conversation?.compare).toBeUndefined();
    const second = (await store.messages(conversationId)).find((m) => m.text === 'second');
    expect(second?.parentId).toBe(messageIds[0]);
  });
});

describe('a system prompt that came with an import waits for the user (issue 28)', () => {
  it('nothing is sent in its conversation (a turn, a comparison, a retry, an edit) until it is kept or removed', async () => {
    const runs = manager();
    const { conversationId, messageId } = await runs.start({ surface: 'chat', text: 'first question' });
    await runs.whenIdle();
    const question = (await store.messages(conversationId))[0]!.id;
    const sent = chatRequests().length;
    await store.setConversationSettings(conversationId, { systemPrompt: 'Planted by the file.', systemPromptReview: 'imported' });
    await expect(runs.start({ surface: 'chat', conversationId, text: 'again' })).rejects.toMatchObject({ problem: 'prompt_review' });
    await expect(runs.compare({ surface: 'chat', conversationId, text: 'again', models: ['echo-1', 'echo-2'] })).rejects.toMatchObject({ problem: 'prompt_review' });
    await expect(runs.retry(messageId)).rejects.toMatchObject({ problem: 'prompt_review' });
    await expect(runs.edit({ messageId: question, text: 'changed' })).rejects.toMatchObject({ problem: 'prompt_review' });
    expect(chatRequests()).toHaveLength(sent);
    expect(await store.messages(conversationId)).toHaveLength(2);

    // Kept: the conversation goes on, with it.
    await store.setConversationSettings(conversationId, { systemPrompt: 'Planted by the file.' });
    await runs.start({ surface: 'chat', conversationId, text: 'go on' });
    await runs.whenIdle();
    expect((chatRequests().at(-1)?.body as { messages: unknown[] }).messages[0]).toEqual({ role: 'system', content: 'Planted by the file.' });
  });
});

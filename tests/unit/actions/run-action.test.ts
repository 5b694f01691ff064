import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAction } from '@/lib/actions/run-action';
import { ConversationStore } from '@/lib/conversations/store';
import { createGatewayClient, type ChatRequest, type GatewayClient } from '@/lib/gateway';
import { RunManager } from '@/lib/runs/run-manager';
import { defaultSettings, type Settings } from '@/lib/settings/schema';
import { startReferenceGateway, type ReferenceGateway } from '../../gateway/server';
import { wordsFor } from '@/lib/i18n/messages';

let gateway: ReferenceGateway;
beforeAll(async () => {
  gateway = await startReferenceGateway();
});
afterAll(async () => {
  await gateway.close();
});

function setup(extra: Partial<Settings> = {}) {
  const store = new ConversationStore(`actions-${Math.random()}`);
  const sent: ChatRequest[] = [];
  const settings: Settings = {
    ...defaultSettings(),
    profiles: [{ id: 'p1', name: 'Ref', siteUrl: gateway.siteUrl, baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, apiStyle: 'chat', defaultModel: 'echo-1', actionModel: 'summarise-1', confirmedImageModels: [] }],
    activeProfileId: 'p1',
    chat: { systemPrompt: 'You are terse.' },
    ...extra,
  };
  const runs = new RunManager({
    store,
    loadSettings: async () => settings,
    clientFor: (p) => {
      const real = createGatewayClient({ baseUrl: p.baseUrl, siteUrl: p.siteUrl, apiKey: p.apiKey });
      const spy: GatewayClient = { ...real, streamChat: (r, o) => { sent.push(r); return real.streamChat(r, o); } };
      return spy;
    },
  });
  return { store, runs, settings, sent };
}

const page = { title: 'Gateways explained', url: 'https://docs.example/gateways' };
const selection = 'Gateways route requests. They bill tokens against balances. Keys are bearer tokens. Models differ in capability. Addresses end in v1.';

describe('startAction', () => {
  it('summarises the selection into a new conversation that keeps the page title and URL', async () => {
    const { store, runs, settings, sent } = setup();
    const { conversationId, messageId } = await startAction(runs, settings, { actionId: 'summarise', selection, page, conversationId: 'conv-1', words: wordsFor('en') });
    await runs.whenIdle();
    expect(conversationId).toBe('conv-1');
    const conversation = await store.getConversation('conv-1');
    expect(conversation).toMatchObject({ title: 'Summarise: Gateways explained', model: 'summarise-1', surface: 'action', source: page });
    const [user, reply] = await store.messages('conv-1');
    expect(user?.text).toContain('"Gateways explained" (https://docs.example/gateways)');
    // No language in the settings: the interface's (English here).
    expect(user?.text).toContain('Answer in English.');
    expect(user?.text).toContain(`\`\`\`text\n${selection}\n\`\`\``);
    expect(reply?.id).toBe(messageId);
    expect(reply?.status).toBe('complete');
    expect(reply?.text.startsWith('Summary: ')).toBe(true);
    // Page text is data: only in the user message, never in the system prompt.
    const system = sent[0]?.messages.find((m) => m.role === 'system');
    expect(system?.content).toBe('You are terse.');
    expect(JSON.stringify(system)).not.toContain('Gateways route requests');
  });

  it('a user-defined action with its own model', async () => {
    const { store, runs, settings } = setup();
    settings.actions.push({ id: 'shout', name: 'Shout it', template: 'Repeat loudly: {{selection}}', model: 'echo-1', enabled: true });
    await startAction(runs, settings, { actionId: 'shout', selection: 'hello page', page, conversationId: 'conv-2', words: wordsFor('en') });
    await runs.whenIdle();
    const [, reply] = await store.messages('conv-2');
    expect(reply?.text).toBe('Echo: Repeat loudly: ```text\nhello page\n```');
    expect((await store.getConversation('conv-2'))?.model).toBe('echo-1');
  });

  it('an action with a preset uses its system prompt, parameters and model (its own model first)', async () => {
    const { store, runs, settings, sent } = setup({ presets: [{ id: 'legal', name: 'Legal', systemPrompt: 'You are a careful lawyer.', temperature: 0.1, model: 'echo-1' }] });
    settings.actions.push({ id: 'legal-explain', name: 'Explain', template: 'Explain: {{selection}}', presetId: 'legal', enabled: true });
    await startAction(runs, settings, { actionId: 'legal-explain', selection: 'a clause', page, conversationId: 'conv-p', words: wordsFor('en') });
    await runs.whenIdle();
    expect((await store.getConversation('conv-p'))?.model).toBe('echo-1');
    expect(sent.at(-1)?.messages[0]).toEqual({ role: 'system', content: 'You are a careful lawyer.' });
    expect(sent.at(-1)?.temperature).toBe(0.1);
    settings.actions.push({ id: 'explain2', name: 'Explain 2', template: 'Explain: {{selection}}', presetId: 'legal', model: 'summarise-1', enabled: true });
    await startAction(runs, settings, { actionId: 'explain2', selection: 'a clause', page, conversationId: 'conv-q', words: wordsFor('en') });
    await runs.whenIdle();
    expect((await store.getConversation('conv-q'))?.model).toBe('summarise-1');
  });

  it('a 2 MB selection is cut to the limit and the user message carries the notice', async () => {
    const { store, runs, settings } = setup();
    const big = 'A sentence of page text that goes on. '.repeat(60_000);
    expect(big.length).toBeGreaterThan(2 * 1024 * 1024);
    await startAction(runs, settings, { actionId: 'summarise', selection: big, page, conversationId: 'conv-3', words: wordsFor('en') });
    await runs.whenIdle();
    const [user, reply] = await store.messages('conv-3');
    expect(user?.notice?.code).toBe('selection_cut');
    expect(user?.notice?.params.limit).toBe(settings.largeSelection.maxTokens);
    expect(user!.text.length).toBeLessThan(60_000);
    expect(reply?.status).toBe('complete');
  });

  it('refuses clearly: no selection, an action that was turned off', async () => {
    const { runs, settings } = setup();
    await expect(startAction(runs, settings, { actionId: 'summarise', selection: '   ', page, conversationId: 'x', words: wordsFor('en') })).rejects.toMatchObject({ problem: 'empty' });
    settings.actions[0]!.enabled = false;
    await expect(startAction(runs, settings, { actionId: 'summarise', selection: 'x', page, conversationId: 'y', words: wordsFor('en') })).rejects.toMatchObject({ problem: 'not_found' });
  });
});

/**
 * The gateway library against the reference gateway through each of its four interfaces, over a
 * real socket: the same event sequence for each, thinking, images, usage, finish reasons, where
 * the key travels, each refusal in its interface's shape → our kinds, and every fault knob.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type ApiStyle, type ChatRequest, type StreamEvent } from '@/lib/gateway';
import { BROKE_KEY } from '../../gateway/server';
import { collect, errorOf, lastOf, reasoningOf, textOf, thrown } from './recordings';
import { referenceGatewayPerFile } from './reference';

const env = referenceGatewayPerFile();

const ask = (api: ApiStyle, model: string, content: ChatRequest['messages'][number]['content'], extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model, api, messages: [{ role: 'user', content }], ...extra,
});

/** The event types in order, each run of one type counted once: the shape of a reply. */
function shapeOf(events: StreamEvent[]): string[] {
  return events.map((e) => e.type).filter((type, i, all) => type !== all[i - 1]);
}

/** vision-1 offers all four interfaces. */
const EVERY: readonly ApiStyle[] = ['chat', 'responses', 'anthropic', 'gemini'];
const PATHS: Record<ApiStyle, RegExp> = {
  chat: /^\/v1\/chat\/completions$/,
  responses: /^\/v1\/responses$/,
  anthropic: /^\/v1\/messages$/,
  gemini: /^\/v1beta\/models\/vision-1:streamGenerateContent$/,
};
const KEY_PLACE: Record<ApiStyle, string> = { chat: 'authorization', responses: 'authorization', anthropic: 'x-api-key', gemini: 'x-goog-api-key' };

describe.each(EVERY)('through %s', (api) => {
  it('streams text, usage and done, in the same shape as every other interface', async () => {
    const events = await collect(env.client.streamChat(ask(api, 'vision-1', 'hello there')));
    expect(textOf(events)).toBe('No image received. You said: hello there');
    expect(shapeOf(events)).toEqual(['text', 'usage', 'done']);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { promptTokens: 3, completionTokens: 10, totalTokens: 13 } });
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('goes to its own address with the key in its own header, never in the address', async () => {
    await collect(env.client.streamChat(ask(api, 'vision-1', 'hi')));
    const request = env.gateway.requests.at(-1)!;
    expect(request.path).toMatch(PATHS[api]);
    expect(request).toMatchObject({ key: env.gateway.demoKey, keyIn: KEY_PLACE[api] });
    expect(request.query).not.toContain(env.gateway.demoKey);
    expect(request.query).not.toMatch(/key=/);
    if (api === 'anthropic') expect(request.anthropicVersion).toBe('2023-06-01');
  });

  it('an image reaches the vision model', async () => {
    const png = 'data:image/png;base64,' + Buffer.from('fake png bytes').toString('base64');
    const events = await collect(env.client.streamChat(ask(api, 'vision-1', [{ type: 'text', text: 'what is it?' }, { type: 'image', url: png }])));
    expect(textOf(events)).toBe('I received 1 image(s) (image 1: image/png, 14 bytes). You said: what is it?');
  });

  it('max tokens cut the reply: finish reason length', async () => {
    const events = await collect(env.client.streamChat(ask(api, 'vision-1', 'a long message that will not fit', { maxTokens: 3 })));
    expect(textOf(events)).toBe('No image rec');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'length' });
  });

  it('the same reply not streamed', async () => {
    const events = await collect(env.client.streamChat(ask(api, 'vision-1', 'plain', { stream: false })));
    expect(events.map((e) => e.type)).toEqual(['text', 'usage', 'done']);
    expect(textOf(events)).toBe('No image received. You said: plain');
  });

  it('refusals in the interface\'s own shape: a wrong key, a missing model, an empty balance', async () => {
    const wrong = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: 'sk-wrong' });
    expect(await thrown(wrong.streamChat(ask(api, 'vision-1', 'x')))).toMatchObject({ kind: 'invalid_key' });
    expect(await thrown(env.client.streamChat(ask(api, 'gpt-9', 'x')))).toMatchObject({ kind: 'model_not_found' });
    const broke = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: BROKE_KEY });
    expect(await thrown(broke.streamChat(ask(api, 'vision-1', 'x')))).toMatchObject({ kind: 'insufficient_balance' });
  });

  it('fault knobs: 429 with Retry-After, 500, overloaded', async () => {
    env.gateway.setFault({ kind: 'rate-limit', retryAfter: 7 });
    expect(await thrown(env.client.streamChat(ask(api, 'vision-1', 'x')))).toMatchObject({ kind: 'rate_limited', retryAfter: 7, status: 429 });
    env.gateway.setFault({ kind: 'server-error' });
    expect(await thrown(env.client.streamChat(ask(api, 'vision-1', 'x')))).toMatchObject({ kind: 'server', status: 500 });
    env.gateway.setFault({ kind: 'overloaded' });
    // Anthropic's 529 overloaded_error, Gemini's 503 UNAVAILABLE, a 503 elsewhere: a server error (Retry is offered).
    expect(await thrown(env.client.streamChat(ask(api, 'vision-1', 'x')))).toMatchObject({ kind: 'server', status: api === 'anthropic' ? 529 : 503 });
  });

  it('fault knobs: a mid-stream error after the text, a malformed chunk, a dropped connection, a stall', async () => {
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 1, thenDone: false });
    let events = await collect(env.client.streamChat(ask(api, 'vision-1', 'hello world')));
    expect(textOf(events)).toBe('No image');
    expect(errorOf(events).kind).toBe('server');

    env.gateway.setFault({ kind: 'malformed-chunk', afterChunks: 1 });
    events = await collect(env.client.streamChat(ask(api, 'vision-1', 'hello world')));
    expect(textOf(events)).toBe('No image');
    expect(errorOf(events).kind).toBe('bad_response');

    // The Responses interface sends whole response objects before its first words.
    const cut = api === 'responses' ? 2_200 : 900;
    env.gateway.setFault({ kind: 'drop', afterBytes: cut });
    events = await collect(env.client.streamChat(ask(api, 'vision-1', 'one two three four five six seven eight nine ten eleven twelve')));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect('No image received. You said: one two three four five six seven eight nine ten eleven twelve'.startsWith(textOf(events))).toBe(true);
    expect(errorOf(events).kind).toBe('network');

    env.gateway.setFault({ kind: 'stall', afterBytes: cut });
    const quick = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: env.gateway.demoKey, limits: { idleTimeoutMs: 200 } });
    events = await collect(quick.streamChat(ask(api, 'vision-1', 'one two three four five six seven eight nine ten eleven twelve')));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(errorOf(events).kind).toBe('timeout');
  });
});

/** What each interface says when its filter stopped the reply (the reference gateway's `blocked` fault). */
const BLOCKED_BY: Record<ApiStyle, Record<string, string>> = {
  chat: { reason: 'content_filter', category: 'violence' },
  responses: { reason: 'content_filter' },
  anthropic: { reason: 'refusal' },
  gemini: { reason: 'safety', category: 'dangerous' },
};

describe.each(EVERY)('a reply the model\'s filter blocked, through %s', (api) => {
  const question = 'one two three four five six seven eight';
  it.each([['streamed', true], ['not streamed', false]] as const)('%s: the text before the block kept, then content_blocked naming why; blocked at once: no text', async (_how, stream) => {
    env.gateway.setFault({ kind: 'blocked', afterChunks: 2 });
    let events = await collect(env.client.streamChat(ask(api, 'vision-1', question, { stream })));
    // Two chunks of the gateway's pace (8 characters each).
    expect(textOf(events)).toBe('No image received'.slice(0, 16));
    expect(lastOf(events)).toMatchObject({ type: 'error', error: { kind: 'content_blocked', detail: { code: 'reply_blocked', params: BLOCKED_BY[api] } } });
    expect(events.some((e) => e.type === 'done')).toBe(false);

    env.gateway.setFault({ kind: 'blocked', afterChunks: 0 });
    events = await collect(env.client.streamChat(ask(api, 'vision-1', question, { stream })));
    expect(textOf(events)).toBe('');
    expect(errorOf(events)).toMatchObject({ kind: 'content_blocked', detail: { params: BLOCKED_BY[api] } });
  });
});

describe('thinking', () => {
  it('Anthropic: the thinking block streams as reasoning before the text, and its signature is kept', async () => {
    const events = await collect(env.client.streamChat(ask('anthropic', 'claude-ref-1', 'two words')));
    expect(reasoningOf(events)).toBe('Considering 2 words.');
    expect(textOf(events)).toBe('Claude: two words');
    expect(shapeOf(events)).toEqual(['reasoning', 'text', 'usage', 'done']);
    expect(events.find((e) => e.type === 'done')).toMatchObject({ type: 'done', finishReason: 'stop', signature: expect.stringMatching(/.{20,}/) });
  });

  it('Anthropic: a thinking block sent back with its signature is accepted; with another, refused', async () => {
    const events = await collect(env.client.streamChat(ask('anthropic', 'claude-ref-1', 'first')));
    const signature = (events.find((e) => e.type === 'done') as { signature?: string }).signature;
    const history = (sig: string): ChatRequest => ({
      model: 'claude-ref-1', api: 'anthropic',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'Claude: first', reasoning: { text: 'Considering 1 words.', signature: sig } },
        { role: 'user', content: 'second' },
      ],
    });
    expect(textOf(await collect(env.client.streamChat(history(signature!))))).toBe('Claude: second');
    const sent = env.gateway.requests.at(-1)!.body as { messages: { content: unknown }[] };
    expect(sent.messages[1]!.content).toEqual([{ type: 'thinking', thinking: 'Considering 1 words.', signature }, { type: 'text', text: 'Claude: first' }]);
    expect(await thrown(env.client.streamChat(history('forged')))).toMatchObject({ kind: 'bad_request' });
  });

  it('Gemini: thought summaries stream as reasoning; thoughts are counted apart in the usage', async () => {
    const events = await collect(env.client.streamChat(ask('gemini', 'gemini-ref-1', 'why is the sky blue')));
    expect(reasoningOf(events)).toBe('Thinking about: why is the sky blue');
    expect(textOf(events)).toBe('Gemini: why is the sky blue');
    expect(shapeOf(events)).toEqual(['reasoning', 'text', 'usage', 'done']);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { reasoningTokens: 9 } });
  });

  it('Gemini: a blocked prompt is a clear error, not an empty reply', async () => {
    const error = await collect(env.client.streamChat(ask('gemini', 'gemini-ref-1', 'please #blocked')));
    expect(errorOf(error)).toMatchObject({ kind: 'content_blocked', detail: { code: 'prompt_blocked', params: { reason: 'safety' } } });
  });
});

describe('chosen per model', () => {
  it('a model that does not offer an interface is refused through it with bad_request', async () => {
    expect(await thrown(env.client.streamChat(ask('anthropic', 'echo-1', 'x')))).toMatchObject({ kind: 'bad_request' });
    expect(await thrown(env.client.streamChat(ask('gemini', 'echo-1', 'x')))).toMatchObject({ kind: 'bad_request' });
  });

  it('the catalogue names each model\'s interfaces, the preferred first', async () => {
    const byId = new Map((await env.client.listModels()).map((m) => [m.id, m]));
    expect(byId.get('claude-ref-1')).toMatchObject({ apis: ['anthropic', 'chat'], preferredApi: 'anthropic' });
    expect(byId.get('gemini-ref-1')).toMatchObject({ apis: ['gemini', 'chat'], preferredApi: 'gemini' });
    expect(byId.get('vision-1')?.apis).toEqual(['chat', 'responses', 'anthropic', 'gemini']);
  });

  it('Chinese gateway words, the same kinds', async () => {
    env.gateway.setLanguage('zh-CN');
    const broke = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: BROKE_KEY });
    for (const api of ['anthropic', 'gemini'] as const) {
      expect(await thrown(broke.streamChat(ask(api, 'vision-1', 'x')))).toMatchObject({ kind: 'insufficient_balance', gatewayMessage: '用户额度不足, 剩余额度: ＄0.000000' });
      expect(await thrown(env.client.streamChat(ask(api, 'gpt-9', 'x')))).toMatchObject({ kind: 'model_not_found' });
    }
  });
});

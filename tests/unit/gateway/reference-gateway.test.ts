/**
 * The gateway library against the reference gateway over a real socket on 127.0.0.1:
 * every seed rule, the billing, and each fault knob.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { GatewayError} from '@/lib/gateway';
import { createGatewayClient, type ChatRequest, type StreamEvent } from '@/lib/gateway';
import { BROKE_KEY, DELETED_KEY, EXPIRED_KEY, startReferenceGateway } from '../../gateway/server';
import { longMarkdown, summarise } from '../../gateway/models';
import { collect, errorOf, lastOf, reasoningOf, textOf, thrown } from './recordings';
import { referenceGatewayPerFile } from './reference';

const env = referenceGatewayPerFile();

const ask = (model: string, content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ model, messages: [{ role: 'user', content }], ...extra });

describe('catalogue', () => {
  it('lists models that differ in capability', async () => {
    const models = await env.client.listModels();
    const byId = new Map(models.map((m) => [m.id, m]));
    expect(byId.get('vision-1')?.capabilities.imageInput).toBe(true);
    expect(byId.get('echo-1')?.capabilities).toMatchObject({ chat: true, responses: true, imageInput: false });
    expect(byId.get('responses-only-1')?.capabilities).toMatchObject({ chat: false, responses: true });
    expect(byId.get('summarise-1')?.capabilities).toMatchObject({ chat: true, responses: false });
    expect(byId.get('responses-only-1')?.preferredApi).toBe('responses');
  });

  it('a withdrawn model leaves the catalogue and then does not exist', async () => {
    env.gateway.withdraw('legacy-1');
    expect((await env.client.listModels()).map((m) => m.id)).not.toContain('legacy-1');
    const error = await thrown(env.client.streamChat(ask('legacy-1', 'hi')));
    expect(error.kind).toBe('model_not_found');
    expect(error.remedy.links[0]?.url).toBe(`${env.gateway.siteUrl}/models`);
  });
});

describe('chat completions', () => {
  it('streams the echo model: text, usage, done', async () => {
    // Paced, so its chunks come in reads of their own (what arrives in one read is one event).
    env.gateway.setPace({ delayMs: 5 });
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello there')));
    expect(textOf(events)).toBe('Echo: hello there');
    expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 } });
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('the same reply not streamed', async () => {
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello there', { stream: false })));
    expect(events.map((e) => e.type)).toEqual(['text', 'usage', 'done']);
    expect(textOf(events)).toBe('Echo: hello there');
  });

  it('reasoning_content from the reasoner', async () => {
    const events = await collect(env.client.streamChat(ask('reasoner-1', 'abc def')));
    expect(reasoningOf(events)).toBe('The user wrote 2 words. I will answer briefly.');
    expect(textOf(events)).toBe('Answer: fed cba');
  });

  it('the summariser condenses the last message', async () => {
    const text = Array.from({ length: 12 }, (_, i) => `Sentence ${i} talks about gateways and keys and models number ${i}.`).join(' ');
    const events = await collect(env.client.streamChat(ask('summarise-1', text)));
    const summary = textOf(events);
    expect(summary).toBe(summarise(text));
    expect(summary.length).toBeLessThan(text.length / 2);
  });

  it('the markdown generator writes long markdown with code blocks and tables', async () => {
    env.gateway.setPace({ chunkChars: 400 });
    const events = await collect(env.client.streamChat(ask('markdown-1', 'write 30 kB')));
    const text = textOf(events);
    expect(text).toBe(longMarkdown(30 * 1024));
    expect(text.length).toBeGreaterThanOrEqual(30 * 1024);
    expect(text.match(/^```\w+$/gm)?.length).toBeGreaterThan(15);
    expect(text).toContain('| metric | value | unit |');
  });

  it('an image to an image-capable model', async () => {
    const png = 'data:image/png;base64,' + Buffer.from('fake png bytes').toString('base64');
    const events = await collect(env.client.streamChat({ model: 'vision-1', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, { type: 'image', url: png }] }] }));
    expect(textOf(events)).toBe('I received 1 image(s) (image 1: image/png, 14 bytes). You said: what is it?');
  });

  it('an image to a text-only model is refused with a bad_request', async () => {
    const error = await thrown(env.client.streamChat({ model: 'echo-1', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] }] }));
    expect(error.kind).toBe('bad_request');
    expect(error.gatewayMessage).toMatch(/does not accept image input/);
  });

  it('a Responses-only model refuses chat completions', async () => {
    expect((await thrown(env.client.streamChat(ask('responses-only-1', 'hi')))).kind).toBe('bad_request');
  });

  it('max tokens cut the reply with finish_reason length', async () => {
    const events = await collect(env.client.streamChat(ask('echo-1', 'a long message that will not fit', { maxTokens: 2 })));
    expect(textOf(events)).toBe('Echo: a ');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'length' });
  });
});

describe('Responses API', () => {
  it('streams a Responses-only model', async () => {
    const events = await collect(env.client.streamChat(ask('responses-only-1', 'hi there', { api: 'responses' })));
    expect(textOf(events)).toBe('Responses: hi there');
    expect(events.find((e) => e.type === 'usage')).toBeDefined();
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('not streamed', async () => {
    const events = await collect(env.client.streamChat(ask('echo-1', 'x', { api: 'responses', stream: false })));
    expect(textOf(events)).toBe('Echo: x');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('a chat-only model refuses the Responses API', async () => {
    expect((await thrown(env.client.streamChat(ask('summarise-1', 'hi', { api: 'responses' })))).kind).toBe('bad_request');
  });

  it('a mid-stream failure arrives as error and response.failed after the text', async () => {
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 2, thenDone: false });
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello world', { api: 'responses' })));
    expect(textOf(events)).toBe('Echo: hello worl'); // two chunks of eight characters
    expect(errorOf(events).kind).toBe('server');
  });
});

describe('seed part 5 and 7 against the server', () => {
  it.each([
    ['a wrong key', 'sk-wrong'],
    ['a truncated key', 'sk-demo-reference-gateway-key-00000'],
    ['a deleted key', DELETED_KEY],
    ['an expired key', EXPIRED_KEY],
  ])('%s is 401 INVALID_API_KEY on every endpoint', async (_label, key) => {
    const bad = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: key });
    const models = await bad.listModels().catch((e: unknown) => e as GatewayError);
    expect(models).toMatchObject({ kind: 'invalid_key', status: 401, code: 'INVALID_API_KEY' });
    expect(await thrown(bad.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'invalid_key' });
    expect(await thrown(bad.streamChat(ask('echo-1', 'x', { api: 'responses' })))).toMatchObject({ kind: 'invalid_key' });
  });

  it('a base with /v1/v1 is 404, bad_address', async () => {
    const doubled = createGatewayClient({ baseUrl: `${env.gateway.baseUrl}/v1`, apiKey: env.gateway.demoKey });
    const error = await doubled.listModels().catch((e: unknown) => e as GatewayError);
    expect(error).toMatchObject({ kind: 'bad_address', status: 404 });
  });

  it('the site address used as the base (no /v1) reaches the HTML site: bad_address', async () => {
    const noV1 = createGatewayClient({ baseUrl: env.gateway.siteUrl, apiKey: env.gateway.demoKey });
    expect(await noV1.listModels().catch((e: unknown) => e as GatewayError)).toMatchObject({ kind: 'bad_address' });
    expect(await thrown(noV1.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'bad_address' });
  });

  it('an unknown model does not exist', async () => {
    const error = await thrown(env.client.streamChat(ask('gpt-9', 'x')));
    expect(error).toMatchObject({ kind: 'model_not_found', status: 404 });
    expect(error.gatewayMessage).toMatch(/model does not exist/);
  });

  it('an empty balance is insufficient_balance', async () => {
    const broke = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: BROKE_KEY });
    const error = await thrown(broke.streamChat(ask('echo-1', 'x')));
    expect(error).toMatchObject({ kind: 'insufficient_balance' });
    expect(error.remedy.links.map((l) => l.id)).toEqual(expect.arrayContaining(['dashboard', 'purchase', 'redeem']));
  });

  it('replies are billed until the balance is spent', async () => {
    env.gateway.setBalance('demo', 10);
    await collect(env.client.streamChat(ask('echo-1', 'a message long enough to cost more than ten units')));
    expect(env.gateway.balanceOf('demo')).toBeLessThan(0);
    expect((await thrown(env.client.streamChat(ask('echo-1', 'again')))).kind).toBe('insufficient_balance');
  });

  it('the key reaches the gateway as a bearer token', async () => {
    await env.client.listModels();
    expect(env.gateway.requests.at(-1)).toMatchObject({ path: '/v1/models', bearer: env.gateway.demoKey });
  });
});

describe('fault knobs', () => {
  it('drop after N bytes: the text received, then network', async () => {
    env.gateway.setFault({ kind: 'drop', afterBytes: 700 });
    const events = await collect(env.client.streamChat(ask('echo-1', 'one two three four five six seven eight nine ten')));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect('Echo: one two three four five six seven eight nine ten'.startsWith(textOf(events))).toBe(true);
    expect(errorOf(events).kind).toBe('network');
  });

  it('stall: the text received, then timeout', async () => {
    env.gateway.setFault({ kind: 'stall', afterBytes: 700 });
    const quick = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: env.gateway.demoKey, limits: { idleTimeoutMs: 200 } });
    const events = await collect(quick.streamChat(ask('echo-1', 'one two three four five six seven')));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(errorOf(events).kind).toBe('timeout');
  });

  it('mid-stream error followed by [DONE]', async () => {
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 1, thenDone: true });
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello world')));
    expect(textOf(events)).toBe('Echo: he');
    expect(errorOf(events)).toMatchObject({ kind: 'server', code: 'bad_response_status_code' });
  });

  it('mid-stream error without [DONE]', async () => {
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 1, thenDone: false });
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello world')));
    expect(textOf(events)).toBe('Echo: he');
    expect(errorOf(events).kind).toBe('server');
  });

  it('429 with Retry-After', async () => {
    env.gateway.setFault({ kind: 'rate-limit', retryAfter: 7 });
    expect(await thrown(env.client.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'rate_limited', retryAfter: 7, status: 429 });
  });

  it('500', async () => {
    env.gateway.setFault({ kind: 'server-error' });
    expect(await thrown(env.client.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'server', status: 500 });
  });

  it('a malformed chunk: the text before it, then bad_response', async () => {
    env.gateway.setFault({ kind: 'malformed-chunk', afterChunks: 1 });
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello world')));
    expect(textOf(events)).toBe('Echo: he');
    expect(errorOf(events).kind).toBe('bad_response');
  });

  it('a slow first byte within the limit still answers; beyond it, timeout', async () => {
    env.gateway.setFault({ kind: 'slow-first-byte', delayMs: 150 });
    expect(textOf(await collect(env.client.streamChat(ask('echo-1', 'x'))))).toBe('Echo: x');
    env.gateway.setFault({ kind: 'slow-first-byte', delayMs: 400 });
    const impatient = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: env.gateway.demoKey, limits: { headersTimeoutMs: 100 } });
    expect((await thrown(impatient.streamChat(ask('echo-1', 'x')))).kind).toBe('timeout');
  });

  it('stopping mid-stream: the text so far, then aborted', async () => {
    env.gateway.setPace({ delayMs: 20, chunkChars: 2 });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    for await (const event of env.client.streamChat(ask('echo-1', 'a fairly long message to stream slowly'), { signal: controller.signal })) {
      events.push(event);
      if (events.length === 3) controller.abort();
    }
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(errorOf(events).kind).toBe('aborted');
  });

  it('a gateway that is not running is network', async () => {
    const closed = await startReferenceGateway();
    const url = closed.baseUrl;
    await closed.close();
    const gone = createGatewayClient({ baseUrl: url, apiKey: 'sk-x' });
    expect(await gone.listModels().catch((e: unknown) => e as GatewayError)).toMatchObject({ kind: 'network' });
  });
});

describe('a gateway that speaks Chinese (new-api\'s own messages)', () => {
  // The same statuses and codes with other words: every error is classified as in English, and
  // the gateway's words are kept verbatim to be shown beside ours.
  beforeEach(() => env.gateway.setLanguage('zh-CN'));

  it('a wrong, deleted or expired key', async () => {
    for (const [key, words] of [['sk-wrong', '无效的令牌'], [DELETED_KEY, '该令牌状态不可用'], [EXPIRED_KEY, '该令牌已过期']] as const) {
      const bad = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: key });
      const error = await bad.listModels().catch((e: unknown) => e as GatewayError);
      expect(error).toMatchObject({ kind: 'invalid_key', status: 401, gatewayMessage: words });
    }
  });

  it('no channel for the model, an empty balance, a rate limit, a failed upstream', async () => {
    expect(await thrown(env.client.streamChat(ask('gpt-9', 'x')))).toMatchObject({ kind: 'model_not_found', gatewayMessage: '当前分组 default 下对于模型 gpt-9 无可用渠道' });
    const broke = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: BROKE_KEY });
    expect(await thrown(broke.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'insufficient_balance', gatewayMessage: '用户额度不足, 剩余额度: ＄0.000000' });
    env.gateway.setFault({ kind: 'rate-limit', retryAfter: 3 });
    expect(await thrown(env.client.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'rate_limited', retryAfter: 3, gatewayMessage: '您已达到请求数限制，请稍后再试' });
    env.gateway.setFault({ kind: 'server-error' });
    expect(await thrown(env.client.streamChat(ask('echo-1', 'x')))).toMatchObject({ kind: 'server', status: 500 });
  });

  it('an error inside the stream, after the text', async () => {
    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 1, thenDone: true });
    const events = await collect(env.client.streamChat(ask('echo-1', 'hello world')));
    expect(textOf(events)).toBe('Echo: he');
    expect(errorOf(events)).toMatchObject({ kind: 'server', gatewayMessage: '上游错误：上游服务关闭了连接' });
  });

  it('reset brings back the language it started with', async () => {
    env.gateway.reset();
    const bad = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: 'sk-wrong' });
    expect(await bad.listModels().catch((e: unknown) => e as GatewayError)).toMatchObject({ gatewayMessage: expect.stringMatching(/^Invalid API key/) });
  });
});

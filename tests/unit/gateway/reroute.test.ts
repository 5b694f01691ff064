/**
 * The preferred interface is a hint, Chat Completions the contract: a gateway that lists a vendor
 * interface for a model but has no route for it (404 or 405 before any reply) is asked again
 * through Chat Completions, and says so; a wrong address or a missing model is still that.
 */
import { describe, expect, it } from 'vitest';
import { createGatewayClient, type ApiStyle, type ChatRequest } from '@/lib/gateway';
import { routeNotServed } from '@/lib/gateway/client';
import { collect, lastOf, textOf, thrown } from './recordings';
import { referenceGatewayPerFile } from './reference';

const env = referenceGatewayPerFile();

const ask = (api: ApiStyle, model: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({ model, api, messages: [{ role: 'user', content: 'hello there' }], ...extra });
const paths = () => env.gateway.requests.map((r) => `${r.method} ${r.path}`);

describe('an interface the gateway lists but does not serve', () => {
  it.each([
    ['anthropic', 'claude-ref-1', 'POST /v1/messages', 'Claude: hello there'],
    ['gemini', 'gemini-ref-1', 'POST /v1beta/models/gemini-ref-1:streamGenerateContent', 'Gemini: hello there'],
    ['responses', 'echo-1', 'POST /v1/responses', 'Echo: hello there'],
  ] as const)('%s answering 404: the reply comes through Chat Completions, said first', async (api, model, route, answer) => {
    env.gateway.setUnserved([api === 'responses' ? 'openai-response' : api]);
    const events = await collect(env.client.streamChat(ask(api, model)));
    expect(events[0]).toEqual({ type: 'rerouted', from: api, status: 404 });
    expect(textOf(events)).toBe(answer);
    expect(lastOf(events)).toMatchObject({ type: 'done', finishReason: 'stop' });
    expect(paths()).toEqual([route, 'POST /v1/chat/completions']);
    // The same request, the key in the interface's own place each time.
    expect(env.gateway.requests.map((r) => r.key)).toEqual([env.gateway.demoKey, env.gateway.demoKey]);
  });

  it('405 too; and a reply not streamed', async () => {
    env.gateway.setUnserved(['anthropic'], 405);
    const events = await collect(env.client.streamChat(ask('anthropic', 'claude-ref-1', { stream: false })));
    expect(events[0]).toEqual({ type: 'rerouted', from: 'anthropic', status: 405 });
    expect(textOf(events)).toBe('Claude: hello there');
  });

  it('a missing model is not a missing route: no second request, the model named missing', async () => {
    const error = await thrown(env.client.streamChat(ask('anthropic', 'no-such-model')));
    expect(error.kind).toBe('model_not_found');
    expect(paths()).toEqual(['POST /v1/messages']);
  });

  it('a key refused is not a missing route', async () => {
    const client = createGatewayClient({ baseUrl: env.gateway.baseUrl, apiKey: 'sk-wrong-key-0000000000000000000000' });
    expect((await thrown(client.streamChat(ask('anthropic', 'claude-ref-1')))).kind).toBe('invalid_key');
    expect(paths()).toEqual(['POST /v1/messages']);
  });

  it('"the address is wrong" only when Chat Completions itself is not there', async () => {
    env.gateway.setUnserved(['anthropic']);
    const client = createGatewayClient({ baseUrl: `${env.gateway.baseUrl}/v1`, apiKey: env.gateway.demoKey });
    const events: string[] = [];
    const error = await thrown((async function* () {
      for await (const event of client.streamChat(ask('anthropic', 'claude-ref-1'))) {
        events.push(event.type);
        yield event;
      }
    })());
    expect(error.kind).toBe('bad_address');
    expect(error.url).toBe(`${env.gateway.baseUrl}/v1/chat/completions`);
    expect(events).toEqual(['rerouted']);
    // Chat Completions' own 404 is never asked again.
    expect(await thrown(client.streamChat(ask('chat', 'echo-1')))).toMatchObject({ kind: 'bad_address', status: 404 });
  });

  it('routeNotServed: only a 404 or 405 that names no model', async () => {
    const { GatewayError } = await import('@/lib/gateway');
    expect(routeNotServed(new GatewayError({ kind: 'bad_address', url: 'x', status: 404 }))).toBe(404);
    expect(routeNotServed(new GatewayError({ kind: 'bad_address', url: 'x', status: 405 }))).toBe(405);
    expect(routeNotServed(new GatewayError({ kind: 'bad_address', url: 'x', status: 301 }))).toBeUndefined();
    expect(routeNotServed(new GatewayError({ kind: 'model_not_found', url: 'x', status: 404 }))).toBeUndefined();
    expect(routeNotServed(new Error('404'))).toBeUndefined();
  });
});

/**
 * Anthropic's own SDK (`@anthropic-ai/sdk`) against the reference gateway, pointed at its site
 * address: proof that its Messages interface is the one real clients speak (messages, streams,
 * thinking with signatures sent back, the models list, error classes).
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BROKE_KEY, startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

let gateway: ReferenceGateway;
let sdk: Anthropic;

beforeAll(async () => {
  gateway = await startReferenceGateway();
  sdk = new Anthropic({ baseURL: gateway.siteUrl, apiKey: gateway.demoKey, maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});
beforeEach(() => gateway.reset());

describe('the Anthropic SDK against the reference gateway', () => {
  it('lists the models that offer the Messages interface', async () => {
    const ids: string[] = [];
    for await (const model of sdk.models.list()) ids.push(model.id);
    expect(ids).toEqual(['vision-1', 'claude-ref-1']);
  });

  it('creates a message (the SDK sends its key as a bearer token, which new-api also takes, and its version header)', async () => {
    const message = await sdk.messages.create({ model: 'claude-ref-1', max_tokens: 256, system: 'Be brief.', messages: [{ role: 'user', content: 'hello sdk' }] });
    const text = message.content.find((b) => b.type === 'text');
    expect(text?.type === 'text' && text.text).toBe('Claude: hello sdk');
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(gateway.requests.at(-1)).toMatchObject({ path: '/v1/messages', key: gateway.demoKey, query: '', anthropicVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
  });

  it('streams raw events: thinking, its signature, text, usage, stop reason', async () => {
    const stream = await sdk.messages.create({ model: 'claude-ref-1', max_tokens: 256, messages: [{ role: 'user', content: 'two words' }], stream: true });
    const seen = new Set<string>();
    let thinking = '';
    let text = '';
    let signature = '';
    let stop: string | null = null;
    for await (const event of stream) {
      seen.add(event.type);
      if (event.type === 'content_block_delta') {
        if (event.delta.type === 'thinking_delta') thinking += event.delta.thinking;
        if (event.delta.type === 'text_delta') text += event.delta.text;
        if (event.delta.type === 'signature_delta') signature += event.delta.signature;
      }
      if (event.type === 'message_delta') stop = event.delta.stop_reason;
    }
    expect([...seen]).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(thinking).toBe('Considering 2 words.');
    expect(text).toBe('Claude: two words');
    expect(signature.length).toBeGreaterThan(20);
    expect(stop).toBe('end_turn');
  });

  it('the stream helper gathers the final message, whose thinking block goes back signed in the next turn', async () => {
    const stream = sdk.messages.stream({ model: 'claude-ref-1', max_tokens: 256, messages: [{ role: 'user', content: 'first' }] });
    let deltas = '';
    stream.on('text', (delta) => {
      deltas += delta;
    });
    const first = await stream.finalMessage();
    expect(deltas).toBe('Claude: first');
    expect(first.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const next = await sdk.messages.create({
      model: 'claude-ref-1', max_tokens: 256,
      messages: [{ role: 'user', content: 'first' }, { role: 'assistant', content: first.content }, { role: 'user', content: 'second' }],
    });
    expect(next.content.at(-1)).toMatchObject({ type: 'text', text: 'Claude: second' });
  });

  it('max_tokens cuts the reply with stop_reason max_tokens', async () => {
    const message = await sdk.messages.create({ model: 'vision-1', max_tokens: 3, messages: [{ role: 'user', content: 'a long message' }] });
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'No image rec' });
  });

  it('takes an image as a base64 source block', async () => {
    const data = Buffer.from('fake png bytes').toString('base64');
    const message = await sdk.messages.create({
      model: 'claude-ref-1', max_tokens: 256,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }, { type: 'text', text: 'what is it?' }] }],
    });
    expect(message.content.at(-1)).toMatchObject({ text: 'Claude saw image 1: image/png, 14 bytes. You said: what is it?' });
  });

  it('maps the gateway\'s refusals to the SDK\'s error classes', async () => {
    const wrong = new Anthropic({ baseURL: gateway.siteUrl, apiKey: 'sk-wrong', maxRetries: 0 });
    const ask = { max_tokens: 16, messages: [{ role: 'user' as const, content: 'x' }] };
    await expect(wrong.messages.create({ model: 'claude-ref-1', ...ask })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    await expect(sdk.messages.create({ model: 'claude-9', ...ask })).rejects.toMatchObject({ status: 404, type: 'not_found_error' });
    await expect(sdk.messages.create({ model: 'echo-1', ...ask })).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    const broke = new Anthropic({ baseURL: gateway.siteUrl, apiKey: BROKE_KEY, maxRetries: 0 });
    await expect(broke.messages.create({ model: 'claude-ref-1', ...ask })).rejects.toBeInstanceOf(Anthropic.PermissionDeniedError);
    gateway.setFault({ kind: 'rate-limit', retryAfter: 5 });
    await expect(sdk.messages.create({ model: 'claude-ref-1', ...ask })).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    gateway.setFault({ kind: 'overloaded' });
    await expect(sdk.messages.create({ model: 'claude-ref-1', ...ask })).rejects.toMatchObject({ status: 529, type: 'overloaded_error' });
    gateway.setFault({ kind: 'server-error' });
    await expect(sdk.messages.create({ model: 'claude-ref-1', ...ask })).rejects.toBeInstanceOf(Anthropic.InternalServerError);
  });

  it('an error event mid-stream is thrown by the SDK after the text so far', async () => {
    gateway.setFault({ kind: 'midstream-error', afterChunks: 4, thenDone: false });
    const stream = sdk.messages.stream({ model: 'claude-ref-1', max_tokens: 256, messages: [{ role: 'user', content: 'hello world again' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    await expect(stream.finalMessage()).rejects.toMatchObject({ type: 'overloaded_error' });
    expect(text).toBe('Claude: ');
  });
});

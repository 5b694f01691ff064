/**
 * The official `openai` SDK against the reference gateway: proof that real clients accept it
 * (models, chat stream, Responses stream, error statuses).
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROKE_KEY, startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

let gateway: ReferenceGateway;
let sdk: OpenAI;

beforeAll(async () => {
  gateway = await startReferenceGateway();
  sdk = new OpenAI({ baseURL: gateway.baseUrl, apiKey: gateway.demoKey, maxRetries: 0 });
});
afterAll(async () => {
  await gateway.close();
});

describe('the openai SDK against the reference gateway', () => {
  it('lists models', async () => {
    const ids: string[] = [];
    for await (const model of sdk.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['echo-1', 'vision-1', 'responses-only-1', 'summarise-1']));
  });

  it('streams a chat completion with usage', async () => {
    const stream = await sdk.chat.completions.create({
      model: 'echo-1',
      messages: [{ role: 'user', content: 'hello sdk' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Echo: hello sdk');
    expect(finish).toBe('stop');
    expect(usage?.total_tokens).toBeGreaterThan(0);
  });

  it('accumulates a streamed completion with the SDK helper', async () => {
    const runner = sdk.chat.completions.stream({ model: 'echo-1', messages: [{ role: 'user', content: 'helper' }] });
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]?.message.content).toBe('Echo: helper');
  });

  it('returns a non-streamed completion', async () => {
    const completion = await sdk.chat.completions.create({ model: 'echo-1', messages: [{ role: 'user', content: 'plain' }] });
    expect(completion.choices[0]?.message.content).toBe('Echo: plain');
  });

  it('streams a Responses reply through the SDK\'s event helper', async () => {
    const stream = sdk.responses.stream({ model: 'responses-only-1', input: 'hello responses' });
    let deltas = '';
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expect(deltas).toBe('Responses: hello responses');
    expect(final.output_text).toBe('Responses: hello responses');
    expect(final.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('returns a non-streamed Responses reply', async () => {
    const response = await sdk.responses.create({ model: 'echo-1', input: 'plain responses' });
    expect(response.output_text).toBe('Echo: plain responses');
  });

  it('maps the seed\'s errors to the SDK\'s error classes', async () => {
    const badKey = new OpenAI({ baseURL: gateway.baseUrl, apiKey: 'sk-wrong', maxRetries: 0 });
    await expect(badKey.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(badKey.models.list()).rejects.toMatchObject({ status: 401, code: 'INVALID_API_KEY' });

    await expect(sdk.chat.completions.create({ model: 'gpt-9', messages: [{ role: 'user', content: 'x' }] }))
      .rejects.toBeInstanceOf(OpenAI.NotFoundError);

    const doubled = new OpenAI({ baseURL: `${gateway.baseUrl}/v1`, apiKey: gateway.demoKey, maxRetries: 0 });
    await expect(doubled.models.list()).rejects.toBeInstanceOf(OpenAI.NotFoundError);

    const broke = new OpenAI({ baseURL: gateway.baseUrl, apiKey: BROKE_KEY, maxRetries: 0 });
    await expect(broke.chat.completions.create({ model: 'echo-1', messages: [{ role: 'user', content: 'x' }] }))
      .rejects.toMatchObject({ status: 402, code: 'insufficient_balance' });

    gateway.setFault({ kind: 'rate-limit', retryAfter: 1 });
    await expect(sdk.chat.completions.create({ model: 'echo-1', messages: [{ role: 'user', content: 'x' }] }))
      .rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  it('surfaces a mid-stream error to the SDK', async () => {
    gateway.setFault({ kind: 'midstream-error', afterChunks: 1, thenDone: true });
    const stream = await sdk.chat.completions.create({ model: 'echo-1', messages: [{ role: 'user', content: 'hello world' }], stream: true });
    let text = '';
    const consume = async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    };
    await expect(consume()).rejects.toThrow(/upstream error/);
    expect(text).toBe('Echo: he');
  });
});

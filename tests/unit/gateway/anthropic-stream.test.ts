/** Anthropic Messages (`POST /v1/messages`): `event:` + `data:` pairs, no `[DONE]`. */
import { describe, expect, it } from 'vitest';
import { GatewayError, type ChatRequest } from '@/lib/gateway';
import { JSON_TYPE, errorOf, KEY, SITE, clientFor, collect, lastOf, reasoningOf, replay, streamOf, textOf } from './recordings';

const ask: ChatRequest = { model: 'claude-test', api: 'anthropic', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello' }] };

function ev(type: string, fields: Record<string, unknown> = {}, eol = '\n'): string {
  return `event: ${type}${eol}data: ${JSON.stringify({ type, ...fields })}${eol}${eol}`;
}

const start = ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-test', stop_reason: null, usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 4 } } });
const textBlock = (index: number) => ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
const text = (index: number, t: string) => ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
const stop = (index: number) => ev('content_block_stop', { index });
const messageDelta = (reason: string, output: number) => ev('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: output } });
const end = ev('message_stop');


describe('Anthropic Messages streams', () => {
  it('text deltas, usage from message_start + message_delta, stop_reason, pings ignored', async () => {
    const events = await streamOf({ chunks: [start, textBlock(0), ev('ping'), text(0, 'Hel'), text(0, 'lo'), stop(0), messageDelta('end_turn', 9), end] }, ask);
    expect(textOf(events)).toBe('Hello');
    const usage = events.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ usage: { promptTokens: 12, completionTokens: 9, totalTokens: 21, cachedTokens: 4 } });
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('extended thinking: thinking_delta is reasoning, signature_delta is not text; max_tokens is "length"', async () => {
    const events = await streamOf({
      chunks: [
        start,
        ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me think.' } }),
        ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAh' } }),
        stop(0), textBlock(1), text(1, 'Answer'), stop(1), messageDelta('max_tokens', 30), end,
      ],
    }, ask);
    expect(reasoningOf(events)).toBe('Let me think.');
    expect(textOf(events)).toBe('Answer');
    // The signature is not text: it comes with the end, to be sent back with the thinking.
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'length', signature: 'EqQBCgIYAh' });
  });

  it('tool-use blocks are tolerated: their JSON is not the reply', async () => {
    const events = await streamOf({
      chunks: [start, textBlock(0), text(0, 'Checking.'), stop(0), ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 't1', name: 'get_weather', input: {} } }),
        ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }), stop(1), messageDelta('tool_use', 5), end],
    }, ask);
    expect(textOf(events)).toBe('Checking.');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('CRLF framing and a missing final blank line', async () => {
    const events = await streamOf({ chunks: [start.replace(/\n/g, '\r\n'), textBlock(0), text(0, 'Hi').replace(/\n/g, '\r\n'), messageDelta('end_turn', 2), 'event: message_stop\r\ndata: {"type":"message_stop"}'] }, ask);
    expect(textOf(events)).toBe('Hi');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('an overloaded error mid-stream keeps the text and is a retryable server error', async () => {
    const events = await streamOf({ chunks: [start, textBlock(0), text(0, 'Part'), ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })] }, ask);
    expect(textOf(events)).toBe('Part');
    const error = errorOf(events);
    expect(error.kind).toBe('server');
    expect(error.type).toBe('overloaded_error');
    expect(error.gatewayMessage).toBe('Overloaded');
  });

  it('stop_reason "refusal" (Claude\'s safety classifiers): blocked, not done, with any text before it kept', async () => {
    const refused = await streamOf({ chunks: [start, messageDelta('refusal', 0), end] }, ask);
    expect(textOf(refused)).toBe('');
    expect(refused.map((e) => e.type)).toEqual(['usage', 'error']);
    expect(errorOf(refused)).toMatchObject({ kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'refusal' } } });

    const cut = await streamOf({ chunks: [start, textBlock(0), text(0, 'I can help with'), stop(0), messageDelta('refusal', 4), end] }, ask);
    expect(textOf(cut)).toBe('I can help with');
    expect(errorOf(cut).kind).toBe('content_blocked');

    const whole = await streamOf({
      headers: JSON_TYPE,
      chunks: [JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'I can help with' }], stop_reason: 'refusal', usage: { input_tokens: 3, output_tokens: 4 } })],
    }, { ...ask, stream: false });
    expect(textOf(whole)).toBe('I can help with');
    expect(errorOf(whole)).toMatchObject({ kind: 'content_blocked', detail: { params: { reason: 'refusal' } } });
  });

  it('a stream cut before message_stop is a dropped connection, with the text kept', async () => {
    const events = await streamOf({ chunks: [start, textBlock(0), text(0, 'Half')] }, ask);
    expect(textOf(events)).toBe('Half');
    expect(errorOf(events).kind).toBe('network');
  });

  it.each([
    [401, 'authentication_error', 'invalid x-api-key', 'invalid_key'],
    [429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit', 'rate_limited'],
    [529, 'overloaded_error', 'Overloaded', 'server'],
    [403, 'permission_error', 'Your API key does not have permission to use the specified resource.', 'permission_denied'],
    [404, 'not_found_error', 'model: claude-nope', 'model_not_found'],
    [400, 'invalid_request_error', 'messages: roles must alternate', 'bad_request'],
  ])('HTTP %i %s → %s', async (status, type, message, kind) => {
    const error = await streamOf({ status, headers: JSON_TYPE, chunks: [JSON.stringify({ type: 'error', error: { type, message } })] }, ask).then(errorOf, (thrown: unknown) => thrown as GatewayError);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.kind).toBe(kind);
    expect(error.gatewayMessage).toBe(message);
  });

  it('the request: /v1/messages, x-api-key and anthropic-version (no Authorization), system apart, max_tokens always, images as base64 blocks', async () => {
    const fake = replay({ chunks: [start, textBlock(0), text(0, 'ok'), messageDelta('end_turn', 1), end] });
    await collect(clientFor(fake).streamChat({ ...ask, messages: [...ask.messages, { role: 'assistant', content: 'hi' }, { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' }] }] }));
    const call = fake.calls[0]!;
    expect(call.url).toBe(`${SITE}/v1/messages`);
    const headers = call.init?.headers as Record<string, string>;
    expect(headers['x-api-key']).toBe(KEY);
    expect(headers['anthropic-version']).toBe('2023-06-01');
    expect(headers.Authorization).toBeUndefined();
    expect(call.url).not.toContain(KEY);
    const body = JSON.parse(String(call.init?.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'claude-test', system: 'Be brief.', max_tokens: 8192, stream: true });
    expect(body.messages).toEqual([
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] },
    ]);
  });

  it("the conversation's max tokens is sent as max_tokens", async () => {
    const fake = replay({ chunks: [start, end] });
    await collect(clientFor(fake).streamChat({ ...ask, maxTokens: 300, temperature: 0.2 }));
    expect(JSON.parse(String(fake.calls[0]!.init?.body))).toMatchObject({ max_tokens: 300, temperature: 0.2 });
  });

  it('a reply that was not streamed gives the same events', async () => {
    const events = await streamOf({
      headers: JSON_TYPE,
      chunks: [JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: 'x' }, { type: 'text', text: 'Done.' }], stop_reason: 'end_turn', usage: { input_tokens: 3, output_tokens: 4 } })],
    }, { ...ask, stream: false });
    expect(reasoningOf(events)).toBe('Hmm.');
    expect(textOf(events)).toBe('Done.');
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { promptTokens: 3, completionTokens: 4 } });
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop', signature: 'x' });
  });
});

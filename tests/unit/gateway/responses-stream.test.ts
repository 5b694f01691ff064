/** The Responses API (`POST /responses`): `event: <type>` + `data: <json>`, no `[DONE]`. */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '@/lib/gateway';
import { JSON_TYPE, errorOf, clientFor, collect, lastOf, reasoningOf, replay, streamOf, textOf } from './recordings';

const ask: ChatRequest = { model: 'gpt-test', api: 'responses', messages: [{ role: 'user', content: 'hello' }] };

let seq = 0;
function ev(type: string, fields: Record<string, unknown> = {}, withEventLine = true): string {
  const data = JSON.stringify({ type, sequence_number: seq++, ...fields });
  return withEventLine ? `event: ${type}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}

const usage = { input_tokens: 5, input_tokens_details: { cached_tokens: 1 }, output_tokens: 7, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 12 };
const opening = [
  ev('response.created', { response: { id: 'resp_1', status: 'in_progress', output: [] } }),
  ev('response.in_progress', { response: { id: 'resp_1', status: 'in_progress' } }),
  ev('response.output_item.added', { output_index: 0, item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] } }),
];
const completed = ev('response.completed', { response: { id: 'resp_1', status: 'completed', usage } });


describe('Responses API streams', () => {
  it('output_text deltas, then usage from response.completed, then done', async () => {
    const events = await streamOf({
      chunks: [...opening, ev('response.output_text.delta', { delta: 'Hel' }), ev('response.output_text.delta', { delta: 'lo' }), ev('response.output_text.done', { text: 'Hello' }), completed],
    }, ask);
    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 7, totalTokens: 12, reasoningTokens: 2, cachedTokens: 1, raw: usage } },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('reasoning summaries and reasoning text are reasoning', async () => {
    const events = await streamOf({
      chunks: [...opening, ev('response.reasoning_summary_text.delta', { delta: 'Plan: ' }), ev('response.reasoning_text.delta', { delta: 'add.' }), ev('response.output_text.delta', { delta: '4' }), completed],
    }, ask);
    expect(reasoningOf(events)).toBe('Plan: add.');
    expect(textOf(events)).toBe('4');
  });

  it('the type only in the data (no event: line)', async () => {
    const events = await streamOf({ chunks: [ev('response.output_text.delta', { delta: 'x' }, false), ev('response.completed', { response: { status: 'completed' } }, false)] }, ask);
    expect(textOf(events)).toBe('x');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('an error event after some text', async () => {
    const events = await streamOf({ chunks: [...opening, ev('response.output_text.delta', { delta: 'Hel' }), ev('error', { code: 'rate_limit_exceeded', message: 'Slow down', param: null })] }, ask);
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('rate_limited');
    expect(errorOf(events).gatewayMessage).toBe('Slow down');
  });

  it('response.failed with the response\'s error', async () => {
    const events = await streamOf({
      chunks: [...opening, ev('response.output_text.delta', { delta: 'Hel' }), ev('response.failed', { response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'The model failed.' } } })],
    }, ask);
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('server');
    expect(errorOf(events).code).toBe('server_error');
  });

  it('response.incomplete ends with its reason', async () => {
    const events = await streamOf({ chunks: [ev('response.output_text.delta', { delta: 'Hel' }), ev('response.incomplete', { response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } })] }, ask);
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'length' });
  });

  it('response.incomplete for content_filter: blocked, not done, with any text before it kept', async () => {
    const filtered = ev('response.incomplete', { response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'content_filter' }, usage } });
    const none = await streamOf({ chunks: [...opening, filtered] }, ask);
    expect(textOf(none)).toBe('');
    expect(none.map((e) => e.type)).toEqual(['usage', 'error']);
    expect(errorOf(none)).toMatchObject({ kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'content_filter' } } });

    const some = await streamOf({ chunks: [...opening, ev('response.output_text.delta', { delta: 'Hel' }), filtered] }, ask);
    expect(textOf(some)).toBe('Hel');
    expect(errorOf(some).kind).toBe('content_blocked');
  });

  it('a stream that ends without response.completed is not a silent end', async () => {
    const events = await streamOf({ chunks: [...opening, ev('response.output_text.delta', { delta: 'Hel' })] }, ask);
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('network');
  });

  it('POSTs {base_url}/responses with the seed\'s string input, or a list for a conversation', async () => {
    const fake = replay({ chunks: [completed] });
    await collect(clientFor(fake).streamChat(ask));
    expect(fake.calls[0]?.url).toBe('https://gw.example.com/v1/responses');
    expect(JSON.parse(String(fake.calls[0]?.init?.body))).toEqual({ model: 'gpt-test', input: 'hello', stream: true });

    await collect(clientFor(fake).streamChat({
      ...ask,
      maxTokens: 50,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
      ],
    }));
    expect(JSON.parse(String(fake.calls[1]?.init?.body))).toEqual({
      model: 'gpt-test',
      stream: true,
      instructions: 'Be brief.',
      max_output_tokens: 50,
      input: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: [{ type: 'input_text', text: 'And this?' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' }] },
      ],
    });
  });
});

describe('Responses API, not streamed', () => {
  const reply = {
    id: 'resp_1', object: 'response', status: 'completed',
    output: [
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Thought briefly.' }] },
      { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] },
    ],
    usage,
  };

  it('yields the same events as the stream', async () => {
    const fake = replay({ headers: JSON_TYPE, chunks: [JSON.stringify(reply)] });
    const events = await collect(clientFor(fake).streamChat({ ...ask, stream: false }));
    expect(events).toEqual([
      { type: 'reasoning', text: 'Thought briefly.' },
      { type: 'text', text: 'Hello' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 7, totalTokens: 12, reasoningTokens: 2, cachedTokens: 1, raw: usage } },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('an incomplete reply its filter stopped ends blocked, with its text', async () => {
    const filtered = { ...reply, status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
    const events = await collect(clientFor(replay({ headers: JSON_TYPE, chunks: [JSON.stringify(filtered)] })).streamChat({ ...ask, stream: false }));
    expect(textOf(events)).toBe('Hello');
    expect(errorOf(events)).toMatchObject({ kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'content_filter' } } });
  });

  it('a failed reply, with nothing received, is thrown like an HTTP error', async () => {
    const failed = { ...reply, status: 'failed', output: [], error: { code: 'server_error', message: 'boom' } };
    await expect(collect(clientFor(replay({ headers: JSON_TYPE, chunks: [JSON.stringify(failed)] })).streamChat({ ...ask, stream: false })))
      .rejects.toMatchObject({ kind: 'server', gatewayMessage: 'boom', code: 'server_error' });
  });

  it('a failed reply without an error object is an error event', async () => {
    const failed = { ...reply, status: 'failed', output: [], error: null };
    const events = await collect(clientFor(replay({ headers: JSON_TYPE, chunks: [JSON.stringify(failed)] })).streamChat({ ...ask, stream: false }));
    expect(lastOf(events)).toMatchObject({ type: 'error', error: { kind: 'server' } });
  });
});

/**
 * Tool calls on each interface: streams shaped as OpenAI, new-api, OpenRouter, Anthropic and
 * Gemini send them (ids, names, arguments in pieces, several calls in one turn), cut at every
 * byte into two reads; whole (non-streamed) replies; and each interface's request shape for
 * tools, calls and results.
 */
import { describe, expect, it } from 'vitest';
import { type ApiStyle, type ChatRequest, type StreamEvent, type ToolCall } from '@/lib/gateway';
import { anthropicBody } from '@/lib/gateway/interfaces/anthropic';
import { chatCompletionsBody } from '@/lib/gateway/interfaces/chat';
import { geminiBody, geminiSchema } from '@/lib/gateway/interfaces/gemini';
import { responsesBody } from '@/lib/gateway/interfaces/responses';
import { JSON_TYPE, chunk, clientFor, collect, lastOf, rawData, replay, textOf } from './recordings';

const ask = (api: ApiStyle): ChatRequest => ({ model: 'm', api, messages: [{ role: 'user', content: 'weather and time in Paris?' }] });

const WEATHER: ToolCall = { id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' };
const TIME: ToolCall = { id: 'call_t', name: 'get_time', arguments: '{"tz":"CET"}' };

function callsOf(events: StreamEvent[]): ToolCall[] {
  return events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
}

/** The body cut in two at every position: each cut gives the same events. */
async function atEveryCut(api: ApiStyle, body: string): Promise<StreamEvent[]> {
  const whole = await collect(clientFor(replay({ chunks: [body] })).streamChat(ask(api)));
  for (let at = 1; at < body.length; at++) {
    const split = await collect(clientFor(replay({ chunks: [body.slice(0, at), body.slice(at)] })).streamChat(ask(api)));
    expect(split, `cut at ${at}`).toEqual(whole);
  }
  return whole;
}

const ev = (type: string, fields: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;

describe('streamed tool calls, cut at every byte', () => {
  it('Chat Completions (OpenAI): two parallel calls, arguments in pieces, usage after, then [DONE]', async () => {
    const body = [
      chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"tz":"CET"}' } }] }),
      chunk({}, 'tool_calls'),
      rawData({ id: 'c1', choices: [], usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 } }),
      'data: [DONE]\n\n',
    ].join('');
    const events = await atEveryCut('chat', body);
    expect(callsOf(events)).toEqual([WEATHER, TIME]);
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_call', 'usage', 'done']);
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('Chat Completions through new-api from Gemini: every call at index 0 with its own id, arguments whole; text before the calls kept', async () => {
    const body = [
      chunk({ role: 'assistant', content: 'Checking both.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    const events = await atEveryCut('chat', body);
    expect(textOf(events)).toBe('Checking both.');
    expect(callsOf(events)).toEqual([WEATHER, TIME]);
  });

  it('Chat Completions (OpenRouter): the name repeated in every piece, no id: the name stands once and an id is given', async () => {
    const body = [
      ': OPENROUTER PROCESSING\n\n',
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city"' } }] }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: ':"Paris"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    const events = await atEveryCut('chat', body);
    expect(callsOf(events)).toEqual([{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
  });

  it('Responses: function_call items, argument deltas by item id, .done events, then response.completed', async () => {
    const item = (id: string, callId: string, name: string, args: string, status: string) => ({ type: 'function_call', id, call_id: callId, name, arguments: args, status });
    const body = [
      ev('response.created', { response: { id: 'resp_1', status: 'in_progress' } }),
      ev('response.output_item.added', { output_index: 0, item: item('fc_1', 'call_w', 'get_weather', '', 'in_progress') }),
      ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: '{"city":' }),
      ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: '"Paris"}' }),
      ev('response.function_call_arguments.done', { item_id: 'fc_1', output_index: 0, arguments: '{"city":"Paris"}' }),
      ev('response.output_item.done', { output_index: 0, item: item('fc_1', 'call_w', 'get_weather', '{"city":"Paris"}', 'completed') }),
      ev('response.output_item.added', { output_index: 1, item: item('fc_2', 'call_t', 'get_time', '', 'in_progress') }),
      ev('response.function_call_arguments.delta', { item_id: 'fc_2', output_index: 1, delta: '{"tz":"CET"}' }),
      ev('response.output_item.done', { output_index: 1, item: item('fc_2', 'call_t', 'get_time', '{"tz":"CET"}', 'completed') }),
      ev('response.completed', { response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 20, output_tokens: 9, total_tokens: 29 } } }),
    ].join('');
    const events = await atEveryCut('responses', body);
    expect(callsOf(events)).toEqual([WEATHER, TIME]);
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_call', 'usage', 'done']);
  });

  it('Anthropic: text, then tool_use blocks whose input comes as input_json_delta pieces; stop_reason tool_use', async () => {
    const body = [
      ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 20, output_tokens: 1 } } }),
      ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Checking both.' } }),
      ev('content_block_stop', { index: 0 }),
      ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'call_w', name: 'get_weather', input: {} } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '' } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } }),
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } }),
      ev('content_block_stop', { index: 1 }),
      ev('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'call_t', name: 'get_time', input: {} } }),
      ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"tz":"CET"}' } }),
      ev('content_block_stop', { index: 2 }),
      ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }),
      ev('message_stop', {}),
    ].join('');
    const events = await atEveryCut('anthropic', body);
    expect(textOf(events)).toBe('Checking both.');
    expect(callsOf(events)).toEqual([WEATHER, TIME]);
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });

  it('Gemini: functionCall parts, whole, two in one chunk and one more in the next', async () => {
    const data = (parts: unknown[], finish?: string) => rawData({ candidates: [{ content: { role: 'model', parts }, ...(finish === undefined ? {} : { finishReason: finish }), index: 0 }] });
    const body = [
      data([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { id: 'call_t', name: 'get_time', args: { tz: 'CET' } } }]),
      data([{ functionCall: { name: 'now', args: {} } }], 'STOP'),
    ].join('');
    const events = await atEveryCut('gemini', body);
    expect(callsOf(events)).toEqual([
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' }, TIME, { id: 'call_3', name: 'now', arguments: '{}' },
    ]);
  });
});

describe('whole (non-streamed) replies carry their calls', () => {
  const whole = async (api: ApiStyle, value: unknown) => collect(clientFor(replay({ chunks: [JSON.stringify(value)], headers: JSON_TYPE })).streamChat({ ...ask(api), stream: false }));

  it('on each interface', async () => {
    expect(callsOf(await whole('chat', { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' }] }))).toEqual([WEATHER]);
    expect(callsOf(await whole('responses', { status: 'completed', output: [{ type: 'function_call', id: 'fc_1', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' }] }))).toEqual([WEATHER]);
    expect(callsOf(await whole('anthropic', { type: 'message', content: [{ type: 'text', text: 'ok' }, { type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Paris' } }], stop_reason: 'tool_use' }))).toEqual([WEATHER]);
    expect(callsOf(await whole('gemini', { candidates: [{ content: { parts: [{ functionCall: { id: 'call_w', name: 'get_weather', args: { city: 'Paris' } } }] }, finishReason: 'STOP' }] }))).toEqual([WEATHER]);
  });
});

describe('what each interface is sent', () => {
  const tools = [{ name: 'get_weather', description: 'The weather in a city', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } }];
  const history: ChatRequest = {
    model: 'm', tools,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'weather and time in Paris?' },
      { role: 'assistant', content: 'Checking.', toolCalls: [WEATHER, TIME] },
      { role: 'tool', toolCallId: 'call_w', name: 'get_weather', content: 'Sunny' },
      { role: 'tool', toolCallId: 'call_t', name: 'get_time', content: 'denied', isError: true },
      { role: 'assistant', content: 'Sunny; the time was not given.' },
    ],
  };

  it('Chat Completions: tools as functions, tool_calls on the assistant turn, a tool message per result', () => {
    const body = chatCompletionsBody(history, true);
    expect(body.tools).toEqual([{ type: 'function', function: tools[0] }]);
    expect((body.messages as unknown[]).slice(2, 5)).toEqual([
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }, { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } }] },
      { role: 'tool', tool_call_id: 'call_w', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'call_t', content: 'denied' },
    ]);
  });

  it('Responses: function tools, function_call and function_call_output items', () => {
    const body = responsesBody(history, true);
    expect(body.tools).toEqual([{ type: 'function', ...tools[0] }]);
    expect((body.input as unknown[]).slice(1, 5)).toEqual([
      { role: 'assistant', content: 'Checking.' },
      { type: 'function_call', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_t', name: 'get_time', arguments: '{"tz":"CET"}' },
      { type: 'function_call_output', call_id: 'call_w', output: 'Sunny' },
    ]);
  });

  it('Anthropic: input_schema, tool_use blocks after the text, both results in one user turn', () => {
    const body = anthropicBody(history, true);
    expect(body.tools).toEqual([{ name: 'get_weather', description: 'The weather in a city', input_schema: tools[0]!.parameters }]);
    expect((body.messages as unknown[]).slice(1, 3)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'call_w', name: 'get_weather', input: { city: 'Paris' } }, { type: 'tool_use', id: 'call_t', name: 'get_time', input: { tz: 'CET' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_w', content: 'Sunny' }, { type: 'tool_result', tool_use_id: 'call_t', content: 'denied', is_error: true }] },
    ]);
  });

  it('Gemini: functionDeclarations with the schema words Gemini takes, functionCall parts, functionResponse parts in one turn', () => {
    const body = geminiBody(history);
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }] }]);
    expect((body.contents as unknown[]).slice(1, 3)).toEqual([
      { role: 'model', parts: [{ text: 'Checking.' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_time', args: { tz: 'CET' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'Sunny' } } }, { functionResponse: { name: 'get_time', response: { error: 'denied' } } }] },
    ]);
    // A list of types: one type, nullable; a string format Gemini refuses dropped, a number's kept.
    expect(geminiSchema({ type: 'object', properties: { site: { type: ['string', 'null'], format: 'uri' }, n: { type: 'integer', format: 'int32' }, at: { type: 'string', format: 'date-time' } } }))
      .toEqual({ type: 'object', properties: { site: { type: 'string', nullable: true }, n: { type: 'integer', format: 'int32' }, at: { type: 'string', format: 'date-time' } } });
    // A property named like a schema word is a field, kept.
    expect(geminiSchema({ type: 'object', properties: { additionalProperties: { type: 'string', $comment: 'x' } } })).toEqual({ type: 'object', properties: { additionalProperties: { type: 'string' } } });
  });

  // A reply stopped while its tool ran ends on the results: the next question follows them.
  const stopped: ChatRequest = {
    model: 'm', tools,
    messages: [
      { role: 'user', content: 'weather in Paris?' },
      { role: 'assistant', content: '', toolCalls: [WEATHER] },
      { role: 'tool', toolCallId: 'call_w', name: 'get_weather', content: 'stopped', isError: true },
      { role: 'user', content: 'never mind; hello' },
      // A reply that failed with no words is left out of the history: two questions in a row.
      { role: 'user', content: 'hello?' },
    ],
  };

  it('Anthropic: turns alternate (Bedrock refuses two user turns in a row); the results stay first in theirs', () => {
    const messages = anthropicBody(stopped, true).messages as { role: string; content: unknown }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_w', content: 'stopped', is_error: true },
      { type: 'text', text: 'never mind; hello' },
      { type: 'text', text: 'hello?' },
    ]);
  });

  it('Gemini: user and model turns alternate; the function responses stay first in theirs', () => {
    const contents = geminiBody(stopped).contents as { role: string; parts: unknown[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[2]!.parts).toEqual([
      { functionResponse: { name: 'get_weather', response: { error: 'stopped' } } },
      { text: 'never mind; hello' },
      { text: 'hello?' },
    ]);
  });
});

describe('assembly edge cases real gateways produce', () => {
  it('Responses: a call whose call_id comes only with .done stays one call (keyed by its item)', async () => {
    const body = [
      ev('response.output_item.added', { output_index: 0, item: { type: 'function_call', id: 'fc_1', name: 'get_weather', arguments: '' } }),
      ev('response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: '{"city":"Paris"}' }),
      ev('response.output_item.done', { output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_w', name: 'get_weather', arguments: '{"city":"Paris"}' } }),
      ev('response.completed', { response: { status: 'completed' } }),
    ].join('');
    expect(callsOf(await atEveryCut('responses', body))).toEqual([WEATHER]);
  });

  it('Chat: two whole calls at index 0 without ids are two calls', async () => {
    const body = [
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ].join('');
    expect(callsOf(await atEveryCut('chat', body))).toEqual([{ ...WEATHER, id: 'call_1' }, { ...TIME, id: 'call_2' }]);
  });
});

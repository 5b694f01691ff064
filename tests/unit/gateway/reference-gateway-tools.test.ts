/**
 * The reference gateway's tool calling through each of the four interfaces, over a real socket:
 * a marker in the question asks for a call, the result sent back is answered with, a refusal
 * (an error result) is answered without it, and a model that takes no tools refuses them.
 */
import { describe, expect, it } from 'vitest';
import { type ApiStyle, type ChatRequest, type ToolSpec } from '@/lib/gateway';
import { collect, textOf, thrown } from './recordings';
import { referenceGatewayPerFile } from './reference';

const env = referenceGatewayPerFile();

const TOOLS: ToolSpec[] = [
  { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'get_time', description: 'The time in a zone', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
];
const QUESTION = 'Weather? [[tool:get_weather {"city":"Paris"}]] [[tool:get_time {"tz":"CET"}]]';

describe.each(['chat', 'responses', 'anthropic', 'gemini'] as const)('through %s', (api: ApiStyle) => {
  const ask = (messages: ChatRequest['messages'], stream = true): ChatRequest => ({ model: 'vision-1', api, tools: TOOLS, messages, stream });

  it('answers the marker with both calls, then answers with the results it is sent', async () => {
    for (const stream of [true, false]) {
      const first = await collect(env.client.streamChat(ask([{ role: 'user', content: QUESTION }], stream)));
      const calls = first.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
      expect(calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([['get_weather', { city: 'Paris' }], ['get_time', { tz: 'CET' }]]);
      expect(first.at(-1)?.type).toBe('done');
      const second = await collect(env.client.streamChat(ask([
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: '', toolCalls: calls },
        { role: 'tool', toolCallId: calls[0]!.id, name: 'get_weather', content: 'Sunny, 21 °C' },
        { role: 'tool', toolCallId: calls[1]!.id, name: 'get_time', content: 'The user denied this call.', isError: true },
      ], stream)));
      const denied = api === 'anthropic' || api === 'gemini' ? 'Tool get_time was not run' : 'Tool get_time said';
      expect(textOf(second)).toBe(`Tool get_weather said: Sunny, 21 °C\n${denied}: The user denied this call.`);
    }
  });

  it('without the tools offered, the marker is only words', async () => {
    const events = await collect(env.client.streamChat({ model: 'vision-1', api, messages: [{ role: 'user', content: QUESTION }] }));
    expect(events.some((e) => e.type === 'tool_call')).toBe(false);
    expect(textOf(events)).toContain('You said: Weather?');
  });
});

it('a model that takes no tools refuses them with a 400 naming `tools`: our detail says so', async () => {
  const error = await thrown(env.client.streamChat({ model: 'legacy-1', tools: TOOLS, messages: [{ role: 'user', content: QUESTION }] }));
  expect(error).toMatchObject({ kind: 'bad_request', status: 400, detail: { code: 'tools_refused' } });
  const plain = await collect(env.client.streamChat({ model: 'legacy-1', messages: [{ role: 'user', content: 'hi' }] }));
  expect(textOf(plain)).toBe('Legacy: hi');
});

describe.each(['responses', 'anthropic', 'gemini'] as const)('the gateway\'s own web search through %s', (api) => {
  it('is asked for in the interface\'s shape, and the pages it cites come as sources', async () => {
    const events = await collect(env.client.streamChat({ model: 'vision-1', api, webSearch: true, messages: [{ role: 'user', content: 'Tides? [[search]]' }] }));
    expect(textOf(events)).toBe('Searched the web: 2 pages.');
    const sources = events.flatMap((e) => (e.type === 'sources' ? e.sources : []));
    expect(sources).toEqual([
      { url: 'https://search.example.org/tides', title: 'Tides, by the search' },
      { url: 'https://search.example.org/moon', title: 'The Moon, by the search' },
    ]);
    expect(events.at(-1)?.type).toBe('done');
    const tools = (env.gateway.requests.at(-1)!.body as { tools: unknown[] }).tools;
    expect(tools).toEqual([{ responses: { type: 'web_search' }, anthropic: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 }, gemini: { googleSearch: {} } }[api]]);
  });
});

it('Chat Completions has no search of its own: nothing is added', async () => {
  await collect(env.client.streamChat({ model: 'vision-1', webSearch: true, messages: [{ role: 'user', content: 'Tides? [[search]]' }] }));
  expect((env.gateway.requests.at(-1)!.body as { tools?: unknown }).tools).toBeUndefined();
});

/**
 * Streamed chat completions as real gateways send them, replayed through streamChat.
 * Each test is named after the behaviour it reproduces.
 */
import { describe, expect, it } from 'vitest';
import type { GatewayError} from '@/lib/gateway';
import { type StreamEvent } from '@/lib/gateway';
import { coalesce } from '@/lib/gateway/client';
import { JSON_TYPE, KEY, SSE, chunk, clientFor, collect, hello, lastOf, rawData, reasoningOf, replay, streamOf, textOf } from './recordings';

const hi = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }), chunk({}, 'stop')];

function errorOf(events: StreamEvent[]): GatewayError {
  const last = lastOf(events);
  if (last?.type !== 'error') throw new Error(`expected the last event to be an error, got ${JSON.stringify(last)}`);
  return last.error;
}

describe('framing', () => {
  it('a plain stream ends with [DONE]: text deltas in order, then done', async () => {
    const events = await streamOf({ chunks: [...hi, 'data: [DONE]\n\n'] });
    expect(events).toEqual([{ type: 'text', text: 'Hel' }, { type: 'text', text: 'lo' }, { type: 'done', finishReason: 'stop' }]);
  });

  it('CRLF line endings', async () => {
    const body = [...hi, 'data: [DONE]\n\n'].join('').replace(/\n/g, '\r\n');
    const events = await streamOf({ chunks: [body] });
    expect(textOf(events)).toBe('Hello');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('bare CR line endings', async () => {
    const body = [...hi, 'data: [DONE]\n\n'].join('').replace(/\n/g, '\r');
    expect(textOf(await streamOf({ chunks: [body] }))).toBe('Hello');
  });

  it('comment lines (: PING, : OPENROUTER PROCESSING, : keep-alive) are skipped', async () => {
    const events = await streamOf({
      chunks: [': OPENROUTER PROCESSING\n\n', ': PING\n\n', hi[1]!, ': keep-alive\n\n', `: ping - ${new Date(0).toISOString()}\n\n`, hi[2]!, hi[3]!, 'data: [DONE]\n\n'],
    });
    expect(textOf(events)).toBe('Hello');
    expect(lastOf(events)?.type).toBe('done');
  });

  it('data: without the space', async () => {
    const events = await streamOf({ chunks: [`data:${JSON.stringify({ choices: [{ delta: { content: 'x' } }] })}\n\n`, 'data:[DONE]\n\n'] });
    expect(textOf(events)).toBe('x');
    expect(lastOf(events)?.type).toBe('done');
  });

  it('events cut at every byte, inside multi-byte characters too', async () => {
    const body = [chunk({ content: '你好，' }), chunk({ content: 'wörld 👋🏽' }), chunk({}, 'stop'), 'data: [DONE]\n\n'].join('');
    const bytes = new TextEncoder().encode(body);
    for (const size of [1, 2, 3, 5, 7]) {
      const pieces: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.slice(i, i + size));
      let i = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = pieces[i++];
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
      });
      const fetch = (async () => new Response(stream, { headers: SSE })) as unknown as typeof globalThis.fetch;
      const events = await collect(clientFor({ fetch, calls: [] }).streamChat(hello));
      expect(textOf(events), `split every ${size} bytes`).toBe('你好，wörld 👋🏽');
      expect(lastOf(events)?.type).toBe('done');
    }
  });

  it('the last event lacks its closing blank line', async () => {
    const events = await streamOf({ chunks: [hi[1]!, hi[2]!, hi[3]!, 'data: [DONE]'] });
    expect(textOf(events)).toBe('Hello');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('no [DONE] at all after a finish_reason (LiteLLM, Gemini passthroughs) is still a clean end', async () => {
    const events = await streamOf({ chunks: hi });
    expect(textOf(events)).toBe('Hello');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('keep-alive words in data lines are not chunks', async () => {
    expect(textOf(await streamOf({ chunks: ['data: ping\n\n', ...hi, 'data: [DONE]\n\n'] }))).toBe('Hello');
  });
});

describe('empty choices and usage', () => {
  it('a first chunk with empty choices (Azure content filter, id "") is skipped', async () => {
    const filter = rawData({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] });
    const events = await streamOf({ chunks: [filter, ...hi, 'data: [DONE]\n\n'] });
    expect(events.map((e) => e.type)).toEqual(['text', 'text', 'done']);
  });

  it('usage in a final chunk with choices: [] (include_usage, new-api) becomes one usage event before done', async () => {
    const usage = { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11, completion_tokens_details: { reasoning_tokens: 0 }, prompt_tokens_details: { cached_tokens: 3 } };
    const events = await streamOf({ chunks: [...hi, rawData({ id: 'c1', choices: [], usage }), 'data: [DONE]\n\n'] });
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 9, completionTokens: 2, totalTokens: 11, reasoningTokens: 0, cachedTokens: 3, raw: usage } },
      { type: 'done', finishReason: 'stop' },
    ]);
  });

  it('usage riding on the finishing chunk, with extra keys (cost, timings)', async () => {
    const usage = { prompt_tokens: 4, completion_tokens: 6, total_tokens: 10, cost: 0.00042, timings: { predicted_ms: 12 } };
    const events = await streamOf({ chunks: [hi[1]!, chunk({}, 'stop', { usage }), 'data: [DONE]\n\n'] });
    const u = events.find((e) => e.type === 'usage');
    expect(u).toEqual({ type: 'usage', usage: { promptTokens: 4, completionTokens: 6, totalTokens: 10, cost: 0.00042, raw: usage } });
  });


  it('tool-call deltas (index starting at 1) do not break the stream', async () => {
    const tool = chunk({ content: null, tool_calls: [{ index: 1, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":' } }] });
    const tool2 = chunk({ tool_calls: [{ index: 1, function: { arguments: '"x"}' } }] });
    const events = await streamOf({ chunks: [hi[1]!, tool, tool2, chunk({}, 'tool_calls'), 'data: [DONE]\n\n'] });
    expect(textOf(events)).toBe('Hel');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'tool_calls' });
  });
});

describe('finish_reason content_filter: the model\'s filter blocked the reply', () => {
  /** Azure's account of which of its filters stopped the reply. */
  const filterResults = {
    hate: { filtered: true, severity: 'high' },
    self_harm: { filtered: false, severity: 'safe' },
    sexual: { filtered: false, severity: 'safe' },
    violence: { filtered: false, severity: 'safe' },
  };
  const usage = { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 };

  it('with no text: an error of its own kind naming the category, after the usage that follows it', async () => {
    const events = await streamOf({ chunks: [hi[0]!, chunk({}, 'content_filter'), rawData({ id: 'c1', choices: [], usage }), 'data: [DONE]\n\n'] });
    expect(textOf(events)).toBe('');
    expect(events.map((e) => e.type)).toEqual(['usage', 'error']);
    expect(errorOf(events)).toMatchObject({ kind: 'content_blocked', detail: { code: 'reply_blocked', params: { reason: 'content_filter' } } });

    const azure = rawData({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: {}, finish_reason: 'content_filter', content_filter_results: filterResults }] });
    const named = await streamOf({ chunks: [azure, 'data: [DONE]\n\n'] });
    expect(errorOf(named).detail).toEqual({ code: 'reply_blocked', params: { reason: 'content_filter', category: 'hate' } });
  });

  it('text that came before the block is kept; the reply still ends blocked, not done', async () => {
    const events = await streamOf({ chunks: [hi[1]!, hi[2]!, chunk({}, 'content_filter'), 'data: [DONE]\n\n'] });
    expect(textOf(events)).toBe('Hello');
    expect(errorOf(events).kind).toBe('content_blocked');
    // Without [DONE] after it too (LiteLLM, Gemini passthroughs).
    const cut = await streamOf({ chunks: [hi[1]!, chunk({}, 'content_filter')] });
    expect(textOf(cut)).toBe('Hel');
    expect(errorOf(cut).kind).toBe('content_blocked');
  });

  it('OpenRouter\'s native_finish_reason says which filter (Gemini\'s SAFETY behind content_filter)', async () => {
    const openrouter = rawData({ id: 'gen-1', choices: [{ index: 0, delta: { content: '' }, finish_reason: 'content_filter', native_finish_reason: 'SAFETY' }] });
    expect(errorOf(await streamOf({ chunks: [openrouter, 'data: [DONE]\n\n'] })).detail).toEqual({ code: 'reply_blocked', params: { reason: 'safety' } });
  });

  it('not streamed: the same error, with the text kept', async () => {
    const completion = (content: string | null) => JSON.stringify({
      id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'gpt-4o',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'content_filter', content_filter_results: filterResults }], usage,
    });
    const none = await collect(clientFor(replay({ headers: JSON_TYPE, chunks: [completion(null)] })).streamChat({ ...hello, stream: false }));
    expect(errorOf(none)).toMatchObject({ kind: 'content_blocked', detail: { params: { reason: 'content_filter', category: 'hate' } } });
    const some = await collect(clientFor(replay({ headers: JSON_TYPE, chunks: [completion('Part of it')] })).streamChat({ ...hello, stream: false }));
    expect(textOf(some)).toBe('Part of it');
    expect(errorOf(some).kind).toBe('content_blocked');
  });
});

describe('errors inside the stream: the text so far, then one error', () => {
  const midError = rawData({ error: { message: 'upstream error: bad_response_status_code', type: 'new_api_error', param: '', code: 'bad_response_status_code' } });

  it('data: {"error":…} followed by [DONE] (new-api, vLLM, llama.cpp)', async () => {
    const events = await streamOf({ chunks: [hi[1]!, hi[2]!, midError, 'data: [DONE]\n\n'] });
    expect(textOf(events)).toBe('Hello');
    expect(events.filter((e) => e.type === 'done')).toHaveLength(0);
    const error = errorOf(events);
    expect(error.kind).toBe('server');
    expect(error.code).toBe('bad_response_status_code');
  });

  it('data: {"error":…} then a usage chunk (new-api bills even after an upstream error)', async () => {
    const events = await streamOf({ chunks: [hi[1]!, midError, rawData({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }), 'data: [DONE]\n\n'] });
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('server');
  });

  it('data: {"error":…} with no [DONE] after it (OpenAI)', async () => {
    const events = await streamOf({ chunks: [hi[1]!, rawData({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } })] });
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('server');
  });

  it('event: error with a JSON body', async () => {
    const events = await streamOf({ chunks: [hi[1]!, `event: error\ndata: ${JSON.stringify({ error: { message: 'rate limited upstream', code: 'rate_limit_exceeded' } })}\n\n`] });
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('rate_limited');
  });

  it('event: error with plain text', async () => {
    const events = await streamOf({ chunks: [hi[1]!, 'event: error\ndata: upstream went away\n\n'] });
    const error = errorOf(events);
    expect(error.kind).toBe('server');
    expect(error.gatewayMessage).toBe('upstream went away');
  });

  it('OpenRouter: top-level error together with finish_reason "error"', async () => {
    const body = rawData({ id: 'gen-1', object: 'chat.completion.chunk', error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'X' } }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] });
    const events = await streamOf({ chunks: [hi[1]!, body] });
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).code).toBe('502');
  });

  it('finish_reason "error" without an error object', async () => {
    const events = await streamOf({ chunks: [hi[1]!, chunk({}, 'error')] });
    expect(errorOf(events).kind).toBe('server');
  });

  it("llama.cpp's non-standard error: field", async () => {
    const events = await streamOf({ chunks: [hi[1]!, `error: ${JSON.stringify({ code: 500, message: 'context shift is disabled', type: 'server_error' })}\n\n`] });
    expect(textOf(events)).toBe('Hel');
    const error = errorOf(events);
    expect(error.kind).toBe('server');
    expect(error.gatewayMessage).toBe('context shift is disabled');
  });

  it('{"error": "<string>"} mid-stream', async () => {
    const events = await streamOf({ chunks: [hi[1]!, rawData({ error: 'model overloaded' })] });
    expect(errorOf(events).gatewayMessage).toBe('model overloaded');
  });

  it('a model withdrawn mid-conversation, reported inside the stream, is model_not_found', async () => {
    const events = await streamOf({ chunks: [rawData({ error: { message: 'model does not exist: gpt-9', code: 'model_not_found' } })] });
    expect(errorOf(events).kind).toBe('model_not_found');
  });

  it('the key is redacted from errors inside the stream', async () => {
    const events = await streamOf({ chunks: [rawData({ error: { message: `bad key ${KEY}`, code: 'invalid_api_key' } })] });
    const error = errorOf(events);
    expect(error.kind).toBe('invalid_key');
    expect(JSON.stringify(error) + error.message).not.toContain(KEY);
  });
});

describe('broken streams keep what arrived', () => {
  it('a dropped connection: text so far, then a network error', async () => {
    const events = await streamOf({ chunks: [hi[1]!, hi[2]!], failAfter: new TypeError('terminated') });
    expect(textOf(events)).toBe('Hello');
    const error = errorOf(events);
    expect(error.kind).toBe('network');
    expect(error.detail?.code).toBe('connection_dropped');
  });

  it('a clean close with neither finish_reason nor [DONE] is not a silent end', async () => {
    const events = await streamOf({ chunks: [hi[1]!] });
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('network');
    expect(errorOf(events).detail).toEqual({ code: 'connection_dropped', params: { origin: 'https://gw.example.com' } });
  });

  it('a cut-off JSON chunk is bad_response after the text so far', async () => {
    const events = await streamOf({ chunks: [hi[1]!, 'data: {"choices":[{"delta":{"content":"x"\n\n', hi[2]!] });
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('bad_response');
  });

  it('a chunk of the wrong shape is bad_response', async () => {
    const events = await streamOf({ chunks: [hi[1]!, rawData({ choices: 'nope' })] });
    expect(errorOf(events).kind).toBe('bad_response');
  });

  it('a stream that goes silent times out, keeping the text', async () => {
    const encoder = new TextEncoder();
    let sent = false;
    const stalls = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode(hi[1]!));
        }
        return new Promise<void>(() => undefined);
      },
    });
    const fetch = (async () => new Response(stalls, { headers: SSE })) as unknown as typeof globalThis.fetch;
    const events = await collect(clientFor({ fetch, calls: [] }, { limits: { idleTimeoutMs: 60 } }).streamChat(hello));
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('timeout');
  });

  it('the user stopping mid-stream gives the text so far, then aborted', async () => {
    const controller = new AbortController();
    const encoder = new TextEncoder();
    let n = 0;
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (n++ === 0) {
            c.enqueue(encoder.encode(hi[1]!));
            return;
          }
          return new Promise<void>((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
        },
      });
      return new Response(body, { headers: SSE });
    }) as unknown as typeof globalThis.fetch;
    const events: StreamEvent[] = [];
    for await (const event of clientFor({ fetch, calls: [] }).streamChat(hello, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('aborted');
  });

  it('a consumer that stops iterating cancels the body', async () => {
    let cancelled = false;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(encoder.encode(hi[1]!));
      },
      cancel() {
        cancelled = true;
      },
    });
    const fetch = (async () => new Response(body, { headers: SSE })) as unknown as typeof globalThis.fetch;
    for await (const event of clientFor({ fetch, calls: [] }).streamChat(hello)) {
      expect(event.type).toBe('text');
      break;
    }
    expect(cancelled).toBe(true);
  });
});

describe('reasoning', () => {
  it('delta.reasoning_content (DeepSeek, vLLM, new-api)', async () => {
    const events = await streamOf({ chunks: [chunk({ reasoning_content: 'Think ' }), chunk({ reasoning_content: 'hard.' }), chunk({ content: 'Answer' }), chunk({}, 'stop'), 'data: [DONE]\n\n'] });
    expect(events.slice(0, 3)).toEqual([{ type: 'reasoning', text: 'Think ' }, { type: 'reasoning', text: 'hard.' }, { type: 'text', text: 'Answer' }]);
  });

  it('delta.reasoning with reasoning_details duplicating it (OpenRouter): reasoning once', async () => {
    const events = await streamOf({ chunks: [chunk({ reasoning: 'Step 1.', reasoning_details: [{ type: 'reasoning.text', text: 'Step 1.' }] }), chunk({ content: 'Done' }), chunk({}, 'stop')] });
    expect(reasoningOf(events)).toBe('Step 1.');
    expect(textOf(events)).toBe('Done');
  });

  it('<think>…</think> inside the content, tags cut across chunks', async () => {
    const parts = ['<thi', 'nk>Let me', ' see.</th', 'ink>\n\nThe answer', ' is 4.'];
    const events = await streamOf({ chunks: [...parts.map((p) => chunk({ content: p })), chunk({}, 'stop')] });
    expect(reasoningOf(events)).toBe('Let me see.');
    expect(textOf(events)).toBe('The answer is 4.');
  });

  it('only a closing </think> (the server stripped the opening tag): the text before it becomes reasoning', async () => {
    const events = await streamOf({ chunks: [chunk({ content: 'Hmm, two' }), chunk({ content: ' plus two.' }), chunk({ content: '</think>Four.' }), chunk({}, 'stop')] });
    const moved = events.find((e) => e.type === 'reasoning');
    expect(moved).toEqual({ type: 'reasoning', text: '', movedFromText: true });
    // A consumer that applies movedFromText ends with this split:
    let text = '';
    let reasoning = '';
    for (const e of events) {
      if (e.type === 'text') text += e.text;
      if (e.type === 'reasoning') {
        if (e.movedFromText) {
          reasoning += text;
          text = '';
        }
        reasoning += e.text;
      }
    }
    expect(reasoning).toBe('Hmm, two plus two.');
    expect(text).toBe('Four.');
  });

  it('a <think> later in an answer is ordinary text', async () => {
    const events = await streamOf({ chunks: [chunk({ content: 'Use the <think> tag like so.' }), chunk({}, 'stop')] });
    expect(textOf(events)).toBe('Use the <think> tag like so.');
    expect(reasoningOf(events)).toBe('');
  });
});

describe('not streamed', () => {
  const completion = {
    id: 'c1', object: 'chat.completion', created: 1, model: 'gpt-test',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello', reasoning_content: 'Brief.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
  };

  it('stream: false yields the same events', async () => {
    const fake = replay({ headers: JSON_TYPE, chunks: [JSON.stringify(completion)] });
    const events = await collect(clientFor(fake).streamChat({ ...hello, stream: false }));
    expect(events).toEqual([
      { type: 'reasoning', text: 'Brief.' },
      { type: 'text', text: 'Hello' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4, raw: completion.usage } },
      { type: 'done', finishReason: 'stop' },
    ]);
    expect(JSON.parse(String(fake.calls[0]?.init?.body))).toMatchObject({ stream: false });
  });

  it('a gateway that ignores stream: true and answers JSON', async () => {
    const events = await streamOf({ headers: JSON_TYPE, chunks: [JSON.stringify(completion)] });
    expect(textOf(events)).toBe('Hello');
    expect(lastOf(events)).toEqual({ type: 'done', finishReason: 'stop' });
  });

  it('content as an array of text parts', async () => {
    const body = { choices: [{ message: { role: 'assistant', content: [{ type: 'text', text: 'A' }, { type: 'text', text: 'B' }] }, finish_reason: 'stop' }] };
    expect(textOf(await streamOf({ headers: JSON_TYPE, chunks: [JSON.stringify(body)] }))).toBe('AB');
  });

  it('a 200 JSON error body is thrown before any event', async () => {
    await expect(collect(clientFor(replay({ headers: JSON_TYPE, chunks: [JSON.stringify({ error: { message: 'insufficient balance', code: 'insufficient_balance' } })] })).streamChat(hello)))
      .rejects.toMatchObject({ kind: 'insufficient_balance' });
  });

  it('a 200 JSON without choices is bad_response', async () => {
    await expect(collect(clientFor(replay({ headers: JSON_TYPE, chunks: ['{"id":"x"}'] })).streamChat(hello)))
      .rejects.toMatchObject({ kind: 'bad_response' });
  });
});

describe('the request', () => {
  it('POSTs {base_url}/chat/completions with the bearer key, JSON body and include_usage', async () => {
    const fake = replay({ chunks: [...hi, 'data: [DONE]\n\n'] });
    await collect(clientFor(fake).streamChat({
      model: 'vision-x',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'data:image/png;base64,AAAA' }] },
      ],
      temperature: 0.2,
      maxTokens: 100,
    }));
    const call = fake.calls[0]!;
    expect(call.url).toBe('https://gw.example.com/v1/chat/completions');
    const headers = call.init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(headers['Content-Type']).toBe('application/json');
    expect(call.init?.redirect).toBe('manual');
    expect(JSON.parse(String(call.init?.body))).toEqual({
      model: 'vision-x',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      max_tokens: 100,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      ],
    });
  });

  it('includeUsage: false leaves stream_options out for strict servers', async () => {
    const fake = replay({ chunks: hi });
    await collect(clientFor(fake).streamChat({ ...hello, includeUsage: false }));
    expect(JSON.parse(String(fake.calls[0]?.init?.body))).not.toHaveProperty('stream_options');
  });
});

describe('a lone </think> after a code fence, whatever the network reads', () => {
  it('a fence in a chunk cut across two reads (the second read holds no backtick) still counts', async () => {
    const fenced = chunk({ content: 'The page:\n\n```html\n' });
    const cut = fenced.indexOf('```') + 3;
    const events = await streamOf({
      // More pieces between the fence and the tag than the watcher keeps in view.
      chunks: [fenced.slice(0, cut), fenced.slice(cut), ...Array.from({ length: 80 }, () => chunk({ content: 'line\n' })), chunk({ content: '</think>\n' }), chunk({ content: 'done' }), chunk({}, 'stop'), 'data: [DONE]\n\n'],
    });
    expect(reasoningOf(events)).toBe('');
    expect(textOf(events)).toBe(`The page:\n\n\`\`\`html\n${'line\n'.repeat(80)}</think>\ndone`);
  });
});

describe('what arrives together is handed on together', () => {
  it('adjacent text (and reasoning) pieces of one read become one event; a read apart stays apart', () => {
    const events: StreamEvent[] = [
      { type: 'reasoning', text: 'a' }, { type: 'reasoning', text: 'b' },
      { type: 'text', text: 'c' }, { type: 'text', text: 'd' }, { type: 'text', text: 'e' },
      { type: 'reasoning', text: 'f', movedFromText: true }, { type: 'reasoning', text: 'g' },
      { type: 'usage', usage: { raw: {} } }, { type: 'text', text: 'h' },
    ];
    coalesce(events);
    expect(events).toEqual([
      { type: 'reasoning', text: 'ab' },
      { type: 'text', text: 'cde' },
      { type: 'reasoning', text: 'fg', movedFromText: true },
      { type: 'usage', usage: { raw: {} } },
      { type: 'text', text: 'h' },
    ]);
  });
});

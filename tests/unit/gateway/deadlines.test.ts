/**
 * Every wait has an end, every body a size (issue 8, item 4), and an in-stream error keeps the
 * usage a gateway sends after it (item 8).
 */
import { describe, expect, it, vi } from 'vitest';
import { createGatewayClient, DEFAULT_LIMITS, GatewayError, type StreamEvent } from '@/lib/gateway';
import { startReferenceGateway } from '../../gateway/server';
import { JSON_TYPE, SSE, chunk, clientFor, collect, hello, lastOf, rawData, reasoningOf, replay, streamOf, textOf } from './recordings';

/**
 * A fetch whose body sends `first`, then one `tick` every `everyMs` for ever; like a real
 * fetch, aborting the request errors the body.
 */
function trickling(first: string, tick: string, everyMs: number, headers: Record<string, string>): typeof fetch {
  return (async (_url: RequestInfo | URL, init?: RequestInit) => {
    const encoder = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(first));
        timer = setInterval(() => controller.enqueue(encoder.encode(tick)), everyMs);
        init?.signal?.addEventListener('abort', () => {
          clearInterval(timer);
          controller.error(new DOMException('The operation was aborted.', 'AbortError'));
        });
      },
      cancel() {
        clearInterval(timer);
      },
    });
    return new Response(body, { headers });
  }) as typeof fetch;
}

function errorOf(events: StreamEvent[]): GatewayError {
  const last = lastOf(events);
  if (last?.type !== 'error') throw new Error(`expected an error last, got ${JSON.stringify(last)}`);
  return last.error;
}

describe('deadlines', () => {
  it('a /models body that trickles for ever ends as a timeout', async () => {
    const fetch = trickling('{"data":[', ' ', 20, JSON_TYPE);
    const client = clientFor({ fetch, calls: [] }, { limits: { bodyTimeoutMs: 150 } });
    const started = Date.now();
    const error = await client.listModels().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).kind).toBe('timeout');
    expect((error as GatewayError).detail).toEqual({ code: 'body_timeout', params: { seconds: 0.15 } });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a stream of nothing but ": ping" comments ends at the first-token deadline', async () => {
    const fetch = trickling(': PING\n\n', ': PING\n\n', 10, SSE);
    const events = await collect(clientFor({ fetch, calls: [] }, { limits: { firstTokenTimeoutMs: 150 } }).streamChat(hello));
    expect(events).toHaveLength(1);
    expect(errorOf(events).kind).toBe('timeout');
    expect(errorOf(events).detail).toEqual({ code: 'first_token_timeout', params: { seconds: 0.15 } });
  });

  it('comments after the reply began do not reset the idle deadline; the text so far is kept', async () => {
    const fetch = trickling(chunk({ content: 'Hel' }), ': OPENROUTER PROCESSING\n\n', 10, SSE);
    const events = await collect(clientFor({ fetch, calls: [] }, { limits: { idleTimeoutMs: 150 } }).streamChat(hello));
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).kind).toBe('timeout');
    expect(errorOf(events).detail).toEqual({ code: 'idle_timeout', params: { seconds: 0.15 } });
  });

  it('pieces that keep coming keep a slow reply alive past the idle deadline', async () => {
    const fetch = trickling(chunk({ content: 'a' }), chunk({ content: 'b' }), 20, SSE);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const events = await collect(clientFor({ fetch, calls: [] }, { limits: { idleTimeoutMs: 100 } }).streamChat(hello, { signal: controller.signal }));
    expect(textOf(events).length).toBeGreaterThan(5);
    expect(errorOf(events).kind).toBe('aborted');
  });

  it('a body that goes silent and ignores the abort still ends at the deadline, with the text so far', async () => {
    const encoder = new TextEncoder();
    const fetch = (async () => new Response(new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(chunk({ content: 'Hel' })));
      },
    }), { headers: SSE })) as typeof globalThis.fetch;
    const started = Date.now();
    const events = await collect(clientFor({ fetch, calls: [] }, { limits: { idleTimeoutMs: 150 } }).streamChat(hello));
    expect(textOf(events)).toBe('Hel');
    expect(errorOf(events).detail).toEqual({ code: 'idle_timeout', params: { seconds: 0.15 } });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('one timer keeps the deadline of a whole stream, not one per read', async () => {
    const reads = 500;
    let n = 0;
    const encoder = new TextEncoder();
    // Each pull is a read of its own, as a gateway sending a token at a time gives.
    const fetch = (async () => new Response(new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n === reads) controller.enqueue(encoder.encode('data: [DONE]\n\n'));
        if (n++ === reads) controller.close();
        else controller.enqueue(encoder.encode(chunk({ content: 'a' })));
      },
    }, { highWaterMark: 0 }), { headers: SSE })) as typeof globalThis.fetch;
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const events = await collect(clientFor({ fetch, calls: [] }).streamChat(hello));
      expect(textOf(events)).toBe('a'.repeat(reads));
      expect(lastOf(events)?.type).toBe('done');
      expect(timers.mock.calls.length).toBeLessThan(10);
    } finally {
      timers.mockRestore();
    }
  });
});

describe('a reply has a total duration (issue 28, item 5)', () => {
  it('by default a reply may take 30 minutes and hold 8 MiB', () => {
    expect(DEFAULT_LIMITS.totalTimeoutMs).toBe(30 * 60_000);
    expect(DEFAULT_LIMITS.maxReplyBytes).toBe(8 * 1024 * 1024);
  });

  it('a reply that keeps streaming past it ends as a timeout of its own; the text so far is kept', async () => {
    const fetch = trickling(chunk({ content: 'a' }), chunk({ content: 'b' }), 20, SSE);
    // A stop the test makes, so that a client without a total deadline ends too.
    const controller = new AbortController();
    const stop = setTimeout(() => controller.abort(), 3_000);
    const started = Date.now();
    const events = await collect(clientFor({ fetch, calls: [] }, { limits: { idleTimeoutMs: 100, totalTimeoutMs: 300 } }).streamChat(hello, { signal: controller.signal }));
    clearTimeout(stop);
    expect(errorOf(events).kind).toBe('timeout');
    expect(errorOf(events).detail).toEqual({ code: 'total_timeout', params: { minutes: 0.005 } });
    expect(textOf(events)).toMatch(/^ab{3,}$/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('it counts from asking: a gateway that does not answer ends there too', async () => {
    const hangs = (async (_url: RequestInfo | URL, init?: RequestInit) => new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
    })) as typeof fetch;
    const controller = new AbortController();
    const stop = setTimeout(() => controller.abort(), 3_000);
    const error = await collect(clientFor({ fetch: hangs, calls: [] }, { limits: { totalTimeoutMs: 200 } }).streamChat(hello, { signal: controller.signal })).catch((e: unknown) => e);
    clearTimeout(stop);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).detail).toEqual({ code: 'total_timeout', params: { minutes: 0.0033 } });
  });

  it('against the reference gateway: a slow reply ends at the total deadline with what arrived', async () => {
    const gateway = await startReferenceGateway({ pace: { delayMs: 40, chunkChars: 2 } });
    try {
      const client = createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: gateway.demoKey, limits: { totalTimeoutMs: 500 } });
      const events = await collect(client.streamChat({ model: 'echo-1', messages: [{ role: 'user', content: 'a question that takes a while to echo back' }] }));
      expect(errorOf(events).detail?.code).toBe('total_timeout');
      await expect.poll(() => gateway.requests.at(-1)?.stream?.cancelled).toBe(true);
      expect(gateway.requests.at(-1)?.stream?.sentText.startsWith(textOf(events))).toBe(true);
      expect(textOf(events).length).toBeGreaterThan(4);
    } finally {
      await gateway.close();
    }
  });
});

describe('size caps', () => {
  it('a JSON body over the cap is bad_response naming the size', async () => {
    const big = JSON.stringify({ data: Array.from({ length: 2000 }, (_, i) => ({ id: `model-${i}`, object: 'model' })) });
    const client = clientFor(replay({ headers: JSON_TYPE, chunks: [big.slice(0, 30_000), big.slice(30_000)] }), { limits: { maxBodyBytes: 32 * 1024 } });
    const error = await client.listModels().catch((e: unknown) => e);
    expect((error as GatewayError).kind).toBe('bad_response');
    expect((error as GatewayError).detail).toEqual({ code: 'body_too_large', params: { megabytes: 0.03 } });
  });

  it('a reply past its largest size keeps what came before and ends naming the size, counted in UTF-8 bytes', async () => {
    const chunks = Array.from({ length: 200 }, () => chunk({ content: '中'.repeat(100) }));
    const events = await collect(clientFor(replay({ chunks }), { limits: { maxReplyBytes: 30 * 1024 } }).streamChat(hello));
    // Three bytes a character.
    expect(textOf(events)).toBe('中'.repeat(10_240));
    expect(errorOf(events).kind).toBe('bad_response');
    expect(errorOf(events).detail).toEqual({ code: 'reply_too_large', params: { megabytes: 0.03 } });
  });

  it('the cap counts the reply and its reasoning, not the stream\'s JSON around them', async () => {
    const under = Array.from({ length: 40 }, (_, i) => chunk(i < 20 ? { reasoning_content: 'r'.repeat(10) } : { content: 'x'.repeat(10) }));
    const fits = await collect(clientFor(replay({ chunks: [...under, chunk({}, 'stop'), 'data: [DONE]\n\n'] }), { limits: { maxReplyBytes: 400 } }).streamChat(hello));
    expect(lastOf(fits)).toMatchObject({ type: 'done' });
    const over = await collect(clientFor(replay({ chunks: [...under, chunk({ content: 'y' }), chunk({}, 'stop'), 'data: [DONE]\n\n'] }), { limits: { maxReplyBytes: 400 } }).streamChat(hello));
    expect(textOf(over)).toBe('x'.repeat(200));
    expect(reasoningOf(over)).toBe('r'.repeat(200));
    expect(errorOf(over).detail?.code).toBe('reply_too_large');
  });

  it('a reply that passes the cap in the read that ends it still ends as too large', async () => {
    const events = await collect(clientFor(replay({ chunks: [chunk({ content: 'x'.repeat(100) }) + chunk({ content: 'y'.repeat(100) }) + chunk({}, 'stop') + 'data: [DONE]\n\n'] }), { limits: { maxReplyBytes: 150 } }).streamChat(hello));
    expect(textOf(events)).toBe(`${'x'.repeat(100)}${'y'.repeat(50)}`);
    expect(errorOf(events).detail?.code).toBe('reply_too_large');
  });

  it('a stream over the cap keeps its text and ends as bad_response naming the size', async () => {
    const chunks = Array.from({ length: 50 }, () => chunk({ content: 'x'.repeat(100) }));
    const events = await collect(clientFor(replay({ chunks }), { limits: { maxStreamBytes: 2048 } }).streamChat(hello));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(errorOf(events).kind).toBe('bad_response');
    expect(errorOf(events).detail?.code).toBe('stream_too_large');
  });
});

describe('an in-stream error followed by usage and [DONE] (new-api)', () => {
  it('the error stands and the usage is still reported', async () => {
    const events = await streamOf({
      chunks: [
        chunk({ content: 'Hel' }),
        rawData({ error: { message: 'upstream failed', type: 'upstream_error', code: 'bad_response_status_code' } }),
        rawData({ id: 'c1', choices: [], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }),
        'data: [DONE]\n\n',
      ],
    });
    expect(textOf(events)).toBe('Hel');
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ usage: { promptTokens: 5, completionTokens: 1, totalTokens: 6 } });
    expect(errorOf(events)).toMatchObject({ kind: 'server', code: 'bad_response_status_code' });
  });

  it('text after the error is not taken as the reply', async () => {
    const events = await streamOf({ chunks: [chunk({ content: 'ok' }), rawData({ error: { message: 'boom' } }), chunk({ content: ' late' }), 'data: [DONE]\n\n'] });
    expect(textOf(events)).toBe('ok');
    expect(errorOf(events).gatewayMessage).toBe('boom');
  });

  it('a stream left open after its error ends within a moment, with the error', async () => {
    const fetch = trickling(`${chunk({ content: 'ok' })}${rawData({ error: { message: 'boom' } })}`, ': ping\n\n', 50, SSE);
    const started = Date.now();
    const events = await collect(clientFor({ fetch, calls: [] }).streamChat(hello));
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(errorOf(events).gatewayMessage).toBe('boom');
  });
});

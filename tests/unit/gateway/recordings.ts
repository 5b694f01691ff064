/**
 * Helpers to replay reconstructed gateway responses through `createGatewayClient` without a
 * network: a `fetch` that answers with a recorded status, headers and body, the body cut into
 * the chunks given (so tests choose where a network read splits an event).
 */
import { expect } from 'vitest';
import { GatewayError, createGatewayClient, type ChatRequest, type GatewayClient, type StreamEvent } from '@/lib/gateway';

export const SITE = 'https://gw.example.com';
export const BASE = `${SITE}/v1`;
export const KEY = 'sk-test-abcdefghijklmnopqrstuvwxyz012345';

export interface Recording {
  status?: number;
  headers?: Record<string, string>;
  /** Body pieces, delivered as separate reads. */
  chunks?: string[];
  /** Throw this error after delivering the chunks (a dropped connection). */
  failAfter?: Error;
}

export const SSE = { 'content-type': 'text/event-stream' };
export const JSON_TYPE = { 'content-type': 'application/json' };

export function bodyStream(chunks: string[], failAfter?: Error): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[i++];
      if (next !== undefined) controller.enqueue(encoder.encode(next));
      else if (failAfter !== undefined) controller.error(failAfter);
      else controller.close();
    },
  });
}

export interface FakeFetch {
  fetch: typeof fetch;
  calls: { url: string; init: RequestInit | undefined }[];
}

export function replay(...recordings: Recording[]): FakeFetch {
  const calls: FakeFetch['calls'] = [];
  let n = 0;
  const fake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init });
    const rec = recordings[Math.min(n++, recordings.length - 1)] ?? {};
    if (init?.signal?.aborted === true) throw new DOMException('aborted', 'AbortError');
    return new Response(bodyStream(rec.chunks ?? [], rec.failAfter), { status: rec.status ?? 200, headers: rec.headers ?? SSE });
  }) as typeof fetch;
  return { fetch: fake, calls };
}

export function clientFor(fake: FakeFetch, overrides: Partial<Parameters<typeof createGatewayClient>[0]> = {}): GatewayClient {
  return createGatewayClient({ baseUrl: BASE, apiKey: KEY, fetch: fake.fetch, ...overrides });
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

export const hello: ChatRequest = { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] };

/** Replays one recording through streamChat and returns the events. */
export async function streamOf(rec: Recording, request: ChatRequest = hello): Promise<StreamEvent[]> {
  return collect(clientFor(replay(rec)).streamChat(request));
}

export function textOf(events: StreamEvent[]): string {
  return events.filter((e) => e.type === 'text').map((e) => e.text).join('');
}

export function reasoningOf(events: StreamEvent[]): string {
  return events.filter((e) => e.type === 'reasoning').map((e) => e.text).join('');
}

/** The error a stream ended with (it must end with one). */
/** The GatewayError a stream threw (a refusal before any reply). */
export async function thrown(events: AsyncIterable<StreamEvent>): Promise<GatewayError> {
  try {
    await collect(events);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a thrown GatewayError');
}

/** The error a stream ended with (after whatever it delivered). */
export function errorOf(events: StreamEvent[]) {
  const last = lastOf(events);
  if (last?.type !== 'error') throw new Error(`expected an error last, got ${JSON.stringify(last)}`);
  return last.error;
}

export function lastOf(events: StreamEvent[]): StreamEvent | undefined {
  return events[events.length - 1];
}

/** `data: {json}\n\n` for a chat chunk with the given delta. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'gpt-test', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}

export function rawData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** The GatewayError `promise` rejects with (failing the test if it resolves, or rejects with anything else). */
export async function thrownGatewayError(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw new Error(`expected a GatewayError, got ${String(error)}`, { cause: error });
  }
  throw new Error('expected a thrown GatewayError');
}

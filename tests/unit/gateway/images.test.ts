/**
 * The image client (issue 30): `/images/generations` and `/images/edits` as new-api and OpenAI
 * answer them (both result forms, streamed events, a JSON answer to a stream request), every
 * error shape, the image deadline, and `fetchImage` (no key, no cookies, a size, a deadline).
 */
import { describe, expect, it } from 'vitest';
import { GatewayError, type GatewayClient, type ImageEvent } from '@/lib/gateway';
import { BASE, JSON_TYPE, KEY, SITE, SSE, clientFor, replay, type Recording } from './recordings';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PNG_BYTES = Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0));
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA';
const PARTIAL = 'iVBORw0KGgoPARTIAL';

async function all(events: AsyncIterable<ImageEvent>): Promise<ImageEvent[]> {
  const out: ImageEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

async function thrownBy(events: AsyncIterable<ImageEvent>): Promise<GatewayError> {
  try {
    await all(events);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected a thrown GatewayError');
}

function lastError(events: ImageEvent[]): GatewayError {
  const last = events.at(-1);
  if (last?.type !== 'error') throw new Error(`expected an error last, got ${JSON.stringify(last)}`);
  return last.error;
}

const json = (status: number, body: unknown): Recording => ({ status, headers: JSON_TYPE, chunks: [JSON.stringify(body)] });
const sse = (...chunks: string[]): Recording => ({ headers: SSE, chunks });
const event = (name: string, data: Record<string, unknown>): string => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
const usage = { total_tokens: 4200, input_tokens: 50, output_tokens: 4150, input_tokens_details: { text_tokens: 50, image_tokens: 0 } };

const cat = { model: 'gpt-image-1', prompt: 'a red cat' } as const;

function generate(rec: Recording | Recording[], request: Parameters<GatewayClient['generateImages']>[0] = cat, limits = {}) {
  const fake = replay(...(Array.isArray(rec) ? rec : [rec]));
  const client = clientFor(fake, { limits });
  return { events: client.generateImages(request), fake };
}

describe('generateImages: what is sent', () => {
  it('POST {base}/images/generations with the key, JSON, the options set and nothing else', async () => {
    const { events, fake } = generate(json(200, { created: 1, data: [{ b64_json: PNG }] }), {
      model: 'gpt-image-1', prompt: 'a red cat', n: 2, size: '1536x1024', quality: 'high', background: 'transparent', outputFormat: 'png', stream: true,
    });
    await all(events);
    expect(fake.calls).toHaveLength(1);
    const { url, init } = fake.calls[0]!;
    expect(url).toBe(`${BASE}/images/generations`);
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('omit');
    expect(init?.redirect).toBe('manual');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(init?.body as string)).toEqual({
      model: 'gpt-image-1', prompt: 'a red cat', n: 2, size: '1536x1024', quality: 'high', background: 'transparent', output_format: 'png', stream: true, partial_images: 2,
    });
  });

  it('a streamed request asks gpt-image for partial images; other models are sent only stream', async () => {
    const other = generate(json(200, { data: [{ b64_json: PNG }] }), { model: 'flux-1-schnell', prompt: 'p', stream: true });
    await all(other.events);
    expect(JSON.parse(other.fake.calls[0]!.init?.body as string)).toEqual({ model: 'flux-1-schnell', prompt: 'p', stream: true });
  });

  it('gpt-image is never sent response_format; DALL·E is asked for base64 and not to stream', async () => {
    const plain = generate(json(200, { data: [{ b64_json: PNG }] }), { model: 'gpt-image-1', prompt: 'p' });
    await all(plain.events);
    expect(JSON.parse(plain.fake.calls[0]!.init?.body as string)).toEqual({ model: 'gpt-image-1', prompt: 'p' });
    const dalle = generate(json(200, { data: [{ b64_json: PNG }] }), { model: 'dall-e-3', prompt: 'p', size: '1024x1792', quality: 'hd', stream: true });
    await all(dalle.events);
    expect(JSON.parse(dalle.fake.calls[0]!.init?.body as string)).toEqual({ model: 'dall-e-3', prompt: 'p', size: '1024x1792', quality: 'hd', response_format: 'b64_json' });
  });
});

describe('generateImages: a JSON answer', () => {
  it('base64 images in order, their type from their bytes, the revised prompt, usage, done', async () => {
    const { events } = generate(json(200, { created: 1, data: [{ b64_json: PNG, revised_prompt: 'A red cat on a mat' }, { b64_json: JPEG }], usage }));
    expect(await all(events)).toEqual([
      { type: 'image', index: 0, b64: PNG, mime: 'image/png', revisedPrompt: 'A red cat on a mat' },
      { type: 'image', index: 1, b64: JPEG, mime: 'image/jpeg' },
      { type: 'usage', usage: expect.objectContaining({ promptTokens: 50, completionTokens: 4150, totalTokens: 4200 }) },
      { type: 'done' },
    ]);
  });

  it('new-api sends both fields, one empty: the non-empty one is used', async () => {
    const { events } = generate(json(200, { data: [
      { url: '', b64_json: PNG, revised_prompt: '' },
      { url: 'https://files.example.net/img/abc.png?sig=secret', b64_json: '' },
    ] }));
    expect(await all(events)).toEqual([
      { type: 'image', index: 0, b64: PNG, mime: 'image/png' },
      { type: 'image', index: 1, url: 'https://files.example.net/img/abc.png?sig=secret', mime: 'image/png' },
      { type: 'done' },
    ]);
  });

  it('a data URI in b64_json gives its base64 and its type', async () => {
    const { events } = generate(json(200, { data: [{ b64_json: `data:image/png;base64,${PNG}` }, { b64_json: 'data:image/webp;base64,AAAA' }] }));
    expect(await all(events)).toEqual([
      { type: 'image', index: 0, b64: PNG, mime: 'image/png' },
      { type: 'image', index: 1, b64: 'AAAA', mime: 'image/webp' },
      { type: 'done' },
    ]);
  });

  it('a format asked for or named names a URL image\'s type', async () => {
    const { events } = generate(json(200, { data: [{ url: 'https://x.example/a' }], output_format: 'webp' }));
    expect((await all(events))[0]).toMatchObject({ type: 'image', mime: 'image/webp' });
    const asked = generate(json(200, { data: [{ url: 'https://x.example/a' }] }), { ...cat, outputFormat: 'jpeg' });
    expect((await all(asked.events))[0]).toMatchObject({ type: 'image', mime: 'image/jpeg' });
  });

  it('an answer without an image is no_image; a stream request answered with JSON is read as JSON', async () => {
    expect((await thrownBy(generate(json(200, { data: [] })).events)).detail).toEqual({ code: 'no_image' });
    expect((await thrownBy(generate(json(200, { data: [{ b64_json: '', url: '' }] })).events)).detail).toEqual({ code: 'no_image' });
    const { events } = generate(json(200, { data: [{ b64_json: PNG }] }), { ...cat, stream: true });
    expect(await all(events)).toEqual([{ type: 'image', index: 0, b64: PNG, mime: 'image/png' }, { type: 'done' }]);
  });
});

describe('generateImages: a streamed answer', () => {
  const stream = [
    ': keep-alive\n\n',
    event('image_generation.partial_image', { b64_json: PARTIAL, partial_image_index: 0, output_format: 'png', size: '1024x1024' }),
    event('image_generation.partial_image', { b64_json: `${PARTIAL}2`, partial_image_index: 1 }),
    event('image_generation.completed', { b64_json: PNG, output_format: 'png', usage }),
    'data: [DONE]\n\n',
  ];
  const expected: ImageEvent[] = [
    { type: 'partial', index: 0, b64: PARTIAL, mime: 'image/png' },
    { type: 'partial', index: 0, b64: `${PARTIAL}2`, mime: 'image/png' },
    { type: 'image', index: 0, b64: PNG, mime: 'image/png' },
    { type: 'usage', usage: expect.objectContaining({ totalTokens: 4200 }) as never },
    { type: 'done' },
  ];

  it('partial images, then the image, then usage and done; comments skipped', async () => {
    const { events, fake } = generate(sse(...stream), { ...cat, stream: true });
    expect(await all(events)).toEqual(expected);
    expect((fake.calls[0]!.init?.headers as Record<string, string>).Accept).toContain('text/event-stream');
  });

  it('the same with CRLF lines, events split at any read, [DONE] absent', async () => {
    const whole = stream.join('').replace(/\n/g, '\r\n');
    for (const at of [1, 7, 40, 120, whole.length - 3]) {
      const { events } = generate(sse(whole.slice(0, at), whole.slice(at)), { ...cat, stream: true });
      expect(await all(events), `split at ${at}`).toEqual(expected);
    }
    const { events } = generate(sse(...stream.slice(0, 4)), { ...cat, stream: true });
    expect(await all(events)).toEqual(expected);
  });

  it('two images: each partial belongs to the image being drawn; edits\' events are read alike', async () => {
    const { events } = generate(sse(
      event('image_edit.partial_image', { b64_json: PARTIAL, partial_image_index: 0 }),
      event('image_edit.completed', { b64_json: PNG }),
      event('image_edit.partial_image', { b64_json: PARTIAL, partial_image_index: 0 }),
      event('image_edit.completed', { b64_json: JPEG, usage }),
    ), { ...cat, n: 2, stream: true });
    expect((await all(events)).map((e) => [e.type, 'index' in e ? e.index : undefined])).toEqual([
      ['partial', 0], ['image', 0], ['partial', 1], ['image', 1], ['usage', undefined], ['done', undefined],
    ]);
  });

  it('a stream sent as text/plain or with no type is still read as a stream', async () => {
    for (const headers of [{ 'content-type': 'text/plain; charset=utf-8' }, {}] as Record<string, string>[]) {
      const { events } = generate({ headers, chunks: [event('image_generation.completed', { b64_json: PNG }), 'data: [DONE]\n\n'] }, { ...cat, stream: true });
      expect((await all(events)).map((e) => e.type), JSON.stringify(headers)).toEqual(['image', 'done']);
    }
  });

  it('events named only by their type field (no event: line), and a whole answer sent as one event', async () => {
    const { events } = generate(sse(
      `data: ${JSON.stringify({ type: 'image_generation.partial_image', b64_json: PARTIAL, partial_image_index: 0 })}\n\n`,
      `data: ${JSON.stringify({ type: 'image_generation.completed', b64_json: PNG })}\n\n`,
    ), { ...cat, stream: true });
    expect((await all(events)).map((e) => e.type)).toEqual(['partial', 'image', 'done']);
    const whole = generate(sse(`data: ${JSON.stringify({ created: 1, data: [{ b64_json: PNG, url: '' }] })}\n\n`, 'data: [DONE]\n\n'), { ...cat, stream: true });
    expect(await all(whole.events)).toEqual([{ type: 'image', index: 0, b64: PNG, mime: 'image/png' }, { type: 'done' }]);
  });

  it('an error event mid-stream ends it: what came is kept, then the error', async () => {
    const { events } = generate(sse(
      event('image_generation.partial_image', { b64_json: PARTIAL, partial_image_index: 0 }),
      `event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', code: 'moderation_blocked', param: null } })}\n\n`,
    ), { ...cat, stream: true });
    const got = await all(events);
    expect(got.map((e) => e.type)).toEqual(['partial', 'error']);
    expect(lastError(got)).toMatchObject({ kind: 'content_blocked', detail: { code: 'content_policy' } });
  });

  it('data: {"error":…} in the stream, and {"type":"error",code,message}', async () => {
    const plain = await all(generate(sse(`data: ${JSON.stringify({ error: { message: 'upstream error: 当前分组上游负载已饱和', type: 'new_api_error', code: 'bad_response_status_code' } })}\n\n`), { ...cat, stream: true }).events);
    expect(plain).toHaveLength(1);
    expect(lastError(plain).kind).toBe('server');
    expect(lastError(plain).gatewayMessage).toBe('upstream error: 当前分组上游负载已饱和');
    const typed = await all(generate(sse(`data: ${JSON.stringify({ type: 'error', code: 'invalid_value', param: 'size', message: 'Invalid value: \'9x9\'. Supported values are: \'1024x1024\' and \'auto\'.' })}\n\n`), { ...cat, stream: true }).events);
    expect(lastError(typed)).toMatchObject({ kind: 'bad_request', detail: { code: 'unsupported_option', params: { param: 'size', supported: '1024x1024, auto' } } });
  });

  it('a stream cut after partials is a dropped connection; one without anything is no_image; garbage is a broken stream', async () => {
    const cut = await all(generate(sse(event('image_generation.partial_image', { b64_json: PARTIAL, partial_image_index: 0 })), { ...cat, stream: true }).events);
    expect(cut.map((e) => e.type)).toEqual(['partial', 'error']);
    expect(lastError(cut).detail?.code).toBe('connection_dropped');
    const empty = await all(generate(sse(': ping\n\n', 'data: [DONE]\n\n'), { ...cat, stream: true }).events);
    expect(lastError(empty).detail).toEqual({ code: 'no_image' });
    const broken = await all(generate(sse('data: {"type":"image_generation.comp\n\n'), { ...cat, stream: true }).events);
    expect(lastError(broken)).toMatchObject({ kind: 'bad_response', detail: { code: 'chunk_not_json' } });
    const dropped = await all(generate({ headers: SSE, chunks: [event('image_generation.partial_image', { b64_json: PARTIAL })], failAfter: new TypeError('terminated') }, { ...cat, stream: true }).events);
    expect(lastError(dropped)).toMatchObject({ kind: 'network', detail: { code: 'connection_dropped' } });
  });
});

describe('generateImages: refusals', () => {
  it('content policy (new-api\'s shape) is thrown before any event: content_blocked, content_policy', async () => {
    const error = await thrownBy(generate(json(400, { error: { message: 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } })).events);
    expect(error).toMatchObject({ kind: 'content_blocked', status: 400, code: 'content_policy_violation', detail: { code: 'content_policy' } });
    expect(error.url).toBe(`${BASE}/images/generations`);
  });

  it('an unsupported size names the param and the sizes the model takes', async () => {
    const error = await thrownBy(generate(json(400, { error: { message: 'Invalid value: \'999x999\'. Supported values are: \'1024x1024\', \'1536x1024\', \'1024x1536\', and \'auto\'.', type: 'invalid_request_error', param: 'size', code: 'invalid_value' } })).events);
    expect(error).toMatchObject({ kind: 'bad_request', detail: { code: 'unsupported_option', params: { param: 'size', supported: '1024x1024, 1536x1024, 1024x1536, auto' } } });
  });

  it('codes that are numbers, empty or missing; Chinese messages; every kind chat knows', async () => {
    const cases: [Recording, string][] = [
      [json(401, { error: { message: '无效的令牌', type: 'new_api_error', param: '', code: '' } }), 'invalid_key'],
      [json(403, { error: { message: '用户额度不足, 剩余额度: $0.00', type: 'new_api_error' } }), 'insufficient_balance'],
      [json(503, { error: { message: '当前分组 default 下对于模型 gpt-image-1 无可用渠道', type: 'new_api_error', param: '', code: 'model_not_found' } }), 'model_not_found'],
      [json(404, { error: { message: 'The model `gpt-image-9` does not exist', type: 'invalid_request_error', param: 'model', code: null } }), 'model_not_found'],
      [json(429, { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 429 } }), 'rate_limited'],
      [json(500, { error: { message: 'upstream failed', type: 'upstream_error', param: null, code: 500 } }), 'server'],
      [json(400, { error: { message: '敏感词检测失败', type: 'new_api_error', code: 'sensitive_words_detected' } }), 'content_blocked'],
      [json(400, { error: { message: 'prompt is required' } }), 'bad_request'],
      [json(200, { error: { message: 'bad size', type: 'invalid_request_error', param: 'size', code: 'invalid_value' } }), 'bad_request'],
      [{ status: 502, headers: { 'content-type': 'text/html' }, chunks: ['<html><body>Bad Gateway</body></html>'] }, 'server'],
    ];
    for (const [rec, kind] of cases) {
      const error = await thrownBy(generate(rec).events);
      expect(error.kind, JSON.stringify(rec.chunks)).toBe(kind);
    }
  });

  it('a web page with status 200 is the wrong address', async () => {
    const error = await thrownBy(generate({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, chunks: ['<!doctype html><html><title>new-api</title></html>'] }).events);
    expect(error).toMatchObject({ kind: 'bad_address', detail: { code: 'web_page_not_api' } });
    const untyped = await thrownBy(generate({ status: 200, headers: {}, chunks: ['<!DOCTYPE html><html></html>'] }).events);
    expect(untyped).toMatchObject({ kind: 'bad_address', detail: { code: 'web_page_not_api' } });
  });

  it('a redirect is not followed (it would carry the key elsewhere)', async () => {
    const error = await thrownBy(generate({ status: 302, headers: { location: 'https://elsewhere.example/v1/images/generations' }, chunks: [] }).events);
    expect(error).toMatchObject({ kind: 'bad_address', detail: { code: 'redirected', params: { location: 'https://elsewhere.example/v1/images/generations' } } });
  });

  it('the key never stays in an error, even when the gateway repeats it', async () => {
    const error = await thrownBy(generate(json(401, { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error', code: 'invalid_api_key' } })).events);
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
  });

  it('stopped by the user: aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const client = clientFor(replay(json(200, { data: [{ b64_json: PNG }] })));
    const error = await thrownBy(client.generateImages(cat, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });
});

/** A fetch that answers (headers) after `delayMs`, with `body` chunks, then a ping every `pingMs` if asked. */
function slow(delayMs: number, chunks: string[], headers: Record<string, string>, pingMs?: number): typeof fetch {
  return (async (_url: RequestInfo | URL, init?: RequestInit) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      init?.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new DOMException('The operation was aborted.', 'AbortError'));
      });
    });
    const encoder = new TextEncoder();
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        if (pingMs === undefined) controller.close();
        else timer = setInterval(() => controller.enqueue(encoder.encode(': ping\n\n')), pingMs);
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

describe('the image deadline', () => {
  it('an image model\'s answer may come after the chat deadlines, within the image deadline', async () => {
    const client = clientFor({ fetch: slow(200, [JSON.stringify({ data: [{ b64_json: PNG }] })], JSON_TYPE), calls: [] }, {
      limits: { headersTimeoutMs: 50, firstTokenTimeoutMs: 50, idleTimeoutMs: 50, bodyTimeoutMs: 50, imageTimeoutMs: 2_000 },
    });
    expect((await all(client.generateImages(cat))).map((e) => e.type)).toEqual(['image', 'done']);
  });

  it('no answer within the image deadline: a timeout naming it', async () => {
    const client = clientFor({ fetch: slow(5_000, [], JSON_TYPE), calls: [] }, { limits: { imageTimeoutMs: 150 } });
    const started = Date.now();
    const error = await thrownBy(client.generateImages(cat));
    expect(error).toMatchObject({ kind: 'timeout', detail: { code: 'image_timeout', params: { seconds: 0.15 } } });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a stream of pings and no image ends at the image deadline', async () => {
    const client = clientFor({ fetch: slow(0, [': ping\n\n'], SSE, 10), calls: [] }, { limits: { imageTimeoutMs: 200, idleTimeoutMs: 50 } });
    const events = await all(client.generateImages({ ...cat, stream: true }));
    expect(lastError(events)).toMatchObject({ kind: 'timeout', detail: { code: 'image_timeout' } });
  });

  it('after an image, the next may take as long again', async () => {
    const client = clientFor({ fetch: slow(0, [event('image_generation.partial_image', { b64_json: PARTIAL })], SSE, 10), calls: [] }, { limits: { imageTimeoutMs: 200 } });
    const events = await all(client.generateImages({ ...cat, stream: true }));
    expect(events.map((e) => e.type)).toEqual(['partial', 'error']);
    expect(lastError(events).detail?.code).toBe('image_timeout');
  });
});

describe('editImages', () => {
  const image = new Blob([PNG_BYTES], { type: 'image/png' });
  const edited = { data: [{ b64_json: PNG }] };

  it('POST {base}/images/edits as multipart: image, prompt, model, options, stream; fetch sets the boundary', async () => {
    const fake = replay(json(200, edited));
    const events = await all(clientFor(fake).editImages({ model: 'gpt-image-1', prompt: 'make it blue', images: [image], size: '1024x1024', n: 1, outputFormat: 'webp', stream: true }));
    expect(events.map((e) => e.type)).toEqual(['image', 'done']);
    const { url, init } = fake.calls[0]!;
    expect(url).toBe(`${BASE}/images/edits`);
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('content-type');
    const form = init?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('prompt')).toBe('make it blue');
    expect(form.get('size')).toBe('1024x1024');
    expect(form.get('n')).toBe('1');
    expect(form.get('output_format')).toBe('webp');
    expect(form.get('stream')).toBe('true');
    expect(form.get('partial_images')).toBe('2');
    expect(form.get('response_format')).toBeNull();
    const sent = form.get('image') as File;
    expect(sent.type).toBe('image/png');
    expect(sent.name).toBe('image-1.png');
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(PNG_BYTES);
    // As it goes on the wire: multipart with its boundary.
    const request = new Request(url, { method: 'POST', body: form });
    expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('several images go as image[], with a mask', async () => {
    const fake = replay(json(200, edited));
    const mask = new Blob([PNG_BYTES], { type: 'image/png' });
    await all(clientFor(fake).editImages({ model: 'gpt-image-1', prompt: 'combine', images: [image, new Blob(['x'], { type: 'image/jpeg' })], mask }));
    const form = fake.calls[0]!.init?.body as FormData;
    expect(form.get('image')).toBeNull();
    expect((form.getAll('image[]') as File[]).map((f) => f.name)).toEqual(['image-1.png', 'image-2.jpg']);
    expect((form.get('mask') as File).name).toBe('mask.png');
    expect(form.get('stream')).toBeNull();
  });

  it('a streamed edit and a refusal read as for generations', async () => {
    const streamed = await all(clientFor(replay(sse(event('image_edit.partial_image', { b64_json: PARTIAL }), event('image_edit.completed', { b64_json: PNG }), 'data: [DONE]\n\n'))).editImages({ ...cat, images: [image], stream: true }));
    expect(streamed.map((e) => e.type)).toEqual(['partial', 'image', 'done']);
    const error = await thrownBy(clientFor(replay(json(400, { error: { message: 'Invalid image file', type: 'invalid_request_error', param: 'image', code: 'invalid_image_format' } }))).editImages({ ...cat, images: [image] }));
    expect(error.kind).toBe('bad_request');
    expect(error.detail).toBeUndefined();
    const missing = await thrownBy(clientFor(replay(json(404, { error: { message: 'The model `dall-e-9` does not exist', type: 'invalid_request_error', param: 'model', code: null } }))).editImages({ ...cat, images: [image] }));
    expect(missing.kind).toBe('model_not_found');
  });
});

describe('fetchImage', () => {
  const url = 'https://files.example.net/img/abc.png?se=2026&sig=SIGNED';

  it('GET with no key, no cookies and no referrer; a Blob of the image\'s type', async () => {
    const calls: { url: string; init: RequestInit | undefined }[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), init });
      return new Response(PNG_BYTES, { headers: { 'content-type': 'image/png' } });
    }) as typeof globalThis.fetch;
    const blob = await clientFor({ fetch, calls }).fetchImage(url);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
    const init = calls[0]!.init!;
    expect(calls[0]!.url).toBe(url);
    expect(init.credentials).toBe('omit');
    expect(init.referrerPolicy).toBe('no-referrer');
    expect(JSON.stringify(init.headers)).not.toContain(KEY);
    expect(Object.keys(init.headers as Record<string, string>).map((h) => h.toLowerCase())).not.toContain('authorization');
  });

  const answering = (response: () => Response): { fetch: typeof fetch; calls: [] } => ({ fetch: (async () => response()) as typeof fetch, calls: [] });

  it('the type from the bytes when the server says octet-stream or nothing', async () => {
    const blob = await clientFor(answering(() => new Response(PNG_BYTES, { headers: { 'content-type': 'application/octet-stream' } }))).fetchImage(url);
    expect(blob.type).toBe('image/png');
  });

  it('an expired address, or one that answers with a page, is image_download_failed (the signature not quoted)', async () => {
    const gone = await clientFor(answering(() => new Response('<Error>AuthenticationFailed</Error>', { status: 403, headers: { 'content-type': 'application/xml' } }))).fetchImage(url).catch((e: unknown) => e as GatewayError);
    expect(gone).toBeInstanceOf(GatewayError);
    expect((gone as GatewayError).detail).toEqual({ code: 'image_download_failed', params: { status: 403 } });
    expect((gone as GatewayError).url).toBe('https://files.example.net/img/abc.png');
    expect(JSON.stringify((gone as GatewayError).toJSON())).not.toContain('SIGNED');
    const page = await clientFor(answering(() => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }))).fetchImage(url).catch((e: unknown) => e as GatewayError);
    expect((page as GatewayError).detail).toEqual({ code: 'image_download_failed', params: { contentType: 'text/html' } });
  });

  it('a body past the largest size is refused; a body past its deadline times out', async () => {
    const big = await clientFor(answering(() => new Response(new Uint8Array(4096), { headers: { 'content-type': 'image/png' } })), { limits: { maxBodyBytes: 1024 } }).fetchImage(url).catch((e: unknown) => e as GatewayError);
    expect((big as GatewayError).detail?.code).toBe('body_too_large');
    const never = clientFor({ fetch: slow(0, ['x'], { 'content-type': 'image/png' }, 10), calls: [] }, { limits: { bodyTimeoutMs: 100 } });
    const late = await never.fetchImage(url).catch((e: unknown) => e as GatewayError);
    expect((late as GatewayError).kind).toBe('timeout');
    const noHeaders = clientFor({ fetch: slow(5_000, [], {}), calls: [] }, { limits: { headersTimeoutMs: 100 } });
    expect(((await noHeaders.fetchImage(url).catch((e: unknown) => e)) as GatewayError).kind).toBe('timeout');
  });

  it('a data: address is decoded here; other schemes are refused without a request', async () => {
    const calls: unknown[] = [];
    const client = clientFor({ fetch: (async (...args: unknown[]) => { calls.push(args); return new Response(''); }) as typeof fetch, calls: [] });
    const blob = await client.fetchImage(`data:image/png;base64,${PNG}`);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'data:text/html;base64,PGgxPg==']) {
      const error = await client.fetchImage(bad).catch((e: unknown) => e as GatewayError);
      expect(error, bad).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).detail?.code).toBe('image_download_failed');
    }
    expect(calls).toHaveLength(0);
  });

  it('the type is the bytes\' only: an SVG (said to be one, or said to be a PNG) is refused, by address or data: URI; a PNG said to be a JPEG is a PNG', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    for (const type of ['image/svg+xml', 'image/png']) {
      const error = await clientFor(answering(() => new Response(svg, { headers: { 'content-type': type } }))).fetchImage(url).catch((e: unknown) => e as GatewayError);
      expect(error, type).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).detail).toEqual({ code: 'image_download_failed', params: { contentType: type } });
    }
    const client = clientFor(answering(() => new Response('')));
    for (const type of ['image/svg+xml', 'image/png']) {
      const error = await client.fetchImage(`data:${type};base64,${Buffer.from(svg).toString('base64')}`).catch((e: unknown) => e as GatewayError);
      expect((error as GatewayError).detail?.code, type).toBe('image_download_failed');
    }
    expect((await client.fetchImage(`data:image/jpeg;base64,${PNG}`)).type).toBe('image/png');
  });

  it('the image client never sends the key anywhere but the gateway', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input), init });
      if (String(input).startsWith(SITE)) return new Response(JSON.stringify({ data: [{ url: 'https://cdn.example.org/x.png', b64_json: '' }] }), { headers: JSON_TYPE });
      return new Response(PNG_BYTES, { headers: { 'content-type': 'image/png' } });
    }) as typeof globalThis.fetch;
    const client = clientFor({ fetch, calls: [] });
    for await (const e of client.generateImages(cat)) if (e.type === 'image' && e.url !== undefined) await client.fetchImage(e.url);
    expect(seen.map((s) => new URL(s.url).origin)).toEqual([SITE, 'https://cdn.example.org']);
    expect(JSON.stringify(seen[1]!.init)).not.toContain(KEY);
  });
});

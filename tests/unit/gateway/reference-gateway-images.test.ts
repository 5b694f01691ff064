/**
 * The reference gateway's images (issue 30) over a real socket: `/v1/images/generations` and
 * `/v1/images/edits` answering real PNGs drawn from the prompt (b64_json, or an address that
 * expires), partial images streamed, new-api's refusals, per-call prices and billing, the fault
 * knobs on the image routes, and the Gemini-style chat model that streams a data-URI image.
 */
import { describe, expect, it } from 'vitest';
import { BROKE_KEY, startReferenceGateway } from '../../gateway/server';
import { CONTENT_POLICY_MESSAGE } from '../../gateway/images';
import { colourOf, drawPng, imageTag, readPng, readPngText } from '../../gateway/png';
import { collect, textOf } from './recordings';
import { referenceGatewayPerFile } from './reference';

const env = referenceGatewayPerFile();

function post(path: string, body: unknown, key: string = env.gateway.demoKey): Promise<Response> {
  return fetch(`${env.gateway.siteUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

function postForm(path: string, form: FormData, key: string = env.gateway.demoKey): Promise<Response> {
  return fetch(`${env.gateway.siteUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
}

interface ImageAnswer {
  created: number;
  data: { url: string; b64_json: string; revised_prompt: string }[];
  usage?: { total_tokens: number };
}

/** An SSE body's events: `{ event, data }`, `data` parsed unless it is `[DONE]`. */
async function sseEvents(res: Response): Promise<{ event: string | undefined; data: unknown }[]> {
  const text = await res.text();
  return text.split('\n\n').filter((block) => block.trim() !== '').map((block) => {
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
    return { event, data: data === '[DONE]' ? data : JSON.parse(data) as unknown };
  });
}

/** Content deltas of a streamed chat reply. */
async function contentDeltas(res: Response): Promise<string[]> {
  const events = await sseEvents(res);
  return events.flatMap(({ data }) => {
    const delta = (data as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
    return delta === undefined || delta === '' ? [] : [delta];
  });
}

const pngBlob = (png: Uint8Array): Blob => new Blob([new Uint8Array(png)], { type: 'image/png' });

const DATA_URI = /!\[image\]\(data:image\/png;base64,([A-Za-z0-9+/=]+)\)/;

describe('catalogue and prices', () => {
  it('lists the image models as new-api does, and the client reads them as image models', async () => {
    const res = await fetch(`${env.gateway.baseUrl}/models`, { headers: { authorization: `Bearer ${env.gateway.demoKey}` } });
    const { data } = await res.json() as { data: { id: string; owned_by: string; supported_endpoint_types: string[] }[] };
    const byId = new Map(data.map((m) => [m.id, m]));
    expect(byId.get('gpt-image-1')).toMatchObject({ owned_by: 'reference-openai', supported_endpoint_types: ['image-generation', 'openai'] });
    expect(byId.get('dall-e-3')).toMatchObject({ supported_endpoint_types: ['image-generation', 'openai'] });
    expect(byId.get('gemini-2.5-flash-image')).toMatchObject({ owned_by: 'reference-google', supported_endpoint_types: ['gemini', 'openai'] });
    const models = new Map((await env.client.listModels()).map((m) => [m.id, m]));
    expect(models.get('gpt-image-1')?.capabilities.imageGeneration).toBe(true);
    expect(models.get('dall-e-3')?.capabilities.imageGeneration).toBe(true);
    // A chat model that happens to answer with images: chosen for chat, not for Generate.
    expect(models.get('gemini-2.5-flash-image')?.capabilities).toMatchObject({ chat: true, imageGeneration: false, imageInput: true });
    expect(models.get('echo-1')?.capabilities.imageGeneration).toBe(false);
  });

  it('prices the image models per call (quota_type 1)', async () => {
    const res = await fetch(`${env.gateway.siteUrl}/api/pricing`);
    const { data } = await res.json() as { data: { model_name: string; quota_type: number; model_price: number }[] };
    expect(data.find((m) => m.model_name === 'gpt-image-1')).toMatchObject({ quota_type: 1, model_price: 0.04 });
    expect(data.find((m) => m.model_name === 'dall-e-3')).toMatchObject({ quota_type: 1, model_price: 0.08 });
    expect(data.find((m) => m.model_name === 'gemini-2.5-flash-image')).toMatchObject({ quota_type: 0 });
    const prices = await env.client.getPricing();
    expect(prices?.['gpt-image-1']).toEqual({ perRequest: 0.04, currency: 'USD' });
    expect(prices?.['dall-e-3']).toEqual({ perRequest: 0.08, currency: 'USD' });
  });

  it('an image model asked through chat is refused, pointing at the image routes', async () => {
    const res = await post('/v1/chat/completions', { model: 'gpt-image-1', messages: [{ role: 'user', content: 'a cat' }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'unsupported_endpoint', message: expect.stringContaining('/v1/images/generations') as string } });
    const chat = await post('/v1/images/generations', { model: 'echo-1', prompt: 'a cat' });
    expect(chat.status).toBe(400);
    expect(await chat.json()).toMatchObject({ error: { code: 'unsupported_endpoint' } });
  });
});

describe('generations', () => {
  it('two images at the size asked, drawn from the prompt, as b64_json (url empty), billed model_price × n', async () => {
    const before = env.gateway.balanceOf('demo');
    const prompt = 'a lighthouse at dusk';
    const res = await post('/v1/images/generations', { model: 'gpt-image-1', prompt, n: 2, size: '1536x1024', quality: 'low' });
    expect(res.status).toBe(200);
    const answer = await res.json() as ImageAnswer;
    expect(answer.data).toHaveLength(2);
    for (const [index, image] of answer.data.entries()) {
      expect(image.url).toBe('');
      const png = readPng(image.b64_json);
      expect(png).toMatchObject({ width: 1536, height: 1024, colour: colourOf(prompt) });
      expect(png.text).toEqual({ prompt, index: String(index) });
    }
    expect(answer.usage?.total_tokens).toBeGreaterThan(0);
    // $0.04 an image at 500,000 units a dollar.
    expect(before - env.gateway.balanceOf('demo')).toBeCloseTo(2 * 0.04 * 500_000, 6);
    const logged = env.gateway.requests.find((r) => r.path === '/v1/images/generations');
    expect(logged?.body).toMatchObject({ model: 'gpt-image-1', prompt, n: 2, size: '1536x1024' });
    expect(logged?.bearer).toBe(env.gateway.demoKey);
  });

  it('one image by default, 1024x1024; auto is 1024x1024; another prompt, another colour', async () => {
    const one = await (await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'red fox' })).json() as ImageAnswer;
    expect(one.data).toHaveLength(1);
    expect(readPng(one.data[0]!.b64_json)).toMatchObject({ width: 1024, height: 1024, text: { prompt: 'red fox' } });
    const auto = await (await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'blue whale', size: 'auto' })).json() as ImageAnswer;
    const png = readPng(auto.data[0]!.b64_json);
    expect(png).toMatchObject({ width: 1024, height: 1024 });
    expect(png.colour).not.toEqual(colourOf('red fox'));
  });

  it('dall-e-3 answers an address, served without a key until it expires', async () => {
    const prompt = 'a paper boat';
    const answer = await (await post('/v1/images/generations', { model: 'dall-e-3', prompt, size: '1792x1024' })).json() as ImageAnswer;
    const image = answer.data[0]!;
    expect(image.b64_json).toBe('');
    expect(image.revised_prompt).toContain(prompt);
    expect(image.url).toMatch(new RegExp(`^${env.gateway.siteUrl}/__images/[0-9a-f]+\\.png$`));
    const got = await fetch(image.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('access-control-allow-origin')).toBe('*');
    expect(readPng(new Uint8Array(await got.arrayBuffer()))).toMatchObject({ width: 1792, height: 1024, text: { prompt } });
    const fetched = env.gateway.requests.find((r) => r.path.startsWith('/__images/'));
    expect(fetched?.key).toBeUndefined();

    env.gateway.expireImages();
    expect((await fetch(image.url)).status).toBe(404);
    // Over HTTP too.
    const again = await (await post('/v1/images/generations', { model: 'dall-e-3', prompt })).json() as ImageAnswer;
    expect((await fetch(`${env.gateway.siteUrl}/__admin/expire-images`, { method: 'POST' })).status).toBe(200);
    expect((await fetch(again.data[0]!.url)).status).toBe(404);
  });

  it('response_format decides: gpt-image-1 as url, dall-e-3 as b64_json', async () => {
    const url = await (await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', response_format: 'url' })).json() as ImageAnswer;
    expect(url.data[0]).toMatchObject({ b64_json: '', url: expect.stringContaining('/__images/') as string });
    const b64 = await (await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'y', response_format: 'b64_json' })).json() as ImageAnswer;
    expect(readPngText(b64.data[0]!.b64_json).prompt).toBe('y');
  });

  it('an address expires by itself', async () => {
    const gateway = await startReferenceGateway({ imageUrlTtlMs: 50 });
    try {
      const res = await fetch(`${gateway.baseUrl}/images/generations`, {
        method: 'POST', headers: { authorization: `Bearer ${gateway.demoKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'dall-e-3', prompt: 'gone soon' }),
      });
      const url = ((await res.json()) as ImageAnswer).data[0]!.url;
      expect((await fetch(url)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect((await fetch(url)).status).toBe(404);
    } finally {
      await gateway.close();
    }
  });

  it('streams two smaller partial images then the image, per image, then [DONE]', async () => {
    const prompt = 'a streaming river';
    const res = await post('/v1/images/generations', { model: 'gpt-image-1', prompt, n: 2, size: '1024x1536', stream: true });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = await sseEvents(res);
    expect(events.map((e) => e.event ?? e.data)).toEqual([
      'image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed',
      'image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed',
      '[DONE]',
    ]);
    const data = events.slice(0, -1).map((e) => e.data as { type: string; b64_json: string; partial_image_index?: number; usage?: unknown });
    expect(data.map((d) => d.type)).toEqual(events.slice(0, -1).map((e) => e.event));
    expect(data.map((d) => d.partial_image_index)).toEqual([0, 1, undefined, 0, 1, undefined]);
    expect(readPng(data[0]!.b64_json)).toMatchObject({ width: 128, height: 192, text: { prompt, partial: '0' } });
    expect(readPng(data[1]!.b64_json).text.partial).toBe('1');
    expect(readPng(data[2]!.b64_json)).toMatchObject({ width: 1024, height: 1536, text: { prompt, index: '0' } });
    expect(readPng(data[5]!.b64_json).text.index).toBe('1');
    expect(data[5]!.usage).toMatchObject({ total_tokens: expect.any(Number) as number });
    expect(env.gateway.requests.at(-1)?.stream).toMatchObject({ finished: true, cancelled: false });
  });

  it('a model that does not stream answers JSON even when asked to stream', async () => {
    const res = await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'still', stream: true });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(((await res.json()) as ImageAnswer).data).toHaveLength(1);
  });
});

describe('refusals in new-api\'s shapes', () => {
  it('a forbidden prompt: content_policy_violation', async () => {
    const before = env.gateway.balanceOf('demo');
    const res = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'something Forbidden here' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: CONTENT_POLICY_MESSAGE, type: 'invalid_request_error', param: null, code: 'content_policy_violation' } });
    expect(CONTENT_POLICY_MESSAGE).toMatch(/^Your request was rejected as a result of our safety system/);
    expect(env.gateway.balanceOf('demo')).toBe(before);
  });

  it('a size the model does not take, naming the sizes it does', async () => {
    const res = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', size: '999x999' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: {
      message: "Invalid value: '999x999'. Supported values are: '1024x1024', '1536x1024', '1024x1536', and 'auto'.",
      type: 'invalid_request_error', param: 'size', code: 'invalid_value',
    } });
    const dalle = await (await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'x', size: '1536x1024' })).json();
    expect(dalle).toMatchObject({ error: { param: 'size', code: 'invalid_value', message: "Invalid value: '1536x1024'. Supported values are: '1024x1024', '1792x1024', and '1024x1792'." } });
  });

  it('a quality the model does not take', async () => {
    expect(await (await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'x', quality: 'high' })).json())
      .toEqual({ error: { message: "Invalid value: 'high'. Supported values are: 'standard' and 'hd'.", type: 'invalid_request_error', param: 'quality', code: 'invalid_value' } });
    expect((await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'x', quality: 'hd' })).status).toBe(200);
  });

  it('n: 1 to 4, and dall-e-3 only 1', async () => {
    expect(await (await post('/v1/images/generations', { model: 'dall-e-3', prompt: 'x', n: 2 })).json())
      .toEqual({ error: { message: "Invalid value: '2'. Supported values are: '1'.", type: 'invalid_request_error', param: 'n', code: 'invalid_value' } });
    const five = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', n: 5 });
    expect(five.status).toBe(400);
    expect(await five.json()).toMatchObject({ error: { param: 'n', code: 'invalid_value' } });
    const four = await (await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x', n: 4, size: '1024x1024' })).json() as ImageAnswer;
    expect(four.data).toHaveLength(4);
  });

  it('a missing prompt is a bad request', async () => {
    const res = await post('/v1/images/generations', { model: 'gpt-image-1' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'prompt' } });
  });
});

describe('the fault knobs on the image routes', () => {
  it('no channel (withdrawn), a spent balance, a bad key', async () => {
    env.gateway.withdraw('gpt-image-1');
    const missing = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'model_not_found' } });
    env.gateway.restore('gpt-image-1');
    const broke = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' }, BROKE_KEY);
    expect(broke.status).toBe(402);
    expect(await broke.json()).toMatchObject({ error: { code: 'insufficient_balance' } });
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'x');
    form.set('image', pngBlob(drawPng({ width: 4, height: 4, prompt: 'y' })), 'y.png');
    expect((await postForm('/v1/images/edits', form, BROKE_KEY)).status).toBe(402);
    expect((await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' }, 'sk-wrong')).status).toBe(401);
  });

  it('the balance runs out after enough images', async () => {
    env.gateway.setBalance('demo', 30_000);
    expect((await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' })).status).toBe(200);
    expect((await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' })).status).toBe(402);
  });

  it('a fault aimed at the image model: rate limit, server error, a slow first byte', async () => {
    env.gateway.setFault({ kind: 'rate-limit', retryAfter: 3 }, 1, 'gpt-image-1');
    env.gateway.setFault({ kind: 'server-error' }, 1, 'gpt-image-1');
    // The chat model is not the one aimed at.
    expect((await post('/v1/chat/completions', { model: 'echo-1', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200);
    const limited = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    // An edit's model is read from its multipart body.
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'x');
    form.set('image', pngBlob(drawPng({ width: 4, height: 4, prompt: 'y' })), 'y.png');
    expect((await postForm('/v1/images/edits', form)).status).toBe(500);
    env.gateway.setFault({ kind: 'slow-first-byte', delayMs: 150 }, 1, 'gpt-image-1');
    const started = Date.now();
    expect((await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'x' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('pace slows each event; a dropped stream ends early; a mid-stream error', async () => {
    env.gateway.setPace({ delayMs: 40 });
    const started = Date.now();
    await sseEvents(await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'slow', stream: true }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 40 - 10);
    env.gateway.setPace({ delayMs: 0 });

    env.gateway.setFault({ kind: 'drop', afterBytes: 300 });
    const dropped = await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'cut', stream: true });
    await expect(dropped.text()).rejects.toThrow();

    env.gateway.setFault({ kind: 'midstream-error', afterChunks: 1, thenDone: false });
    const events = await sseEvents(await post('/v1/images/generations', { model: 'gpt-image-1', prompt: 'fails', stream: true }));
    expect(events.map((e) => e.event)).toEqual(['image_generation.partial_image', 'error']);
    expect(events[1]!.data).toMatchObject({ type: 'error', error: { code: 'bad_response_status_code' } });
  });
});

describe('edits (multipart)', () => {
  it('draws the edit from the prompt and names the image edited; logs the fields and files', async () => {
    const original = drawPng({ width: 64, height: 64, prompt: 'a cat' });
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'the cat, now blue');
    form.set('size', '1024x1536');
    form.set('n', '2');
    form.set('image', pngBlob(original), 'cat.png');
    form.set('mask', pngBlob(drawPng({ width: 64, height: 64, prompt: 'mask' })), 'mask.png');
    const res = await postForm('/v1/images/edits', form);
    expect(res.status).toBe(200);
    const answer = await res.json() as ImageAnswer;
    expect(answer.data).toHaveLength(2);
    const png = readPng(answer.data[0]!.b64_json);
    expect(png).toMatchObject({ width: 1024, height: 1536, colour: colourOf('the cat, now blue') });
    expect(png.text).toMatchObject({ prompt: 'the cat, now blue', 'edit-of': imageTag(original) });
    const logged = env.gateway.requests.find((r) => r.path === '/v1/images/edits');
    expect(logged?.body).toEqual({
      model: 'gpt-image-1', prompt: 'the cat, now blue', size: '1024x1536', n: '2',
      image: { name: 'cat.png', type: 'image/png', bytes: original.length },
      mask: { name: 'mask.png', type: 'image/png', bytes: expect.any(Number) as number },
    });
  });

  it('several images as image[]: the first is the one edited, each is logged', async () => {
    const first = drawPng({ width: 8, height: 8, prompt: 'one' });
    const second = drawPng({ width: 8, height: 8, prompt: 'two' });
    const form = new FormData();
    form.append('model', 'gpt-image-1');
    form.append('prompt', 'both together');
    form.append('image[]', pngBlob(first), 'one.png');
    form.append('image[]', pngBlob(second), 'two.png');
    const answer = await (await postForm('/v1/images/edits', form)).json() as ImageAnswer;
    expect(readPngText(answer.data[0]!.b64_json)['edit-of']).toBe(imageTag(first));
    const logged = env.gateway.requests.find((r) => r.path === '/v1/images/edits');
    expect((logged?.body as Record<string, unknown>)['image[]']).toEqual([
      { name: 'one.png', type: 'image/png', bytes: first.length },
      { name: 'two.png', type: 'image/png', bytes: second.length },
    ]);
  });

  it('streams image_edit events', async () => {
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'streamed edit');
    form.set('stream', 'true');
    form.set('image', pngBlob(drawPng({ width: 8, height: 8, prompt: 'z' })), 'z.png');
    const events = await sseEvents(await postForm('/v1/images/edits', form));
    expect(events.map((e) => e.event ?? e.data)).toEqual(['image_edit.partial_image', 'image_edit.partial_image', 'image_edit.completed', '[DONE]']);
  });

  it('no image, a model that does not edit, a forbidden prompt, a JSON body', async () => {
    const form = (fields: Record<string, string>, image = true) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      if (image) f.set('image', pngBlob(drawPng({ width: 8, height: 8, prompt: 'z' })), 'z.png');
      return f;
    };
    const none = await postForm('/v1/images/edits', form({ model: 'gpt-image-1', prompt: 'x' }, false));
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: { param: 'image' } });
    expect(await (await postForm('/v1/images/edits', form({ model: 'dall-e-3', prompt: 'x' }))).json())
      .toMatchObject({ error: { param: 'model', code: 'invalid_value', message: "Invalid value: 'dall-e-3'. Supported values are: 'gpt-image-1'." } });
    expect(await (await postForm('/v1/images/edits', form({ model: 'gpt-image-1', prompt: 'forbidden edit' }))).json())
      .toMatchObject({ error: { code: 'content_policy_violation' } });
    expect((await post('/v1/images/edits', { model: 'gpt-image-1', prompt: 'x' })).status).toBe(400);
  });
});

describe('a Gemini-style image chat model', () => {
  const ask = (messages: unknown[], stream: boolean) => post('/v1/chat/completions', { model: 'gemini-2.5-flash-image', messages, stream });

  it('streams a line of text, then the image as a data URI in 64 kB content deltas', async () => {
    env.gateway.setImageChat({ bytes: 200_000 });
    const deltas = await contentDeltas(await ask([{ role: 'user', content: 'a green kite' }], true));
    const whole = deltas.join('');
    expect(whole.startsWith('Here is an image of a green kite.\n\n![image](data:image/png;base64,')).toBe(true);
    const base64 = DATA_URI.exec(whole)![1]!;
    const png = readPng(base64);
    expect(png).toMatchObject({ width: 512, height: 512, text: { prompt: 'a green kite' } });
    expect(Buffer.from(base64, 'base64').length).toBeGreaterThanOrEqual(200_000);
    const big = deltas.filter((d) => d.length === 64 * 1024);
    expect(big.length).toBe(Math.floor(`![image](data:image/png;base64,${base64})`.length / (64 * 1024)));
    expect(deltas.every((d) => d.length <= 64 * 1024)).toBe(true);
  });

  it('through the client, streamed and not; a billed image is a fixed number of tokens', async () => {
    for (const stream of [true, false]) {
      const events = await collect(env.client.streamChat({ model: 'gemini-2.5-flash-image', messages: [{ role: 'user', content: 'a red door [size:640x320]' }], stream }));
      const text = textOf(events);
      expect(readPng(DATA_URI.exec(text)![1]!)).toMatchObject({ width: 640, height: 320, text: { prompt: 'a red door' } });
      const usage = events.find((e) => e.type === 'usage');
      expect(usage?.type === 'usage' ? usage.usage.completionTokens : 0).toBeLessThan(1400);
    }
  });

  it('a 4 MB image for benches: [bytes:N] in the prompt, or the image-chat knob over HTTP', async () => {
    const knob = await fetch(`${env.gateway.siteUrl}/__admin/image-chat`, { method: 'POST', body: JSON.stringify({ bytes: 4_000_000, pieceChars: 65_536 }) });
    expect(knob.status).toBe(200);
    const deltas = await contentDeltas(await ask([{ role: 'user', content: 'a big one' }], true));
    const base64 = DATA_URI.exec(deltas.join(''))![1]!;
    const bytes = Buffer.from(base64, 'base64');
    expect(bytes.length).toBeGreaterThanOrEqual(4_000_000);
    expect(bytes.length).toBeLessThan(4_001_000);
    expect(readPng(bytes).text.prompt).toBe('a big one');
    expect(deltas.length).toBeGreaterThan(80);
    env.gateway.reset();
    const viaPrompt = await (await ask([{ role: 'user', content: 'small [bytes:100000]' }], false)).json() as { choices: { message: { content: string } }[] };
    expect(Buffer.from(DATA_URI.exec(viaPrompt.choices[0]!.message.content)![1]!, 'base64').length).toBeGreaterThanOrEqual(100_000);
  });

  it('the image sent back on the next turn is the one the new image edits (in assistant text, or as an image part)', async () => {
    const first = await (await ask([{ role: 'user', content: 'a yellow house' }], false)).json() as { choices: { message: { content: string } }[] };
    const reply = first.choices[0]!.message.content;
    const firstImage = Buffer.from(DATA_URI.exec(reply)![1]!, 'base64');
    expect(readPngText(firstImage)['edit-of']).toBeUndefined();

    const history = [{ role: 'user', content: 'a yellow house' }, { role: 'assistant', content: reply }, { role: 'user', content: 'now make it blue' }];
    const second = await contentDeltas(await ask(history, true));
    const png = readPng(DATA_URI.exec(second.join(''))![1]!);
    expect(png.text).toEqual({ prompt: 'now make it blue', 'edit-of': imageTag(firstImage) });
    expect(second.join('')).toMatch(/^Here is the image again, changed: now make it blue\./);

    const parts = [
      { role: 'user', content: 'a yellow house' },
      { role: 'assistant', content: [{ type: 'text', text: 'Here it is.' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${firstImage.toString('base64')}` } }] },
      { role: 'user', content: 'now green' },
    ];
    const third = await (await ask(parts, false)).json() as { choices: { message: { content: string } }[] };
    expect(readPngText(DATA_URI.exec(third.choices[0]!.message.content)![1]!)['edit-of']).toBe(imageTag(firstImage));
  });

  it('on Gemini\'s interface: the image is an inlineData part, and one sent back is edited', async () => {
    const call = (contents: unknown[], method: string) => fetch(`${env.gateway.siteUrl}/v1beta/models/gemini-2.5-flash-image:${method}`, {
      method: 'POST', headers: { 'x-goog-api-key': env.gateway.demoKey, 'content-type': 'application/json' }, body: JSON.stringify({ contents }),
    });
    const first = await (await call([{ role: 'user', parts: [{ text: 'a violet moon' }] }], 'generateContent')).json() as {
      candidates: { content: { parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] } }[];
    };
    const parts = first.candidates[0]!.content.parts;
    expect(parts[0]?.text).toBe('Here is an image of a violet moon.\n\n');
    const inline = parts[1]!.inlineData!;
    expect(inline.mimeType).toBe('image/png');
    expect(readPngText(inline.data).prompt).toBe('a violet moon');

    const res = await call([
      { role: 'user', parts: [{ text: 'a violet moon' }] },
      { role: 'model', parts: [{ text: 'Here it is.' }, { inlineData: inline }] },
      { role: 'user', parts: [{ text: 'now orange' }] },
    ], 'streamGenerateContent?alt=sse');
    const chunks = (await res.text()).split('\r\n\r\n').filter((c) => c.startsWith('data: ')).map((c) => JSON.parse(c.slice(6)) as typeof first);
    const image = chunks.flatMap((c) => c.candidates[0]!.content.parts).find((p) => p.inlineData !== undefined);
    expect(readPngText(image!.inlineData!.data)).toEqual({ prompt: 'now orange', 'edit-of': imageTag(Buffer.from(inline.data, 'base64')) });
  });
});

describe('the PNG helper', () => {
  it('reads size, text and colour from bytes, base64 or a data URI; refuses what is not a PNG', () => {
    const png = drawPng({ width: 300, height: 200, prompt: 'naïve café 🌈', text: { 'edit-of': 'abc' } });
    for (const input of [png, new Uint8Array(png), png.toString('base64'), `data:image/png;base64,${png.toString('base64')}`]) {
      expect(readPng(input)).toEqual({ width: 300, height: 200, text: { prompt: 'naïve café 🌈', 'edit-of': 'abc' }, colour: colourOf('naïve café 🌈') });
    }
    expect(() => readPng(Buffer.from('not a png'))).toThrow('not a PNG');
    const broken = Buffer.from(png);
    broken[20] = broken[20]! ^ 0xff;
    expect(() => readPng(broken)).toThrow(/bad CRC/);
  });

  it('a big solid image stays small; padding reaches the size asked', () => {
    expect(drawPng({ width: 1536, height: 1024, prompt: 'x' }).length).toBeLessThan(20_000);
    const padded = drawPng({ width: 16, height: 16, prompt: 'x', padTo: 50_000 });
    expect(padded.length).toBe(50_000);
    expect(readPng(padded).text.prompt).toBe('x');
  });
});

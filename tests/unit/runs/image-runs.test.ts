import 'fake-indexeddb/auto';
import { NO_AUDIO } from '../gateway/no-images';
import { beforeEach, describe, expect, it } from 'vitest';
import { GatewayError, type ChatRequest, type GatewayClient, type StreamEvent } from '@/lib/gateway';
import { ConversationStore } from '@/lib/conversations/store';
import { RunError, RunManager, type RunEvent } from '@/lib/runs/run-manager';
import type { ImageEditRequest, ImageEvent, ImageRequest } from '@/lib/gateway';
import type { ImageScaler } from '@/lib/images/scale';
import { fitForEdit } from '@/lib/runs/image-fit';
import { handleRequest } from '@/lib/protocol/handlers';
import { RequestSchema, RunEventSchema } from '@/lib/protocol/messages';
import { defaultSettings, type Profile, type Settings } from '@/lib/settings/schema';

let store: ConversationStore;
let settings: Settings;
let dbCount = 0;
const profile: Profile = { id: 'p1', name: 'Gateway', siteUrl: 'https://gw.example', baseUrl: 'https://gw.example/v1', apiKey: 'sk-test-0123456789', apiStyle: 'chat', defaultModel: 'gpt-image-1', confirmedImageModels: [] };

beforeEach(() => {
  store = new ConversationStore(`image-runs-${dbCount++}`);
  settings = { ...defaultSettings(), profiles: [profile], activeProfileId: 'p1' };
});

const b64 = (bytes: number[]): string => Buffer.from(bytes).toString('base64');
/** Bytes that are a PNG by their signature (`tail` after it): only PNG, JPEG, WebP and GIF are kept. */
const png = (...tail: number[]): number[] => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...tail];
/** A real PNG (the 1×1 transparent pixel): stored images must be one of the four types by their bytes. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const bytesOf = async (blob: Blob): Promise<number[]> => [...new Uint8Array(await blob.arrayBuffer())];

interface Asked {
  generate: ImageRequest[];
  edit: ImageEditRequest[];
  fetched: string[];
  chat: ChatRequest[];
}

/** A gateway that answers image requests with `events`, and chat with `chat`. */
function fake(events: ImageEvent[], chat: StreamEvent[] = [{ type: 'done' }]): GatewayClient & { asked: Asked } {
  const asked: Asked = { generate: [], edit: [], fetched: [], chat: [] };
  return {
    asked,
    baseUrl: 'https://gw.example/v1', siteUrl: 'https://gw.example',
    listModels: async () => [], getBalance: async () => null, getPricing: async () => null, ...NO_AUDIO,
    async *streamChat(request: ChatRequest) {
      asked.chat.push(request);
      for (const e of chat) yield e;
    },
    async *generateImages(request: ImageRequest) {
      asked.generate.push(request);
      for (const e of events) yield e;
    },
    async *editImages(request: ImageEditRequest) {
      asked.edit.push(request);
      for (const e of events) yield e;
    },
    fetchImage: async (url: string) => {
      asked.fetched.push(url);
      return new Blob([new Uint8Array(png(9, 9, 9))], { type: 'image/png' });
    },
  };
}

function manager(client: GatewayClient, extra: Partial<ConstructorParameters<typeof RunManager>[0]> = {}): RunManager {
  return new RunManager({ store, loadSettings: async () => settings, clientFor: () => client, ...extra });
}

const twoImages: ImageEvent[] = [
  { type: 'partial', index: 0, b64: b64(png(1)), mime: 'image/png' },
  { type: 'partial', index: 0, b64: b64(png(1, 1)), mime: 'image/png' },
  { type: 'image', index: 0, b64: b64(png(1, 1, 1)), mime: 'image/png', revisedPrompt: 'A red fox standing in snow' },
  { type: 'image', index: 1, url: 'https://gw.example/__images/t.png', mime: 'image/png' },
  { type: 'usage', usage: { totalTokens: 50, raw: {} } },
  { type: 'done' },
];

describe('image runs', () => {
  it('generates: partial images replaced in their place, a URL fetched at once, the reply naming its images, each with its price', async () => {
    const client = fake(twoImages);
    const runs = manager(client, { priceOf: async () => ({ perRequest: 0.04, currency: 'USD' }) });
    const events: RunEvent[] = [];
    const started = await runs.start({ surface: 'chat', text: 'a red fox in snow', model: 'gpt-image-1', image: { options: { size: '1024x1024', n: 2 } } });
    runs.watch(started.conversationId, (e) => events.push(e));
    await runs.whenIdle();
    expect(client.asked.generate).toEqual([{ model: 'gpt-image-1', prompt: 'a red fox in snow', size: '1024x1024', n: 2, stream: true }]);
    expect(client.asked.chat).toEqual([]);
    expect(client.asked.fetched).toEqual(['https://gw.example/__images/t.png']);
    const [question, reply] = await store.messages(started.conversationId);
    expect(question).toMatchObject({ role: 'user', text: 'a red fox in snow' });
    expect(reply).toMatchObject({ text: '', status: 'complete', imageRequest: { prompt: 'a red fox in snow', options: { size: '1024x1024', n: 2 } }, usage: { totalTokens: 50 } });
    expect(reply!.imageRequest?.edit).toBeUndefined();
    const images = await store.images.getMany(reply!.imageIds!);
    expect(images.map((i) => [i.index, i.partial, i.source, i.prompt, i.revisedPrompt, i.size, i.cost])).toEqual([
      [0, undefined, 'generated', 'a red fox in snow', 'A red fox standing in snow', '1024x1024', { amount: 0.04, currency: 'USD' }],
      [1, undefined, 'generated', 'a red fox in snow', undefined, '1024x1024', { amount: 0.04, currency: 'USD' }],
    ]);
    expect(await bytesOf(images[0]!.blob)).toEqual(png(1, 1, 1));
    expect(await bytesOf(images[1]!.blob)).toEqual(png(9, 9, 9));
    // No partial is left behind.
    expect((await store.exportRaw([started.conversationId]))[0]!.imageRecords.map((i) => i.id).sort()).toEqual([...reply!.imageIds!].sort());
    const told = events.filter((e) => e.type === 'images').map((e) => (e.type === 'images' ? e.imageIds.length : 0));
    expect(told).toEqual([1, 1, 1, 2]);
    expect(events.at(-1)).toMatchObject({ type: 'end', status: 'complete' });
  });

  it('edits the attached image, scaled down first when too large (and says so on the question)', async () => {
    const client = fake(twoImages.slice(2));
    const scaled: string[] = [];
    const scaler: ImageScaler = {
      measure: async () => ({ width: 4096, height: 1024 }),
      scale: async (_blob, width, height, mime) => {
        scaled.push(`${width}x${height} ${mime}`);
        return new Blob([new Uint8Array([7])], { type: mime });
      },
    };
    const runs = manager(client, { scaler });
    const started = await runs.start({ surface: 'chat', text: 'make it blue', model: 'gpt-image-1', images: [`data:image/png;base64,${b64(png(5, 6))}`], image: { options: {} } });
    await runs.whenIdle();
    expect(client.asked.generate).toEqual([]);
    expect(client.asked.edit).toHaveLength(1);
    expect(client.asked.edit[0]).toMatchObject({ model: 'gpt-image-1', prompt: 'make it blue', stream: true });
    expect(await Promise.all(client.asked.edit[0]!.images.map(bytesOf))).toEqual([[7]]);
    expect(scaled).toEqual(['2048x512 image/png']);
    const [question, reply] = await store.messages(started.conversationId);
    expect(question!.notice).toEqual({ code: 'image_scaled', params: { count: 1, from: '4096x1024', to: '2048x512' } });
    expect(reply).toMatchObject({ status: 'complete', imageRequest: { prompt: 'make it blue', edit: true } });
    expect((await store.images.getMany(reply!.imageIds!)).map((i) => i.source)).toEqual(['edited', 'edited']);
  });

  it('"Edit this image" sends the stored image; the question names it; an image no longer there is refused', async () => {
    const client = fake(twoImages);
    const runs = manager(client);
    const first = await runs.start({ surface: 'chat', text: 'a cat', model: 'gpt-image-1', image: { options: {} } });
    await runs.whenIdle();
    const [, reply] = await store.messages(first.conversationId);
    const editOf = reply!.imageIds![0]!;
    const second = await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'with a hat', image: { options: { size: '1024x1024' }, editOf } });
    await runs.whenIdle();
    expect(await Promise.all(client.asked.edit[0]!.images.map(bytesOf))).toEqual([png(1, 1, 1)]);
    const messages = await store.messages(second.conversationId);
    expect(messages[2]).toMatchObject({ role: 'user', text: 'with a hat', imageIds: [editOf] });
    await expect(runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'again', image: { options: {}, editOf: 'gone' } })).rejects.toMatchObject({ problem: 'not_found', params: { target: 'image' } });
    await expect(runs.start({ surface: 'chat', text: '  ', image: { options: {} } })).rejects.toBeInstanceOf(RunError);
  });

  it('an edit whose image is gone (deleted since) is not sent: the reply ends with edit_source_missing', async () => {
    const client = fake(twoImages);
    const runs = manager(client);
    const first = await runs.start({ surface: 'chat', text: 'a cat', model: 'gpt-image-1', image: { options: {} } });
    await runs.whenIdle();
    const editOf = (await store.getMessage(first.messageId))!.imageIds![0]!;
    const second = await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'with a hat', image: { options: {}, editOf } });
    await runs.whenIdle();
    expect(client.asked.edit).toHaveLength(1);
    await store.images.remove([editOf]);
    const again = await runs.retry(second.messageId);
    await runs.whenIdle();
    expect(client.asked.edit).toHaveLength(1);
    expect(await store.getMessage(again.messageId)).toMatchObject({ status: 'error', error: { kind: 'bad_request', detail: { code: 'edit_source_missing' } } });
  });

  it('a refusal is saved like a chat error; Retry asks the same image request again', async () => {
    const refused = fake([{ type: 'error', error: new GatewayError({ kind: 'content_blocked', url: 'https://gw.example/v1/images/generations', status: 400, code: 'content_policy_violation' }) }]);
    let client: GatewayClient = refused;
    const runs = new RunManager({ store, loadSettings: async () => settings, clientFor: () => client });
    const started = await runs.start({ surface: 'chat', text: 'something forbidden', model: 'gpt-image-1', image: { options: { n: 1, quality: 'high' } } });
    await runs.whenIdle();
    const [, failed] = await store.messages(started.conversationId);
    expect(failed).toMatchObject({ status: 'error', error: { kind: 'content_blocked', status: 400, code: 'content_policy_violation' }, imageRequest: { prompt: 'something forbidden' } });
    const retried = fake(twoImages);
    client = retried;
    const again = await runs.retry(failed!.id);
    await runs.whenIdle();
    expect(retried.asked.generate).toEqual([{ model: 'gpt-image-1', prompt: 'something forbidden', n: 1, quality: 'high', stream: true }]);
    const reply = await store.getMessage(again.messageId);
    expect(reply).toMatchObject({ status: 'complete', parentId: failed!.parentId, imageRequest: { prompt: 'something forbidden', options: { n: 1, quality: 'high' } } });
    expect(reply!.imageIds).toHaveLength(2);
  });

  it('an edited question of an image reply asks for images with its new text', async () => {
    const client = fake(twoImages);
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'a cat', model: 'gpt-image-1', image: { options: { size: '1024x1536' } } });
    await runs.whenIdle();
    const [question] = await store.messages(started.conversationId);
    const edited = await runs.edit({ messageId: question!.id, text: 'a dog' });
    await runs.whenIdle();
    expect(client.asked.generate.map((r) => [r.prompt, r.size])).toEqual([['a cat', '1024x1536'], ['a dog', '1024x1536']]);
    expect(await store.getMessage(edited.messageId)).toMatchObject({ status: 'complete', imageRequest: { prompt: 'a dog', options: { size: '1024x1536' } } });
    expect(client.asked.chat).toEqual([]);
  });

  it('an image not a PNG, JPEG, WebP or GIF by its bytes is dropped (an SVG, by base64 or address), whatever type the answer named; a PNG named JPEG is kept as a PNG', async () => {
    const svg = [...Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')];
    const client = fake([
      { type: 'image', index: 0, b64: b64(svg), mime: 'image/svg+xml' },
      { type: 'image', index: 1, b64: b64(png(4)), mime: 'image/jpeg' },
      { type: 'image', index: 2, url: 'https://gw.example/__images/t.svg', mime: 'image/png' },
      { type: 'done' },
    ]);
    client.fetchImage = async () => new Blob([new Uint8Array(svg)], { type: 'image/png' });
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'a fox', model: 'gpt-image-1', image: { options: { n: 3 } } });
    await runs.whenIdle();
    const reply = (await store.getMessage(started.messageId))!;
    expect(reply.status).toBe('complete');
    const images = await store.images.getMany(reply.imageIds!);
    expect(images.map((i) => [i.index, i.mime, i.blob.type])).toEqual([[1, 'image/png', 'image/png']]);
    expect((await store.images.list()).length).toBe(1);
  });

  it('when every image is dropped, the run ends with no_image', async () => {
    const svg = [...Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')];
    const client = fake([{ type: 'image', index: 0, b64: b64(svg), mime: 'image/png' }, { type: 'done' }]);
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'a fox', model: 'gpt-image-1', image: { options: {} } });
    await runs.whenIdle();
    const reply = (await store.getMessage(started.messageId))!;
    expect(reply.status).toBe('error');
    expect(reply.error).toMatchObject({ kind: 'bad_response', detail: { code: 'no_image' } });
    expect(reply.imageIds).toBeUndefined();
    expect(await store.images.list()).toEqual([]);
  });

  it('a stopped image run keeps the partial image it had', async () => {
    let release: () => void = () => undefined;
    const client = fake([]);
    client.generateImages = async function* (_request, options) {
      yield { type: 'partial', index: 0, b64: b64(png(3)), mime: 'image/png' } satisfies ImageEvent;
      await new Promise<void>((resolve) => {
        release = resolve;
        options?.signal?.addEventListener('abort', () => resolve());
      });
      throw new GatewayError({ kind: 'aborted', url: 'x' });
    };
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'slow', model: 'gpt-image-1', image: { options: {} } });
    await expect.poll(async () => (await store.getMessage(started.messageId))?.imageIds?.length).toBe(1);
    runs.stop(started.messageId);
    release();
    await runs.whenIdle();
    const reply = await store.getMessage(started.messageId);
    expect(reply?.status).toBe('stopped');
    expect((await store.images.get(reply!.imageIds![0]!))?.partial).toBe(true);
  });
});

describe('images inside a chat reply', () => {
  /** A 4 MB image's base64 streamed in 64 kB pieces, after some words. */
  function imageStream(): { events: StreamEvent[]; bytes: Uint8Array } {
    const bytes = new Uint8Array(3 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    bytes.set(png());
    const text = `Here it is: ![image](data:image/png;base64,${Buffer.from(bytes).toString('base64')}) Enjoy!`;
    const events: StreamEvent[] = [];
    for (let at = 0; at < text.length; at += 64 * 1024) events.push({ type: 'text', text: text.slice(at, at + 64 * 1024) });
    events.push({ type: 'done', finishReason: 'stop' });
    return { events, bytes };
  }

  it('takes the image out as it streams: the text keeps a reference, the store the bytes; no delta carries base64', async () => {
    const { events, bytes } = imageStream();
    const client = fake([], events);
    const runs = manager(client, { flushIntervalMs: 0 });
    const seen: RunEvent[] = [];
    const started = await runs.start({ surface: 'chat', text: 'draw me a wave', model: 'gemini-2.5-flash-image' });
    runs.watch(started.conversationId, (e) => seen.push(e));
    await runs.whenIdle();
    const reply = await store.getMessage(started.messageId);
    expect(reply!.imageIds).toHaveLength(1);
    const id = reply!.imageIds![0]!;
    expect(reply!.text).toBe(`Here it is: ![image](gc-image:${id}) Enjoy!`);
    const image = await store.images.get(id);
    expect(image).toMatchObject({ source: 'chat', prompt: 'draw me a wave', mime: 'image/png', model: 'gemini-2.5-flash-image', messageId: started.messageId });
    // (Compared as one Buffer: a deep equality of three million numbers takes seconds.)
    expect(Buffer.from(await image!.blob.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    for (const e of seen) expect(JSON.stringify(e).length).toBeLessThan(10_000);
    expect(seen.filter((e) => e.type === 'images')).toEqual([{ type: 'images', conversationId: started.conversationId, messageId: started.messageId, imageIds: [id] }]);
  });

  it('an image whose base64 does not decode is dropped (no reference, nothing stored); the reply goes on', async () => {
    const good = `![image](data:image/png;base64,${PNG_B64})`;
    const client = fake([], [{ type: 'text', text: 'A ![bad](data:image/png;base64,AB==CD==) then ' }, { type: 'text', text: `${good} end` }, { type: 'done' }]);
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'draw', model: 'gemini-2.5-flash-image' });
    await runs.whenIdle();
    const reply = (await store.getMessage(started.messageId))!;
    expect(reply.status).toBe('complete');
    expect(reply.text).toMatch(/^A {2}then !\[image\]\(gc-image:[\w-]+\) end$/);
    expect(reply.imageIds).toHaveLength(1);
    expect((await store.images.list()).map((i) => i.id)).toEqual(reply.imageIds);
  });

  it('only a PNG, JPEG, WebP or GIF by its bytes is kept, as the type its bytes are: an SVG data URI is dropped like a malformed one', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
    const client = fake([], [{ type: 'text', text: `A ![s](data:image/svg+xml;base64,${svg}) B ![p](data:image/jpeg;base64,${PNG_B64}) C` }, { type: 'done' }]);
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'draw', model: 'gemini-2.5-flash-image' });
    await runs.whenIdle();
    const reply = (await store.getMessage(started.messageId))!;
    expect(reply.text).toMatch(/^A {2}B !\[p\]\(gc-image:[\w-]+\) C$/);
    const images = await store.images.getMany(reply.imageIds!);
    expect(images.map((i) => [i.mime, i.blob.type])).toEqual([['image/png', 'image/png']]);
    expect((await store.images.list()).length).toBe(1);
  });

  it('an image cut off mid-way (the stream broke) is dropped, not kept as text: the reply says so with a notice', async () => {
    const client = fake([], [{ type: 'text', text: 'Here ![image](data:image/png;base64,' }, { type: 'text', text: 'A'.repeat(5000) }]);
    const runs = manager(client);
    const started = await runs.start({ surface: 'chat', text: 'draw', model: 'gemini-2.5-flash-image' });
    await runs.whenIdle();
    const reply = (await store.getMessage(started.messageId))!;
    expect(reply.text).toBe('Here ');
    expect(reply.status).toBe('interrupted');
    expect(reply.notice).toEqual({ code: 'image_cut', params: {} });
    expect(reply.imageIds).toBeUndefined();
  });

  it('sends the image back on the next turn, as a data URI in the assistant\'s text', async () => {
    const small = `![image](data:image/png;base64,${b64(png(1, 2, 3, 4))})`;
    const client = fake([], [{ type: 'text', text: small.slice(0, 10) }, { type: 'text', text: small.slice(10) }, { type: 'done' }]);
    const runs = manager(client);
    const first = await runs.start({ surface: 'chat', text: 'draw', model: 'gemini-2.5-flash-image' });
    await runs.whenIdle();
    expect((await store.getMessage(first.messageId))!.text).toMatch(/^!\[image\]\(gc-image:[\w-]+\)$/);
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'now make it blue' });
    await runs.whenIdle();
    const sent = client.asked.chat[1]!.messages;
    expect(sent.map((m) => [m.role, m.content])).toEqual([
      ['user', 'draw'],
      ['assistant', small],
      ['user', 'now make it blue'],
    ]);
  });
});

describe('which images a model is sent back', () => {
  const drawn = (n: number): StreamEvent[] => [{ type: 'text', text: `![image ${n}](data:image/png;base64,${b64(png(n))})` }, { type: 'done' }];
  /** A gateway whose chat replies are, in turn, `replies` (then a plain "ok"). */
  function chatting(replies: StreamEvent[][]): ReturnType<typeof fake> {
    const client = fake([]);
    client.streamChat = async function* (request: ChatRequest) {
      client.asked.chat.push(request);
      for (const e of replies.shift() ?? [{ type: 'text', text: 'ok' }, { type: 'done' }] satisfies StreamEvent[]) yield e;
    };
    return client;
  }
  const contents = (request: ChatRequest): string[] => request.messages.map((m) => String(m.content));

  it('only the latest reply\'s images, and only to the model that made them; every other reference is a short mention', async () => {
    const client = chatting([drawn(1), drawn(2)]);
    const runs = manager(client);
    const model = 'gemini-2.5-flash-image';
    const first = await runs.start({ surface: 'chat', text: 'draw', model });
    await runs.whenIdle();
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'again', model });
    await runs.whenIdle();
    // Asked of the model that drew them: the latest image inline, the older one mentioned.
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'bluer', model });
    await runs.whenIdle();
    expect(contents(client.asked.chat[2]!)).toEqual(['draw', '[image: image 1]', 'again', `![image 2](data:image/png;base64,${b64(png(2))})`, 'bluer']);
    // Asked of another model: no image inline, no gc-image: address.
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'describe it', model: 'gpt-4o' });
    await runs.whenIdle();
    const other = contents(client.asked.chat[3]!);
    expect(other.slice(0, 6)).toEqual(['draw', '[image: image 1]', 'again', '[image: image 2]', 'bluer', 'ok']);
    expect(other.join('\n')).not.toContain('gc-image:');
    expect(other.join('\n')).not.toContain('base64');
  });

  it('a reference to another conversation\'s image is as if it were not stored: mentioned, not sent; "Edit this image" of it is not_found', async () => {
    const client = chatting([drawn(1)]);
    const runs = manager(client);
    const model = 'gemini-2.5-flash-image';
    const first = await runs.start({ surface: 'chat', text: 'draw', model });
    await runs.whenIdle();
    const theirs = (await store.getMessage(first.messageId))!.imageIds![0]!;
    const second = await runs.start({ surface: 'chat', text: 'hello', model });
    await runs.whenIdle();
    // A reply of the second conversation that names the first one's image.
    await store.updateMessage(second.messageId, { text: `![stolen](gc-image:${theirs})` });
    await runs.start({ surface: 'chat', conversationId: second.conversationId, text: 'edit it', model });
    await runs.whenIdle();
    expect(contents(client.asked.chat.at(-1)!)).toEqual(['hello', '[image: stolen]', 'edit it']);
    await expect(runs.start({ surface: 'chat', conversationId: second.conversationId, text: 'bluer', model: 'gpt-image-1', image: { options: {}, editOf: theirs } }))
      .rejects.toMatchObject({ problem: 'not_found', params: { target: 'image' } });
  });

  it('a store whose images cannot be read refuses the turn before anything is written: no reply is left streaming', async () => {
    const client = chatting([drawn(1)]);
    const runs = manager(client);
    const model = 'gemini-2.5-flash-image';
    const first = await runs.start({ surface: 'chat', text: 'draw', model });
    await runs.whenIdle();
    const next = await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'thanks', model });
    await runs.whenIdle();
    const before = await store.messages(first.conversationId);
    const getMany = store.images.getMany.bind(store.images);
    store.images.getMany = async () => {
      throw new Error('the disk said no');
    };
    await expect(runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'bluer', model })).rejects.toThrow();
    await expect(runs.retry(next.messageId)).rejects.toThrow();
    const after = await store.messages(first.conversationId);
    expect(after.map((m) => m.id)).toEqual(before.map((m) => m.id));
    expect(after.some((m) => m.status === 'streaming')).toBe(false);
    // Nothing is left busy: once the store reads again, the turn goes.
    store.images.getMany = getMany;
    await runs.start({ surface: 'chat', conversationId: first.conversationId, text: 'bluer', model });
    await runs.whenIdle();
    expect((await store.messages(first.conversationId)).every((m) => m.status === 'complete')).toBe(true);
  });
});

describe('scaling images down before an edit', () => {
  const scaler = (width: number, height: number, sizes: number[]): ImageScaler & { asked: string[] } => {
    const asked: string[] = [];
    return {
      asked,
      measure: async () => ({ width, height }),
      scale: async (_b, w, h) => {
        asked.push(`${w}x${h}`);
        return new Blob([new Uint8Array(sizes.shift() ?? 1)]);
      },
    };
  };
  const blob = (size: number, type = 'image/png'): Blob => new Blob([new Uint8Array(size)], { type });

  it('leaves a small image alone', async () => {
    const s = scaler(1024, 1024, []);
    const small = blob(1000);
    expect(await fitForEdit(small, s)).toEqual({ blob: small });
    expect(s.asked).toEqual([]);
  });

  it('brings the longer side to 2048 px, then shrinks while over 4 MB', async () => {
    const s = scaler(3000, 6000, [5 * 1024 * 1024, 3 * 1024 * 1024]);
    const fitted = await fitForEdit(blob(6 * 1024 * 1024), s);
    expect(s.asked[0]).toBe('1024x2048');
    expect(s.asked).toHaveLength(2);
    expect(fitted.blob.size).toBe(3 * 1024 * 1024);
    expect(fitted.scaled).toEqual({ from: '3000x6000', to: s.asked[1] });
  });

  it('an image it cannot measure (no canvas here) is sent as it is', async () => {
    const large = blob(5 * 1024 * 1024);
    expect(await fitForEdit(large, { measure: async () => undefined, scale: async () => blob(1) })).toEqual({ blob: large });
  });
});

describe('the protocol carries image runs', () => {
  it('run.start takes image options and the image to edit; the images event is one of the run events', async () => {
    const request = { type: 'run.start', input: { surface: 'chat', text: 'a fox', image: { options: { size: '1024x1024', n: 2, background: 'transparent', outputFormat: 'webp' }, editOf: 'img-1' } } };
    expect(RequestSchema.safeParse(request).success).toBe(true);
    expect(RequestSchema.safeParse({ ...request, input: { ...request.input, image: { options: { n: 9 } } } }).success).toBe(false);
    expect(RunEventSchema.safeParse({ type: 'images', conversationId: 'c', messageId: 'm', imageIds: ['a', 'b'] }).success).toBe(true);
    const client = fake(twoImages);
    const runs = manager(client);
    const answer = await handleRequest(runs, { type: 'run.start', input: { surface: 'chat', text: 'a fox', model: 'gpt-image-1', image: { options: { n: 2 } } } });
    expect(answer).toMatchObject({ ok: true });
    await runs.whenIdle();
    expect(client.asked.generate).toEqual([{ model: 'gpt-image-1', prompt: 'a fox', n: 2, stream: true }]);
  });
});

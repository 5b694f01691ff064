import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import Dexie from 'dexie';
import { RenderCache, RENDERER_VERSION, sourceKeyOf } from '@/lib/render/cache';
import { RenderClient, type RenderPort } from '@/lib/render/client';
import { BARE_LABELS } from '@/lib/render/labels';
import { createRenderService } from '@/lib/render/worker/handler';
import type { FromWorker, ToWorker } from '@/lib/render/worker/protocol';
import { ConversationStore } from '@/lib/conversations/store';

let n = 0;

/** The service behind a port that answers only when told to (a worker busy meanwhile). */
function heldPort() {
  const service = createRenderService();
  const sent: ToWorker[] = [];
  let deliver: (data: unknown) => void = () => undefined;
  const port: RenderPort = {
    post: (message) => sent.push(message),
    listen: (onMessage) => {
      deliver = onMessage;
    },
  };
  /** Answers everything sent so far, in order. */
  const answer = async (): Promise<void> => {
    for (const message of sent.splice(0)) {
      const reply = await service.handle(message);
      if (reply !== undefined) deliver(reply);
    }
  };
  return { port, sent, answer };
}

describe('the render client (the page side of the worker)', () => {
  it('a finished block is rendered once, whoever asks and however often', async () => {
    const { port, sent, answer } = heldPort();
    const client = new RenderClient(port);
    client.setLabels(BARE_LABELS);
    const first = vi.fn();
    const second = vi.fn();
    client.request(['# Title\n', 'Some *text*'], first);
    client.request(['# Title\n'], second);
    await answer();
    client.request(['# Title\n', 'Some *text*'], second);
    expect(sent).toEqual([]);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    expect(client.peek('# Title\n')?.html).toContain('<h1>Title</h1>');
    expect(client.peek('Some *text*')?.html).toContain('<em>text</em>');
  });

  it('the growing block has one render on its way at most; the newest text waits, the ones between are skipped', async () => {
    const { port, sent, answer } = heldPort();
    const client = new RenderClient(port);
    const slot = {};
    const done = vi.fn();
    client.requestGrowing(slot, 0, 'A', done);
    client.requestGrowing(slot, 0, 'A b', done);
    client.requestGrowing(slot, 0, 'A b c', done);
    expect(sent.filter((m) => m.type === 'render').map((m) => m.type === 'render' && m.sources)).toEqual([['A']]);
    await answer();
    expect(client.latest(slot)).toMatchObject({ index: 0, source: 'A' });
    // The newest text went as soon as the worker was free; the one between never did.
    expect(sent.map((m) => m.type === 'render' && m.sources)).toEqual([['A b c']]);
    await answer();
    expect(client.latest(slot)?.block.html).toContain('A b c');
    expect(done).toHaveBeenCalledTimes(2);
  });

  it('the growing block\'s text asked for again while on its way is not sent again; both askers are told', async () => {
    const { port, sent, answer } = heldPort();
    const client = new RenderClient(port);
    const slot = {};
    const ahead = vi.fn();
    const frame = vi.fn();
    client.requestGrowing(slot, 0, 'A b', ahead);
    // The frame that draws the text asks for it too (the same text, another string).
    client.requestGrowing(slot, 0, ['A', 'b'].join(' '), frame);
    expect(sent.filter((m) => m.type === 'render')).toHaveLength(1);
    await answer();
    expect(sent).toEqual([]);
    expect(client.latest(slot)?.block.html).toContain('A b');
    expect(ahead).toHaveBeenCalledTimes(1);
    expect(frame).toHaveBeenCalledTimes(1);
  });

  it('new words render every block again with them', async () => {
    const { port, answer } = heldPort();
    const client = new RenderClient(port);
    client.setLabels(BARE_LABELS);
    client.request(['```py\nx\n```'], () => undefined);
    await answer();
    expect(client.peek('```py\nx\n```')?.html).toContain('aria-label="py"');
    client.setLabels({ ...BARE_LABELS, copyCode: 'Copier le code {language}' });
    expect(client.peek('```py\nx\n```')).toBeUndefined();
    client.request(['```py\nx\n```'], () => undefined);
    await answer();
    expect(client.peek('```py\nx\n```')?.html).toContain('aria-label="Copier le code py"');
  });

  it('a saved message partly here is looked up whole (the cache may hold the rest), once; what was already here keeps its rendering', async () => {
    const { port, sent, answer } = heldPort();
    const client = new RenderClient(port);
    // A paragraph another reply shares ("Both give the same result."), here already.
    client.request(['# One\n'], () => undefined);
    await answer();
    const before = client.peek('# One\n');
    const done = vi.fn();
    client.request(['# One\n', 'Two'], done, { id: 'm', conversationId: 'c' });
    client.request(['# One\n', 'Two'], done, { id: 'm', conversationId: 'c' });
    // One lookup of the whole: no block rendered apart.
    expect(sent).toEqual([expect.objectContaining({ type: 'render', sources: ['# One\n', 'Two'], saved: { id: 'm', conversationId: 'c' } })]);
    await answer();
    expect(done).toHaveBeenCalledTimes(1);
    expect(client.peek('# One\n')).toBe(before);
    expect(client.peek('Two')?.html).toContain('Two');
  });

  it('a saved message all here (it streamed here) is sent whole once, to be saved; its text changed, once more', async () => {
    const { port, sent, answer } = heldPort();
    const client = new RenderClient(port);
    const saved = { id: 'm', conversationId: 'c' };
    // Its blocks rendered as they finished while it streamed, the last one adopted.
    client.request(['# One\n'], () => undefined);
    await answer();
    client.adopt('Two', { html: '<p>Two</p>', math: false, diagram: false });
    const before = client.peek('Two');
    // Finished: drawn, and drawn again.
    client.request(['# One\n', 'Two'], () => undefined, saved);
    client.request(['# One\n', 'Two'], () => undefined, saved);
    expect(sent).toEqual([expect.objectContaining({ type: 'render', sources: ['# One\n', 'Two'], saved })]);
    await answer();
    expect(client.peek('Two')).toBe(before);
    client.request(['# One\n', 'Two'], () => undefined, saved);
    expect(sent).toEqual([]);
    // Edited: the new text is here (say), and is saved in its turn.
    client.adopt('Three', { html: '<p>Three</p>', math: false, diagram: false });
    client.request(['# One\n', 'Three'], () => undefined, saved);
    expect(sent).toEqual([expect.objectContaining({ sources: ['# One\n', 'Three'], saved })]);
  });

  it('a saved message none of which is here is looked up whole, even when some of its blocks are on their way for another message', async () => {
    const { port, sent, answer } = heldPort();
    const client = new RenderClient(port);
    const [first, second] = [vi.fn(), vi.fn()];
    // Two replies that end alike, opened together.
    client.request(['# One\n', 'Same ending'], first, { id: 'm1', conversationId: 'c' });
    client.request(['# Two\n', 'Same ending'], second, { id: 'm2', conversationId: 'c' });
    // One request each, both with their message (a cache lookup), none rendering a part apart.
    expect(sent).toEqual([
      expect.objectContaining({ type: 'render', sources: ['# One\n', 'Same ending'], saved: { id: 'm1', conversationId: 'c' } }),
      expect.objectContaining({ type: 'render', sources: ['# Two\n', 'Same ending'], saved: { id: 'm2', conversationId: 'c' } }),
    ]);
    // Asked again (drawn again) while on their way: nothing more is sent.
    client.request(['# One\n', 'Same ending'], first, { id: 'm1', conversationId: 'c' });
    client.request(['# Two\n', 'Same ending'], second, { id: 'm2', conversationId: 'c' });
    expect(sent).toHaveLength(2);
    await answer();
    expect(first).toHaveBeenCalled();
    expect(second).toHaveBeenCalled();
    expect(client.peek('# Two\n')?.html).toContain('<h1>Two</h1>');
    expect(client.peek('Same ending')?.html).toContain('Same ending');
  });

  it('a saved message asked for ahead of its view resolves as its answer arrives, before the frame that tells its views; its view then asks nothing', async () => {
    const { port, sent, answer } = heldPort();
    // Answers are told in a frame that has not come yet.
    const frames: (() => void)[] = [];
    const client = new RenderClient(port, (tell) => frames.push(tell));
    client.setLabels(BARE_LABELS);
    const saved = { id: 'm1', conversationId: 'c' };
    const arrived = vi.fn();
    void client.ahead(['# One\n', 'Some *text*'], saved).then(arrived);
    // Its view, drawn before the answer, waits for it.
    const view = vi.fn();
    client.request(['# One\n', 'Some *text*'], view, saved);
    expect(sent.filter((m) => m.type === 'render')).toEqual([expect.objectContaining({ sources: ['# One\n', 'Some *text*'], saved })]);
    await answer();
    await Promise.resolve();
    expect(arrived).toHaveBeenCalled();
    expect(client.peek('Some *text*')?.html).toContain('<em>text</em>');
    expect(view).not.toHaveBeenCalled();
    frames.splice(0).forEach((tell) => tell());
    expect(view).toHaveBeenCalledTimes(1);
    // Here already, or on its way: resolved at once, nothing sent.
    const before = sent.length;
    await client.ahead(['# One\n', 'Some *text*'], saved);
    client.request(['# Two\n'], vi.fn());
    await client.ahead(['# Two\n'], { id: 'm2', conversationId: 'c' });
    expect(sent).toHaveLength(before + 1);
  });

  it('a saved message asked for ahead that the cache does not hold resolves once it is rendered, not before: the conversation is drawn once, rendered', async () => {
    const service = createRenderService(new RenderCache(`render-cache-${n++}`));
    let deliver: (data: unknown) => void = () => undefined;
    const answers: FromWorker[] = [];
    const port: RenderPort = {
      // Every message the worker sends is held (the page busy, say), and handed over below.
      post: (message) => void service.handle(message).then((reply) => reply !== undefined && answers.push(reply)),
      listen: (onMessage) => {
        deliver = onMessage;
      },
    };
    const client = new RenderClient(port);
    client.setLabels(BARE_LABELS);
    const resolved = vi.fn();
    void client.ahead(['# Not saved\n'], { id: 'm1', conversationId: 'c' }).then(resolved);
    // The worker looked in the cache, found nothing, and rendered it: its one message is the rendering.
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    expect(answers[0]).toMatchObject({ type: 'rendered', fromCache: false });
    await Promise.resolve();
    expect(resolved).not.toHaveBeenCalled();
    deliver(answers[0]);
    await vi.waitFor(() => expect(resolved).toHaveBeenCalled());
    expect(client.peek('# Not saved\n')?.html).toContain('Not saved');
  });

  it('a conversation is read ahead once for the press on its row and the click that follows; again later, or another one', () => {
    const { port, sent } = heldPort();
    const client = new RenderClient(port);
    client.prefetch('c1', 1_000);
    client.prefetch('c1', 1_150);
    expect(sent).toEqual([{ type: 'prefetch', conversationId: 'c1' }]);
    client.prefetch('c2', 1_200);
    client.prefetch('c1', 1_300);
    client.prefetch('c1', 9_000);
    expect(sent.map((m) => m.type === 'prefetch' && m.conversationId)).toEqual(['c1', 'c2', 'c1', 'c1']);
  });

  it('answers that are not the worker\'s are ignored', () => {
    const { port } = heldPort();
    let deliver: (data: unknown) => void = () => undefined;
    const client = new RenderClient({ ...port, listen: (f) => { deliver = f; } });
    const done = vi.fn();
    client.request(['x'], done);
    deliver({ type: 'rendered', id: 1, blocks: [{ html: '<img src=x onerror=alert(1)>' }] });
    deliver({ type: 'rendered', id: 99, blocks: [{ html: 'x', math: false, diagram: false }], fromCache: false });
    deliver('<b>hello</b>');
    expect(done).not.toHaveBeenCalled();
    expect(client.peek('x')).toBeUndefined();
  });
});

describe('saved renderings (a conversation opened again renders nothing)', () => {
  it('a finished message is rendered once; opened again, its blocks come from the cache', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    const service = createRenderService(cache);
    await service.handle({ type: 'labels', key: 'en', labels: { ...BARE_LABELS } });
    const saved = { id: 'm1', conversationId: 'c1' };
    const first = await service.handle({ type: 'render', id: 1, sources: ['# One\n', 'Two'], saved }) as Extract<FromWorker, { type: 'rendered' }>;
    expect(first.fromCache).toBe(false);
    const again = await createRenderService(cache).handle({ type: 'labels', key: 'en', labels: { ...BARE_LABELS } })
      .then(() => service.handle({ type: 'render', id: 2, sources: ['# One\n', 'Two'], saved })) as Extract<FromWorker, { type: 'rendered' }>;
    expect(again).toEqual({ ...first, id: 2, fromCache: true });
  });

  it('a reply that streamed here is saved, and opened in another page its blocks come from the cache', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    const service = createRenderService(cache);
    const answers: FromWorker[] = [];
    let deliver: (data: unknown) => void = () => undefined;
    const port: RenderPort = {
      post: (message) => void service.handle(message).then((reply) => {
        if (reply === undefined) return;
        answers.push(reply);
        deliver(reply);
      }),
      listen: (onMessage) => {
        deliver = onMessage;
      },
    };
    const client = new RenderClient(port);
    client.setLabels(BARE_LABELS);
    const slot = {};
    // It streams: the first block finishes and is rendered; the growing one is rendered as it grows.
    client.requestGrowing(slot, 0, '# One', () => undefined);
    await vi.waitFor(() => expect(client.latest(slot)?.source).toBe('# One'));
    client.request(['# One\n'], () => undefined);
    client.requestGrowing(slot, 1, 'Some *text*', () => undefined);
    await vi.waitFor(() => expect(client.latest(slot)?.source).toBe('Some *text*'));
    // It ends: the growing block's last rendering is its rendering, and the reply is shown saved.
    client.adopt('Some *text*', client.latest(slot)!.block);
    await vi.waitFor(() => expect(client.peek('# One\n')).toBeDefined());
    const before = answers.length;
    client.request(['# One\n', 'Some *text*'], () => undefined, { id: 'm9', conversationId: 'c9' });
    await vi.waitFor(() => expect(answers.length).toBe(before + 1));
    expect(answers.at(-1)).toMatchObject({ type: 'rendered', fromCache: false });
    // Another page: looked up, not rendered.
    const other = createRenderService(cache);
    await other.handle({ type: 'labels', key: JSON.stringify(BARE_LABELS), labels: { ...BARE_LABELS } });
    await vi.waitFor(async () => expect(await other.handle({ type: 'render', id: 1, sources: ['# One\n', 'Some *text*'], saved: { id: 'm9', conversationId: 'c9' } })).toMatchObject({ type: 'rendered', fromCache: true }));
  });

  it('opened ahead of the first message, the cache answers as before; one whose database cannot open says so, and the service renders without it', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    await cache.open();
    expect(await cache.get('m1', 'en', ['One'])).toBeUndefined();
    const refused = { open: () => { throw new Error('refused'); }, deleteDatabase: () => { throw new Error('refused'); }, cmp: indexedDB.cmp.bind(indexedDB), databases: () => Promise.reject(new Error('refused')) } as unknown as IDBFactory;
    const broken = new RenderCache(`render-cache-${n++}`, { indexedDB: refused, IDBKeyRange });
    await expect(broken.open()).rejects.toThrow();
    const reply = await createRenderService(broken).handle({ type: 'render', id: 1, sources: ['**bold**'], saved: { id: 'm', conversationId: 'c' } });
    expect(reply).toMatchObject({ type: 'rendered', fromCache: false, blocks: [{ html: expect.stringContaining('<strong>bold</strong>') }] });
  });

  it('a rendering is answered before it is saved; asked for again meanwhile, it is read once saved', async () => {
    const real = new RenderCache(`render-cache-${n++}`);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A cache whose writes wait (a slow disk).
    const slow = { get: real.get.bind(real), put: async (...args: Parameters<RenderCache['put']>) => {
      await held;
      await real.put(...args);
    } };
    const service = createRenderService(slow);
    const saved = { id: 'm1', conversationId: 'c1' };
    const first = await service.handle({ type: 'render', id: 1, sources: ['# One\n'], saved });
    expect(first).toMatchObject({ type: 'rendered', fromCache: false });
    const again = service.handle({ type: 'render', id: 2, sources: ['# One\n'], saved });
    release();
    expect(await again).toMatchObject({ type: 'rendered', id: 2, fromCache: true });
  });

  it('a rendering is used only for the same text, the same words and the same renderer version', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    const blocks = [{ html: '<p>One</p>', math: false, diagram: false }];
    await cache.put({ id: 'm1', conversationId: 'c1' }, 'en', ['One'], blocks, Date.now());
    expect(await cache.get('m1', 'en', ['One'])).toEqual(blocks);
    expect(await cache.get('m1', 'en', ['One!'])).toBeUndefined();
    expect(await cache.get('m1', 'zh-CN', ['One'])).toBeUndefined();
    expect(RENDERER_VERSION).toBeGreaterThan(0);
  });

  it('a rendering the cache cannot keep (its database refused) is still shown', async () => {
    const broken = { get: () => Promise.reject(new Error('QuotaExceededError')), put: () => Promise.reject(new Error('QuotaExceededError')) };
    const service = createRenderService(broken);
    const reply = await service.handle({ type: 'render', id: 1, sources: ['**bold**'], saved: { id: 'm', conversationId: 'c' } });
    expect(reply).toMatchObject({ type: 'rendered', fromCache: false, blocks: [{ html: expect.stringContaining('<strong>bold</strong>') }] });
  });

  it('deleting a conversation, a question and its reply, or the whole history forgets their renderings', async () => {
    const name = `store-render-${n++}`;
    const store = new ConversationStore(name);
    const cache = new RenderCache(`${name}-renderings`);
    const conversation = await store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'popup', title: 't' });
    const message = (id: string, seq: number, role: 'user' | 'assistant', parentId?: string) => ({ id, conversationId: 'c1', seq, role, text: id, reasoning: '', status: 'complete' as const, createdAt: seq, ...(parentId === undefined ? {} : { parentId }) });
    await store.addTurn({ conversation, created: false, messages: [message('q1', 0, 'user'), message('a1', 1, 'assistant', 'q1'), message('q2', 2, 'user', 'a1'), message('a2', 3, 'assistant', 'q2')] });
    const blocks = [{ html: '<p>x</p>', math: false, diagram: false }];
    for (const id of ['a1', 'a2']) await cache.put({ id, conversationId: 'c1' }, 'en', [id], blocks, Date.now());
    await cache.put({ id: 'other', conversationId: 'c2' }, 'en', ['other'], blocks, Date.now());
    await store.deletePair('q2', 'a2');
    expect(await cache.get('a2', 'en', ['a2'])).toBeUndefined();
    expect(await cache.get('a1', 'en', ['a1'])).toEqual(blocks);
    await store.deleteConversation('c1');
    expect(await cache.get('a1', 'en', ['a1'])).toBeUndefined();
    expect(await cache.get('other', 'en', ['other'])).toEqual(blocks);
    await store.clearAll();
    expect(await cache.get('other', 'en', ['other'])).toBeUndefined();
    store.close();
    cache.close();
  });

  it('a rendering begun before its conversation was deleted is not saved; one begun after it is', async () => {
    const name = `store-render-${n++}`;
    const store = new ConversationStore(name);
    const cache = new RenderCache(`${name}-renderings`);
    // The render is held at its cache lookup until the deletion is done: its save comes after it.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const service = createRenderService({ get: async (...args) => {
      await gate;
      return cache.get(...args);
    }, put: (...args) => cache.put(...args) });
    const conversation = await store.createConversation({ id: 'c1', profileId: 'p', model: 'm', surface: 'popup', title: 't' });
    await store.addTurn({ conversation, created: false, messages: [{ id: 'a1', conversationId: 'c1', seq: 0, role: 'assistant', text: 'secret', reasoning: '', status: 'complete', createdAt: 0 }] });
    const sources = ['secret reply\n', '```python\nprint("secret")\n```'];
    const rendering = service.handle({ type: 'render', id: 1, sources, saved: { id: 'a1', conversationId: 'c1' } });
    await store.deleteConversation('c1');
    release();
    await rendering;
    expect(await cache.get('a1', '', sources)).toBeUndefined();
    // Put back (Undo) and shown again: saved as any other.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await service.handle({ type: 'render', id: 2, sources, saved: { id: 'a1', conversationId: 'c1' } });
    expect(await cache.get('a1', '', sources)).toHaveLength(2);
    store.close();
    cache.close();
  });

  it('what is read back from the cache is shown as saved, only when this renderer version saved it (its sanitiser made it)', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    const blocks = [{ html: '<p>x <em>y</em></p>', math: false, diagram: false }];
    await cache.put({ id: 'm1', conversationId: 'c1' }, '', ['x *y*'], blocks, Date.now());
    const get = vi.fn(cache.get.bind(cache));
    const reply = await createRenderService({ get, put: cache.put.bind(cache) }).handle({ type: 'render', id: 1, sources: ['x *y*'], saved: { id: 'm1', conversationId: 'c1' } });
    expect(reply).toEqual({ type: 'rendered', id: 1, blocks, fromCache: true });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an older renderer version', { version: RENDERER_VERSION - 1 }],
    ['another sanitiser', { version: RENDERER_VERSION, sanitiser: 'an-older-one' }],
    ['no sanitiser named', { version: RENDERER_VERSION }],
  ])('a rendering saved by %s is made again, and replaced', async (_, made) => {
    const name = `render-cache-${n++}`;
    const cache = new RenderCache(name);
    await cache.open();
    // A row as that build wrote it, with markup today's sanitiser refuses.
    const raw = new Dexie(name);
    raw.version(2).stores({ renderings: 'id, conversationId, [conversationId+seq]', forgotten: 'id, at' });
    await raw.table('renderings').put({ id: 'm1', conversationId: 'c1', seq: 1, ...made, labelsKey: '', sourceKey: sourceKeyOf(['x']), blocks: [{ html: '<p>x<img src=x onerror=alert(1)></p>', math: false, diagram: false }] });
    raw.close();
    expect(await cache.newest('c1', 8)).toEqual([]);
    expect(await cache.get('m1', '', ['x'])).toBeUndefined();
    const service = createRenderService(cache);
    await service.handle({ type: 'prefetch', conversationId: 'c1' });
    const reply = await service.handle({ type: 'render', id: 1, sources: ['x'], saved: { id: 'm1', conversationId: 'c1', seq: 1 } });
    expect(reply).toMatchObject({ type: 'rendered', fromCache: false, blocks: [{ html: '<p>x</p>\n' }] });
    expect(JSON.stringify(reply)).not.toContain('onerror');
    await vi.waitFor(async () => expect(await cache.get('m1', '', ['x'])).toEqual([{ html: '<p>x</p>\n', math: false, diagram: false }]));
    cache.close();
  });

  it('a conversation about to open has its newest renderings read ahead: they answer its replies without a read each', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    const block = (text: string) => [{ html: `<p>${text}</p>`, math: false, diagram: false }];
    for (let seq = 1; seq <= 20; seq += 2) await cache.put({ id: `a${seq}`, conversationId: 'c1', seq }, 'en', [`reply ${seq}`], block(`reply ${seq}`), Date.now());
    await cache.put({ id: 'a21', conversationId: 'c1', seq: 21 }, 'en', ['x'], block('x'), Date.now());
    await cache.put({ id: 'b1', conversationId: 'c2', seq: 30 }, 'en', ['other'], block('other'), Date.now());
    expect((await cache.newest('c1', 3)).map((row) => row.id)).toEqual(['a21', 'a19', 'a17']);

    const get = vi.fn(cache.get.bind(cache));
    const service = createRenderService({ get, put: cache.put.bind(cache), newest: cache.newest.bind(cache) });
    await service.handle({ type: 'labels', key: 'en', labels: { ...BARE_LABELS } });
    expect(await service.handle({ type: 'prefetch', conversationId: 'c1' })).toBeUndefined();
    const newest = await service.handle({ type: 'render', id: 1, sources: ['reply 19'], saved: { id: 'a19', conversationId: 'c1', seq: 19 } });
    expect(newest).toEqual({ type: 'rendered', id: 1, blocks: block('reply 19'), fromCache: true });
    expect(await service.handle({ type: 'render', id: 2, sources: ['x'], saved: { id: 'a21', conversationId: 'c1', seq: 21 } })).toEqual({ type: 'rendered', id: 2, blocks: block('x'), fromCache: true });
    expect(get).not.toHaveBeenCalled();
    // Older than those read ahead: read as before.
    expect(await service.handle({ type: 'render', id: 3, sources: ['reply 1'], saved: { id: 'a1', conversationId: 'c1', seq: 1 } })).toMatchObject({ type: 'rendered', fromCache: true });
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('a rendering read ahead is used only for the same text and the same words', async () => {
    const cache = new RenderCache(`render-cache-${n++}`);
    await cache.put({ id: 'a1', conversationId: 'c1', seq: 1 }, 'en', ['Saved *text*'], [{ html: '<p>Saved <em>text</em></p>', math: false, diagram: false }], Date.now());
    const service = createRenderService(cache);
    await service.handle({ type: 'prefetch', conversationId: 'c1' });
    // The page's words are others (none sent: the bare ones), and then the text was edited.
    expect(await service.handle({ type: 'render', id: 1, sources: ['Saved *text*'], saved: { id: 'a1', conversationId: 'c1', seq: 1 } })).toMatchObject({ fromCache: false });
    await service.handle({ type: 'labels', key: 'en', labels: { ...BARE_LABELS } });
    expect(await service.handle({ type: 'render', id: 2, sources: ['Edited *text*'], saved: { id: 'a1', conversationId: 'c1', seq: 1 } })).toMatchObject({ fromCache: false, blocks: [{ html: expect.stringContaining('Edited') }] });
  });

  it('a formula asking for an enormous length is laid out without it (KaTeX writes 1e+21em as asked)', async () => {
    const reply = await createRenderService().handle({ type: 'render', id: 1, sources: ['$\\raisebox{-1000000000000000000000em}{x}$ and $\\begin{array}{c}a\\\\[-1000000000000000000000em]b\\end{array}$'] });
    const html = reply?.type === 'rendered' ? reply.blocks[0]!.html : '';
    expect(html).toContain('katex-html');
    // No style carries it (the MathML copy, which KaTeX's styles keep out of sight, may say it).
    expect(html).not.toMatch(/style="[^"]*e\+21/);
  });
});

// @vitest-environment jsdom
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { Composer, type ImageGeneration, type ImageSend } from '@/components/chat/Composer';
import { MessageView } from '@/components/chat/MessageView';
import { PricesContext } from '@/components/stores/pricing';
import { setImageReader, type ImageReader } from '@/components/images/reader';
import { imageFileName } from '@/components/images/GeneratedImages';
import { resetImagePrefs, useImageEdit } from '@/components/images/stores';
import ImagesView from '@/components/images/ImagesView';
import { loadImagePrefs } from '@/lib/images/options.adapter';
import type { ImageRecord } from '@/lib/images/types';
import type { Message, StoredError } from '@/lib/conversations/records';
import { ErrorCallout } from '@/components/chat/ErrorCallout';

/** An in-memory image store, as `ConversationStore.images` answers. */
function memoryImages(records: ImageRecord[]): ImageReader & { records: ImageRecord[]; changed(): void } {
  const listeners = new Set<() => void>();
  return {
    records,
    get: async (id) => records.find((r) => r.id === id),
    getMany: async (ids) => ids.map((id) => records.find((r) => r.id === id)),
    list: async ({ query, limit, before } = {}) => {
      const words = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      return records
        .filter((r) => r.partial !== true && (before === undefined || r.createdAt < before))
        .filter((r) => words.every((word) => `${r.prompt} ${r.revisedPrompt ?? ''}`.toLowerCase().includes(word)))
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, limit ?? Infinity)
        .map(({ blob: _blob, ...meta }) => meta);
    },
    watch: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    changed: () => listeners.forEach((l) => l()),
  };
}

function image(patch: Partial<ImageRecord> & { id: string; prompt: string }): ImageRecord {
  return { conversationId: 'c1', messageId: 'r1', createdAt: 1_000, source: 'generated', mime: 'image/png', index: 0, blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), ...patch };
}

let urls = 0;
const created = new Map<string, Blob>();
const revoked: string[] = [];

beforeEach(() => {
  fakeBrowser.reset();
  resetImagePrefs();
  useImageEdit.setState({ editOf: undefined });
  urls = 0;
  created.clear();
  revoked.length = 0;
  // jsdom has no object URLs: these stand for the browser's.
  URL.createObjectURL = vi.fn((blob: Blob) => {
    const url = `blob:test/${++urls}`;
    created.set(url, blob);
    return url;
  });
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
});

afterEach(() => setImageReader(undefined));

const gen = (patch: Partial<ImageGeneration> = {}): ImageGeneration => ({ model: 'gpt-image-1', marked: true, conversationId: 'c1', price: { perRequest: 0.04, currency: 'USD' }, ...patch });

function composer(generation: ImageGeneration, onSend = vi.fn(async (_text: string, _images: string[], _image?: ImageSend) => true)) {
  render(<Composer streaming={false} generation={generation} onSend={onSend} onStop={() => undefined} />);
  return onSend;
}

describe('the composer with an image model', () => {
  it('reads Generate with the price of the images asked for, and sends the options set beside it', async () => {
    const user = userEvent.setup();
    const onSend = composer(gen());
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    const generate = screen.getByRole('button', { name: 'Generate' });
    expect(screen.getByText('$0.04')).toBeInTheDocument();
    // The options' code arrives with the first image model (a chunk of its own).
    const options = await screen.findByRole('group', { name: 'Image options' });
    const size = within(options).getByRole('combobox', { name: 'Size' });
    expect(within(size).getAllByRole('option').map((o) => o.textContent)).toEqual(['Default', 'Auto', '1024 × 1024', '1536 × 1024', '1024 × 1536']);
    await user.selectOptions(size, '1536x1024');
    await user.selectOptions(within(options).getByRole('combobox', { name: 'Number of images' }), '2');
    expect(screen.getByText('$0.08')).toBeInTheDocument();
    await user.selectOptions(within(options).getByRole('combobox', { name: 'Quality' }), 'high');
    await user.selectOptions(within(options).getByRole('combobox', { name: 'Background' }), 'transparent');
    await user.selectOptions(within(options).getByRole('combobox', { name: 'Format' }), 'webp');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'a red fox in the snow');
    await user.click(generate);
    expect(onSend).toHaveBeenCalledWith('a red fox in the snow', [], { options: { size: '1536x1024', n: 2, quality: 'high', background: 'transparent', outputFormat: 'webp' } });
  });

  it('keeps each model\'s options across sessions (storage.local)', async () => {
    const user = userEvent.setup();
    composer(gen());
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Number of images' }), '3');
    await waitFor(async () => expect((await loadImagePrefs())['gpt-image-1']?.options).toEqual({ n: 3 }));
  });

  it('offers 1 to 4 images; dall-e-3 takes one, and neither Background nor Format', async () => {
    const { unmount } = render(<Composer streaming={false} generation={gen()} onSend={async () => true} onStop={() => undefined} />);
    expect(within(await screen.findByRole('combobox', { name: 'Number of images' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['1', '2', '3', '4']);
    unmount();
    composer(gen({ model: 'dall-e-3' }));
    expect(await screen.findByRole('combobox', { name: 'Number of images' })).toBeDisabled();
    expect(within(screen.getByRole('combobox', { name: 'Size' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['Default', '1024 × 1024', '1792 × 1024', '1024 × 1792']);
    expect(screen.queryByRole('combobox', { name: 'Background' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Format' })).toBeNull();
  });

  it('takes a free WxH size for a model it does not know, and says what is wrong with a bad one', async () => {
    const user = userEvent.setup();
    const onSend = composer(gen({ model: 'flux-pro' }));
    const size = await screen.findByRole('textbox', { name: 'Size' });
    await user.type(size, '1024 by 768');
    expect(size).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the size as width x height in pixels, like 1024x1024, or auto.');
    expect(size).toHaveAccessibleDescription('Enter the size as width x height in pixels, like 1024x1024, or auto.');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'a lighthouse{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.clear(size);
    await user.type(size, '1024x768');
    expect(size).not.toHaveAttribute('aria-invalid');
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect(onSend).toHaveBeenCalledWith('a lighthouse', [], { options: { size: '1024x768' } });
  });

  it('a model not marked as an image model: "Image" asks "Try anyway?" first, then generates with it', async () => {
    const user = userEvent.setup();
    const onSend = composer(gen({ model: 'mystery-model', marked: false, price: undefined }));
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Image options' })).toBeNull();
    // Queried each time: the tooltip's code arriving draws the button anew.
    const toggle = () => screen.getByRole('button', { name: 'Image' });
    expect(toggle()).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle());
    const dialog = await screen.findByRole('dialog', { name: 'Generate images with mystery-model?' });
    expect(dialog).toHaveTextContent('This model is not marked as an image model. Try anyway?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Generate' })).toBeNull();
    await user.click(toggle());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Try anyway' }));
    expect(await screen.findByRole('button', { name: 'Generate' })).toBeInTheDocument();
    expect(toggle()).toHaveAttribute('aria-pressed', 'true');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'a cat{Enter}');
    expect(onSend).toHaveBeenCalledWith('a cat', [], { options: {} });
    // Turned off again without asking.
    await user.click(toggle());
    expect(screen.getByRole('button', { name: 'Send' })).toBeInTheDocument();
  });

  it('"Edit this image" puts the image in the composer; Generate sends it as the image to edit', async () => {
    const user = userEvent.setup();
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'a red fox' })]));
    const onSend = vi.fn(async () => true);
    render(<>
      <MessageView message={reply({ imageIds: ['i1'] })} />
      <Composer streaming={false} generation={gen()} onSend={onSend} onStop={() => undefined} />
    </>);
    const group = await screen.findByRole('group', { name: 'Generated images' });
    await user.click(await within(group).findByRole('button', { name: 'Edit this image' }));
    expect(await screen.findByRole('img', { name: 'Image to edit: a red fox' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'now make it blue{Enter}');
    expect(onSend).toHaveBeenCalledWith('now make it blue', [], { options: {}, editOf: 'i1' });
    await waitFor(() => expect(screen.queryByRole('img', { name: /Image to edit/ })).toBeNull());
  });

  it('"Edit this image" with a model not marked as an image model asks "Try anyway?" before anything is sent', async () => {
    const user = userEvent.setup();
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'a red fox' })]));
    const onSend = vi.fn(async () => true);
    render(<>
      <MessageView message={reply({ imageIds: ['i1'] })} />
      <Composer streaming={false} generation={gen({ model: 'gemini-chat', marked: false, price: undefined })} onSend={onSend} onStop={() => undefined} />
    </>);
    const group = await screen.findByRole('group', { name: 'Generated images' });
    await user.click(await within(group).findByRole('button', { name: 'Edit this image' }));
    await screen.findByRole('img', { name: 'Image to edit: a red fox' });
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'now make it blue{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Generate images with gemini-chat?' });
    expect(onSend).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Try anyway' }));
    await user.click(await screen.findByRole('button', { name: 'Generate' }));
    expect(onSend).toHaveBeenCalledWith('now make it blue', [], { options: {}, editOf: 'i1' });
  });
});

function reply(patch: Partial<Message> = {}): Message {
  return {
    id: 'r1', conversationId: 'c1', seq: 2, role: 'assistant', text: '', reasoning: '', status: 'complete', createdAt: 0, model: 'gpt-image-1',
    imageRequest: { prompt: 'a red fox', options: { n: 2 } }, ...patch,
  };
}

describe('a reply with generated images', () => {
  it('shows them in a group named "Generated images", each named by its prompt, with its price', async () => {
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'a red fox in the snow' }), image({ id: 'i2', prompt: 'a red fox in the snow', index: 1 })]));
    render(<PricesContext.Provider value={{ 'gpt-image-1': { perRequest: 0.04, currency: 'USD' } }}><MessageView message={reply({ imageIds: ['i1', 'i2'] })} /></PricesContext.Provider>);
    const group = screen.getByRole('group', { name: 'Generated images' });
    await waitFor(() => expect(within(group).getAllByRole('img', { name: 'a red fox in the snow' })).toHaveLength(2));
    expect(within(group).getAllByRole('img').map((i) => i.getAttribute('src'))).toEqual(['blob:test/1', 'blob:test/2']);
    expect(within(group).getAllByText('$0.04 per image')).toHaveLength(2);
    for (const name of ['Download image', 'Copy image', 'Edit this image', 'Open image']) expect(within(group).getAllByRole('button', { name })).toHaveLength(2);
  });

  it('while it streams: the images still to come are shown as busy, partial ones as partial', async () => {
    setImageReader(memoryImages([image({ id: 'p1', prompt: 'a red fox', partial: true })]));
    render(<MessageView message={reply({ status: 'streaming', imageIds: ['p1'] })} />);
    const group = screen.getByRole('group', { name: 'Generated images' });
    expect(group).toHaveAttribute('aria-busy', 'true');
    expect(within(group).getByText('Generating…')).toBeInTheDocument();
    expect(await within(group).findByText('Partial')).toBeInTheDocument();
    expect(within(group).queryByRole('button', { name: 'Download image' })).toBeNull();
  });

  it('reads its images again once the reply ends (a partial may be replaced under its id)', async () => {
    const store = memoryImages([image({ id: 'i1', prompt: 'a red fox', partial: true })]);
    setImageReader(store);
    const { rerender } = render(<MessageView message={reply({ status: 'streaming', imageIds: ['i1'], imageRequest: { prompt: 'a red fox', options: {} } })} />);
    expect(await screen.findByText('Partial')).toBeInTheDocument();
    store.records[0] = image({ id: 'i1', prompt: 'a red fox' });
    rerender(<MessageView message={reply({ status: 'complete', imageIds: ['i1'], imageRequest: { prompt: 'a red fox', options: {} } })} />);
    expect(await screen.findByRole('button', { name: 'Download image' })).toBeInTheDocument();
    expect(screen.queryByText('Partial')).toBeNull();
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('releases its object URLs when it goes', async () => {
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'a fox' }), image({ id: 'i2', prompt: 'a fox' })]));
    const { unmount } = render(<MessageView message={reply({ imageIds: ['i1', 'i2'] })} />);
    await waitFor(() => expect(screen.getAllByRole('img', { name: 'a fox' })).toHaveLength(2));
    expect(revoked).toEqual([]);
    unmount();
    expect(revoked.sort()).toEqual(['blob:test/1', 'blob:test/2']);
  });

  it('"Download image" saves a PNG named from the prompt', async () => {
    const user = userEvent.setup();
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'A red fox, in the snow!' })]));
    const clicked: { name: string; href: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ name: this.download, href: this.href });
    });
    render(<MessageView message={reply({ imageIds: ['i1'] })} />);
    await user.click(await screen.findByRole('button', { name: 'Download image' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(clicked[0]?.name).toBe('A-red-fox-in-the-snow.png');
    expect(created.get(clicked[0]!.href)?.type).toBe('image/png');
    click.mockRestore();
    expect(imageFileName('一只红色的狐狸')).toBe('一只红色的狐狸.png');
    expect(imageFileName('???')).toBe('image.png');
  });

  it('"Copy image" puts the PNG on the clipboard', async () => {
    const user = userEvent.setup();
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'a fox' })]));
    const written: unknown[] = [];
    class FakeClipboardItem {
      constructor(readonly items: Record<string, Promise<Blob>>) {}
    }
    vi.stubGlobal('ClipboardItem', FakeClipboardItem);
    render(<MessageView message={reply({ imageIds: ['i1'] })} />);
    const write = vi.spyOn(navigator.clipboard, 'write').mockImplementation(async (items) => void written.push(...items));
    await user.click(await screen.findByRole('button', { name: 'Copy image' }));
    await waitFor(() => expect(written).toHaveLength(1));
    const blob = await (written[0] as FakeClipboardItem).items['image/png'];
    expect(blob?.type).toBe('image/png');
    write.mockRestore();
    vi.unstubAllGlobals();
  });

  it('"Open image" shows it full size over the page, named by its prompt; Close returns', async () => {
    const user = userEvent.setup();
    setImageReader(memoryImages([image({ id: 'i1', prompt: 'a fox' })]));
    render(<MessageView message={reply({ imageIds: ['i1'] })} />);
    await user.click(await screen.findByRole('button', { name: 'Open image' }));
    const viewer = await screen.findByRole('dialog', { name: 'a fox' });
    expect(within(viewer).getByRole('img', { name: 'a fox' })).toHaveAttribute('src', 'blob:test/1');
    expect(within(viewer).getByRole('button', { name: 'Download image' })).toBeInTheDocument();
    await user.click(within(viewer).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a chat model\'s reply: its gc-image references are not shown as text; the images show in the group', async () => {
    setImageReader(memoryImages([image({ id: 'g1', prompt: 'draw a blue whale', source: 'chat' })]));
    const { container } = render(<MessageView message={reply({ model: 'gemini-2.5-flash-image', imageRequest: undefined, text: 'Here is your whale.\n\n![image](gc-image:g1)\n', imageIds: ['g1'] })} />);
    // The render service answers in its own time (slower while other suites run).
    await waitFor(() => expect(container.querySelector('.md-block')).toHaveTextContent('Here is your whale.'), { timeout: 5_000 });
    expect(container).not.toHaveTextContent('gc-image');
    expect(container).not.toHaveTextContent('![image]');
    const group = screen.getByRole('group', { name: 'Generated images' });
    expect(await within(group).findByRole('img', { name: 'draw a blue whale' })).toBeInTheDocument();
  });

  it('a chat model\'s reply still streaming: an image its text names before it is saved waits (never "missing"), and shows once saved', async () => {
    const store = memoryImages([]);
    setImageReader(store);
    const streaming = reply({ model: 'gemini-2.5-flash-image', imageRequest: undefined, status: 'streaming', text: 'Here.\n\n![image](gc-image:g2)' });
    const { rerender } = render(<MessageView message={streaming} />);
    const group = screen.getByRole('group', { name: 'Generated images' });
    // The store has answered (nothing yet).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(within(group).queryByText('This image is no longer stored.')).toBeNull();
    expect(within(group).queryByRole('img')).toBeNull();
    // Saved: the store has it, and the reply names it among its images.
    store.records.push(image({ id: 'g2', prompt: 'draw a blue whale', source: 'chat' }));
    rerender(<MessageView message={{ ...streaming, imageIds: ['g2'] }} />);
    expect(await within(screen.getByRole('group', { name: 'Generated images' })).findByRole('img', { name: 'draw a blue whale' })).toBeInTheDocument();
  });
});

describe('the Images view', () => {
  const records = () => [
    image({ id: 'old', prompt: 'an old lighthouse at dusk', createdAt: 1_000, conversationId: 'c-old', messageId: 'm-old' }),
    image({ id: 'new', prompt: 'a red fox in the snow', createdAt: 3_000, conversationId: 'c-new', messageId: 'm-new' }),
    image({ id: 'mid', prompt: 'a blue whale', createdAt: 2_000, conversationId: 'c-mid', messageId: 'm-mid' }),
    image({ id: 'part', prompt: 'a red half', createdAt: 4_000, partial: true }),
  ];

  it('lists every image newest first, finds one by a word of its prompt, and opens its conversation', async () => {
    const user = userEvent.setup();
    const store = memoryImages(records());
    setImageReader(store);
    const onOpen = vi.fn();
    render(<ImagesView onOpen={onOpen} />);
    const list = await screen.findByRole('list', { name: 'Generated images, newest first' });
    await waitFor(() => expect(within(list).getAllByRole('img').map((i) => i.getAttribute('alt'))).toEqual(['a red fox in the snow', 'a blue whale', 'an old lighthouse at dusk']));
    const search = screen.getByRole('searchbox', { name: 'Search images' });
    expect(search).toHaveFocus();
    await user.type(search, 'LIGHTHOUSE');
    await waitFor(() => expect(within(screen.getByRole('list', { name: /Generated images/ })).getAllByRole('img').map((i) => i.getAttribute('alt'))).toEqual(['an old lighthouse at dusk']));
    await user.click(screen.getByRole('button', { name: /an old lighthouse at dusk/ }));
    expect(onOpen).toHaveBeenCalledWith('c-old', 'm-old');
    await user.clear(search);
    await user.type(search, 'zebra');
    expect(await screen.findByText('No image\'s prompt has “zebra”')).toBeInTheDocument();
  });

  it('shows a new image when the store says one was added', async () => {
    const store = memoryImages(records());
    setImageReader(store);
    render(<ImagesView onOpen={() => undefined} />);
    await waitFor(() => expect(screen.getAllByRole('img')).toHaveLength(3));
    store.records.push(image({ id: 'newest', prompt: 'a green parrot', createdAt: 5_000 }));
    act(() => store.changed());
    await waitFor(() => expect(screen.getAllByRole('img')[0]).toHaveAccessibleName('a green parrot'));
  });

  it('says so when there are none yet', async () => {
    setImageReader(memoryImages([]));
    render(<ImagesView onOpen={() => undefined} />);
    expect(await screen.findByText('No images yet')).toBeInTheDocument();
  });
});

describe('an image request refused', () => {
  const error = (patch: Partial<Pick<StoredError, 'kind' | 'code' | 'detail'>>): StoredError => ({ kind: 'bad_request', url: 'https://g.example/v1/images/generations', status: 400, siteUrl: 'https://g.example', links: [], ...patch }) as StoredError;

  it('by the safety system: says so, and how to reword the prompt', () => {
    // The detail codes come with the image client (lib/gateway/errors.ts ERROR_DETAILS).
    render(<ErrorCallout error={error({ kind: 'content_blocked', code: 'content_policy_violation', detail: { code: 'content_policy' as never } })} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Blocked by the model\'s filter');
    expect(alert).toHaveTextContent('The gateway\'s safety system refused this prompt (content policy).');
    expect(alert).toHaveTextContent('Reword the prompt');
  });

  it('for a size the model does not take: names the sizes it takes', () => {
    render(<ErrorCallout error={error({ code: 'invalid_value', detail: { code: 'unsupported_option' as never, params: { param: 'size', supported: '1024x1024,1536x1024, 1024x1536,auto' } } })} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The model does not take the size asked for. It takes: 1024x1024, 1536x1024, 1024x1536, auto.');
    expect(alert).toHaveTextContent('Choose one of the sizes');
  });

  it('in Chinese too', async () => {
    const { setLanguageChoice } = await import('@/components/i18n/words');
    act(() => setLanguageChoice('zh-CN'));
    render(<ErrorCallout error={error({ detail: { code: 'unsupported_option' as never, params: { param: 'size', supported: '1024x1024' } } })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('模型不支持所请求的尺寸。它支持：1024x1024。');
    act(() => setLanguageChoice('en'));
  });
});

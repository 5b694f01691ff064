// @vitest-environment jsdom
/**
 * Opening a saved conversation: its newest replies are sent to render as soon as storage hands
 * the conversation over, before the page draws it (components/hooks/useConversation.ts,
 * `renderRepliesAhead`), so their views draw them rendered, without asking again.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageView, renderRepliesAhead } from '@/components/chat/MessageView';
import { useConversation } from '@/components/hooks/useConversation';
import type { ConversationStore } from '@/lib/conversations/store';
import type { Message } from '@/lib/conversations/records';
import type * as RenderModule from '@/lib/render/markdown';
import { renderClient } from '@/components/chat/render/render-client';

const rendered: string[] = [];
vi.mock('@/lib/render/markdown', async (importOriginal) => {
  const real = await importOriginal<typeof RenderModule>();
  return {
    ...real,
    renderMarkdownBlock: (source: string, labels?: Parameters<typeof real.renderMarkdownBlock>[1]) => {
      rendered.push(source);
      return real.renderMarkdownBlock(source, labels);
    },
  };
});
vi.mock('@/lib/protocol/background.adapter', () => ({ watchRuns: () => () => undefined, askBackground: async () => undefined }));

function message(patch: Partial<Message> & Pick<Message, 'id'>): Message {
  return { conversationId: 'c', seq: 1, role: 'assistant', text: '', reasoning: '', status: 'complete', createdAt: 0, ...patch };
}

async function settle(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  });
}

beforeEach(() => {
  rendered.length = 0;
});

describe('renderRepliesAhead', () => {
  it('renders about a screen of the newest finished replies, newest first, and their views draw them rendered at once', async () => {
    // Each reply is most of a screen: the newest two are rendered ahead, not the oldest.
    const long = (word: string) => `Reply *${word}*.\n\n${'Some words that fill the screen. '.repeat(60)}`;
    const branch = [
      message({ id: 'q1', role: 'user', text: 'First *question*' }),
      message({ id: 'a1', text: long('oldest') }),
      message({ id: 'q2', role: 'user', text: 'Second' }),
      message({ id: 'a2', text: long('older') }),
      message({ id: 'q3', role: 'user', text: 'Third' }),
      message({ id: 'a3', text: long('newest') }),
      message({ id: 'q4', role: 'user', text: 'Fourth' }),
      message({ id: 'a4', text: 'Still *coming*', status: 'streaming' }),
    ];
    renderRepliesAhead(branch);
    await waitFor(() => expect(rendered.some((source) => source.includes('older'))).toBe(true));
    await settle();
    expect(rendered.filter((source) => source.startsWith('Reply')).map((source) => source.trim())).toEqual(['Reply *newest*.', 'Reply *older*.']);
    expect(rendered.join('\n')).not.toMatch(/question|Still/);

    // Drawn now: rendered in its first paint, never busy, and rendered by nobody again.
    rendered.length = 0;
    const { container } = render(<MessageView message={branch[5]!} />);
    expect(container.querySelector('em')).toHaveTextContent('newest');
    expect(container.querySelector('.markdown')).not.toHaveAttribute('aria-busy');
    await settle();
    expect(rendered).toEqual([]);
  });

  it('a reply drawn while its rendering is still on its way waits for that one answer', async () => {
    const reply = message({ id: 'b1', text: 'One **answer**.\n\nFor `both`.' });
    renderRepliesAhead([reply]);
    const { container } = render(<MessageView message={reply} />);
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('answer'));
    expect(container.querySelector('code')).toHaveTextContent('both');
    expect(rendered.filter((source) => source.includes('answer'))).toHaveLength(1);
  });
});

describe('a rendering that arrives between a view\'s render and its commit', () => {
  it('is drawn, though no answer tells of it (a render that yielded while the answer came)', async () => {
    const reply = message({ id: 'r1', text: 'Between **render** and commit.' });
    // The rendering lands after the view has rendered as waiting, before it commits: here, a
    // sibling rendered after it hands it over.
    function Arrives() {
      renderClient().adopt('Between **render** and commit.', { html: '<p>Between <strong>render</strong> and commit.</p>', math: false, diagram: false });
      return null;
    }
    const { container } = render(<><MessageView message={reply} /><Arrives /></>);
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('render'));
    expect(container.querySelector('.md-pending')).toBeNull();
  });
});

describe('useConversation', () => {
  function fakeStore(conversations: Record<string, Message[]>) {
    const watchers = new Map<string, (messages: Message[], unreadable: number) => void>();
    const store = {
      watchConversation: () => () => undefined,
      watchMessages: (id: string, onChange: (messages: Message[], unreadable: number) => void) => {
        watchers.set(id, onChange);
        return () => watchers.delete(id);
      },
      keepInterruptedText: async () => undefined,
    } as unknown as ConversationStore;
    const read = (id: string, messages = conversations[id]!) => act(() => watchers.get(id)!(messages, 0));
    return { store, read };
  }

  function Shown({ store, id, onFirstRead }: { store: ConversationStore; id: string; onFirstRead: (messages: readonly Message[]) => Promise<unknown> | undefined }) {
    const view = useConversation(store, id, onFirstRead);
    return <p>{view.messages.length} messages</p>;
  }

  it('says whether the conversation shown has been read: an empty one read is empty, one being read is not yet anything', () => {
    const { store, read } = fakeStore({ one: [message({ id: 'x1', conversationId: 'one', role: 'user', text: 'Hi' })], empty: [] });
    function Read({ id }: { id: string }) {
      const view = useConversation(store, id);
      return <p>{view.read ? `read: ${view.messages.length}` : 'reading'}</p>;
    }
    const { rerender } = render(<Read id="one" />);
    expect(screen.getByText('reading')).toBeInTheDocument();
    read('one');
    expect(screen.getByText('read: 1')).toBeInTheDocument();
    // Another conversation: not read until its own messages are, whatever the last one's were.
    rerender(<Read id="empty" />);
    expect(screen.getByText('reading')).toBeInTheDocument();
    read('empty');
    expect(screen.getByText('read: 0')).toBeInTheDocument();
  });

  it('hands each conversation\'s messages over as first read, before they are drawn, and not again when they change', () => {
    const one = [message({ id: 'x1', conversationId: 'one', role: 'user', text: 'Hi' }), message({ id: 'x2', conversationId: 'one', text: 'Hello' })];
    const two = [message({ id: 'y1', conversationId: 'two', role: 'user', text: 'Yo' })];
    const { store, read } = fakeStore({ one, two });
    const seen: { ids: string[]; drawn: string }[] = [];
    const onFirstRead = (messages: readonly Message[]) => {
      seen.push({ ids: messages.map((m) => m.id), drawn: screen.getByText(/messages$/).textContent ?? '' });
      return undefined;
    };
    const { rerender } = render(<Shown store={store} id="one" onFirstRead={onFirstRead} />);
    read('one');
    expect(screen.getByText('2 messages')).toBeInTheDocument();
    expect(seen).toEqual([{ ids: ['x1', 'x2'], drawn: '0 messages' }]);
    // A write later (a new message, a rename): not a first read.
    read('one', [...one, message({ id: 'x3', conversationId: 'one', role: 'user', text: 'More' })]);
    expect(screen.getByText('3 messages')).toBeInTheDocument();
    expect(seen).toHaveLength(1);
    // Another conversation opened: its first read.
    rerender(<Shown store={store} id="two" onFirstRead={onFirstRead} />);
    read('two');
    expect(seen.at(-1)).toEqual({ ids: ['y1'], drawn: '0 messages' });
  });

  it('draws a conversation once what its first read started is done, or after a moment at most; a newer read meanwhile is the one drawn', async () => {
    const one = [message({ id: 'x1', conversationId: 'one', role: 'user', text: 'Hi' }), message({ id: 'x2', conversationId: 'one', text: 'Hello' })];
    const { store, read } = fakeStore({ one, never: one });
    let done: () => void = () => undefined;
    const { unmount } = render(<Shown store={store} id="one" onFirstRead={() => new Promise<void>((resolve) => { done = resolve; })} />);
    read('one');
    // Waiting for the replies' renderings: not drawn yet; a write meanwhile is drawn in its place.
    read('one', [...one, message({ id: 'x3', conversationId: 'one', role: 'user', text: 'More' })]);
    await settle();
    expect(screen.getByText('0 messages')).toBeInTheDocument();
    await act(async () => done());
    expect(screen.getByText('3 messages')).toBeInTheDocument();
    unmount();
    // Renderings that never come: drawn without them, in a moment.
    const started = Date.now();
    render(<Shown store={store} id="never" onFirstRead={() => new Promise<void>(() => undefined)} />);
    read('never');
    await waitFor(() => expect(screen.getByText('2 messages')).toBeInTheDocument());
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

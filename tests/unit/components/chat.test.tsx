// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Composer } from '@/components/chat/Composer';
import { ErrorCallout } from '@/components/chat/ErrorCallout';
import { LARGE_BLOCK_CHARS, Markdown } from '@/components/chat/Markdown';
import { MessageView, type MessageActions } from '@/components/chat/MessageView';
import { buildTree, currentBranch, versionInfo } from '@/lib/conversations/branches';
import { Profiler, useState, type ReactElement } from 'react';
import { announceLiveText, publishLiveReplies } from '@/components/stores/live-replies';
import { MarkdownBlockSplitter } from '@/lib/render/blocks';
import { longMarkdown } from '../../gateway/models';
import type { Message, StoredError } from '@/lib/conversations/records';
import { GatewayError } from '@/lib/gateway';
import { blockDetail } from '@/lib/gateway/blocks';
import { storedError } from '@/lib/conversations/records';
import type * as RenderModule from '@/lib/render/markdown';
import { labelsFor } from '@/components/i18n/markdown-labels';
import { wordsFor } from '@/lib/i18n/messages';

const rendered: string[] = [];
vi.mock('@/lib/render/markdown', async (importOriginal) => {
  const real = await importOriginal<typeof RenderModule>();
  return {
    ...real,
    renderMarkdownBlock: (source: string) => {
      rendered.push(source);
      // A block the renderer cannot render (as when its code is gone under an open page).
      if (source.includes('⚠unrenderable')) throw new Error('renderer failed');
      return real.renderMarkdownBlock(source);
    },
  };
});

describe('Composer', () => {
  it('↑ in an empty composer edits the last message; with text in it, it moves the caret', async () => {
    const onEditLast = vi.fn();
    render(<Composer streaming={false} onSend={async () => true} onStop={() => undefined} onEditLast={onEditLast} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.keyboard('{ArrowUp}');
    expect(onEditLast).toHaveBeenCalledTimes(1);
    await userEvent.type(box, 'x{ArrowUp}');
    expect(onEditLast).toHaveBeenCalledTimes(1);
  });

  it('Enter sends and clears; Shift+Enter makes a new line', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(box).toHaveFocus();
    await userEvent.type(box, 'one{Shift>}{Enter}{/Shift}two');
    expect(box).toHaveValue('one\ntwo');
    await userEvent.keyboard('{Enter}');
    expect(onSend).toHaveBeenCalledWith('one\ntwo', []);
    expect(box).toHaveValue('');
  });

  it('takes the focus when it appears, but not from a control the user moved to meanwhile', () => {
    const { unmount } = render(<section className="chat"><button type="button">New chat</button></section>);
    screen.getByRole('button', { name: 'New chat' }).focus();
    unmount();
    // From nowhere (or from within its own conversation): focused.
    const first = render(<section className="chat"><Composer streaming={false} onSend={async () => true} onStop={() => undefined} /></section>);
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveFocus();
    first.unmount();
    // The user moved to a tab outside the conversation before it appeared: left there.
    render(<div role="tablist" aria-label="Side panel"><button type="button" role="tab">Chat</button></div>);
    const tab = screen.getByRole('tab', { name: 'Chat' });
    tab.focus();
    render(<section className="chat"><Composer streaming={false} onSend={async () => true} onStop={() => undefined} /></section>);
    expect(tab).toHaveFocus();
    expect(screen.getByRole('textbox', { name: 'Message' })).not.toHaveFocus();
  });

  it('Enter that confirms an input method\'s candidate (pinyin, say) does not send', () => {
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: '你好' } });
    fireEvent.keyDown(box, { key: 'Enter', isComposing: true });
    fireEvent.keyDown(box, { key: 'Enter', keyCode: 229 });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend).toHaveBeenCalledWith('你好', []);
  });

  it('keeps the text when sending is refused', async () => {
    render(<Composer streaming={false} onSend={async () => false} onStop={() => undefined} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.type(box, 'keep me{Enter}');
    expect(box).toHaveValue('keep me');
  });

  it('offers Stop instead of Send while a reply streams', async () => {
    const onStop = vi.fn();
    render(<Composer streaming onSend={async () => true} onStop={onStop} />);
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(onStop).toHaveBeenCalled();
  });
});

describe('Composer files (issue 32)', () => {
  const text = (name: string, content: string, type = 'text/plain') => new File([content], name, { type });

  it('attaches a text file as a chip (its lines and tokens), removable, and sends its text with the message', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} />);
    await userEvent.upload(screen.getByLabelText('Attach file'), [text('prices.csv', 'model,price\na,1\nb,2\n', 'text/csv'), text('notes.md', '# Notes')]);
    const chips = await screen.findByRole('list', { name: 'Attached files' });
    await waitFor(() => expect(chips).toHaveTextContent('notes.md'));
    expect(chips).toHaveTextContent('prices.csv3 lines · ~5 tokens');
    await userEvent.click(screen.getByRole('button', { name: 'Remove notes.md' }));
    expect(chips).not.toHaveTextContent('notes.md');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Cheapest?{Enter}');
    expect(onSend).toHaveBeenCalledWith('Cheapest?', [], undefined, [expect.objectContaining({ name: 'prices.csv', kind: 'text', language: 'csv', lines: 3, text: 'model,price\na,1\nb,2\n' })]);
    // Sent: the chips go with the message.
    expect(screen.queryByRole('list', { name: 'Attached files' })).toBeNull();
  });

  it('a file alone can be sent, dropped or pasted', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} />);
    fireEvent.drop(screen.getByRole('textbox', { name: 'Message' }), { dataTransfer: { files: [text('a.txt', 'alpha')] } });
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), { clipboardData: { files: [text('b.py', 'print(1)')] } });
    await waitFor(() => expect(screen.getByRole('list', { name: 'Attached files' })).toHaveTextContent('b.py'));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledWith('', [], undefined, [expect.objectContaining({ name: 'a.txt' }), expect.objectContaining({ name: 'b.py', language: 'python' })]);
  });

  it('refuses a binary file by name and keeps what was typed and attached', async () => {
    render(<Composer streaming={false} onSend={async () => true} onStop={() => undefined} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Keep me');
    await userEvent.upload(screen.getByLabelText('Attach file'), [text('ok.txt', 'fine'), new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1])], 'photo.txt', { type: 'text/plain' })]);
    expect(await screen.findByRole('alert')).toHaveTextContent('photo.txt is not a text file');
    expect(screen.getByRole('list', { name: 'Attached files' })).toHaveTextContent('ok.txt');
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Keep me');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a file over the size limit is refused before it is read, with both sizes', async () => {
    render(<Composer streaming={false} onSend={async () => true} onStop={() => undefined} />);
    const big = text('huge.log', 'x');
    Object.defineProperty(big, 'size', { value: 40 * 1024 * 1024 });
    await userEvent.upload(screen.getByLabelText('Attach file'), big);
    expect(await screen.findByRole('alert')).toHaveTextContent('huge.log is 40 MB; files up to 32 MB can be attached.');
  });
});

describe('Composer images (seed part 4, rule 2: confirm the model takes images first)', () => {
  const png = new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' });

  it('a model whose image support is unknown: off, and when an image is added says why and the user can confirm', async () => {
    const onConfirm = vi.fn();
    render(<Composer streaming={false} onSend={async () => true} onStop={() => undefined} images={{ model: 'mystery', accepts: 'unknown', onConfirm }} />);
    expect(screen.getByLabelText('Attach image')).toBeDisabled();
    // No standing paragraph about images: the note appears where it matters.
    expect(screen.queryByRole('note')).toBeNull();
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), { clipboardData: { files: [png] } });
    expect(await screen.findByRole('note')).toHaveTextContent('the gateway does not say whether mystery accepts images');
    expect(screen.getByRole('alert')).toHaveTextContent('Confirm first that mystery accepts images.');
    await userEvent.click(screen.getByRole('button', { name: 'mystery accepts images' }));
    expect(onConfirm).toHaveBeenCalled();
  });

  it('a model that takes images: attach, preview, remove, and send them with the text', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} images={{ model: 'vision', accepts: true, onConfirm: () => undefined }} />);
    await userEvent.upload(screen.getByLabelText('Attach image'), [png, png]);
    expect(await screen.findByRole('img', { name: 'Attached image 2' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove image 2' }));
    expect(screen.queryByRole('img', { name: 'Attached image 2' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'look{Enter}');
    expect(onSend).toHaveBeenCalledWith('look', [expect.stringMatching(/^data:image\/png;base64,/)]);
  });

  it('refuses an image for a text-only model, saying so', async () => {
    render(<Composer streaming={false} onSend={async () => true} onStop={() => undefined} images={{ model: 'echo', accepts: false, onConfirm: () => undefined }} />);
    expect(screen.getByLabelText('Attach image')).toBeDisabled();
    fireEvent.drop(screen.getByRole('textbox', { name: 'Message' }), { dataTransfer: { files: [png] } });
    expect(await screen.findByRole('note')).toHaveTextContent('lists echo as text-only');
    expect(screen.getByRole('alert')).toHaveTextContent('echo does not accept images.');
  });

  it("the attach button's tooltip says why images are off", async () => {
    render(<Composer streaming={false} onSend={async () => true} onStop={() => undefined} images={{ model: 'echo', accepts: false, onConfirm: () => undefined }} />);
    await userEvent.hover(screen.getByLabelText('Attach image').closest('label')!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent("Images are off: the gateway's catalogue lists echo as text-only.");
  });
});

describe('ErrorCallout', () => {
  it('names the address, status and code, and links the remedy', () => {
    const error: StoredError = storedError(new GatewayError({ kind: 'invalid_key', url: 'https://gw.example/v1/chat/completions', siteUrl: 'https://gw.example', status: 401, code: 'INVALID_API_KEY', gatewayMessage: 'Invalid API key' }));
    render(<ErrorCallout error={error} />);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The API key was rejected');
    expect(alert).toHaveTextContent('https://gw.example/v1/chat/completions');
    expect(alert).toHaveTextContent('status 401');
    expect(alert).toHaveTextContent('INVALID_API_KEY');
    expect(screen.getByRole('link', { name: 'Keys page' })).toHaveAttribute('href', 'https://gw.example/keys');
    expect(screen.getByRole('link', { name: 'Keys page' })).toHaveAttribute('rel', 'noopener noreferrer');
  });
});

function message(patch: Partial<Message>): Message {
  return { id: 'm', conversationId: 'c', seq: 1, role: 'assistant', text: '', reasoning: '', status: 'complete', createdAt: 0, ...patch };
}

describe('MessageView', () => {
  it('names each message as a user or assistant message', () => {
    render(<>
      <MessageView message={message({ id: 'u', role: 'user', text: 'hi <b>there</b>' })} />
      <MessageView message={message({ id: 'a', text: 'hello' })} />
    </>);
    expect(screen.getByRole('article', { name: 'User message' })).toHaveTextContent('hi <b>there</b>');
    expect(screen.getByRole('article', { name: 'Assistant message' })).toBeInTheDocument();
  });

  it('folds reasoning away but keeps it available', async () => {
    render(<MessageView message={message({ text: 'Answer', reasoning: 'Because.' })} />);
    const summary = screen.getByText('Reasoning');
    const details = summary.closest('details')!;
    expect(details).not.toHaveAttribute('open');
    await userEvent.click(summary);
    expect(details).toHaveAttribute('open');
    expect(screen.getByText('Because.')).toBeVisible();
  });

  it('says a stopped or interrupted reply kept what arrived, and shows usage', () => {
    render(<MessageView message={message({ text: 'Part', status: 'interrupted', usage: { promptTokens: 3, completionTokens: 5 } })} />);
    expect(screen.getByText(/Interrupted before the reply finished/)).toBeInTheDocument();
    expect(screen.getByLabelText('Token usage')).toHaveTextContent('Tokens: 3 in · 5 out');
  });
});

/**
 * A streaming reply `id`'s view (inside `wrap`), how to publish its text as a frame does, and how
 * to end its streaming.
 */
function streamingView(id: string, wrap: (view: ReactElement) => ReactElement = (view) => view) {
  const rendered = render(wrap(<MessageView message={message({ id, text: '', status: 'streaming' })} />));
  const publish = (text: string) => act(() => publishLiveReplies(new Map([[id, { text, reasoning: '' }]])));
  const end = () => act(() => publishLiveReplies(new Map(), [id]));
  return { container: rendered.container, publish, end };
}

/** Lets the render service (in the page under jsdom, as where no worker starts) answer what was asked. */
async function settle(): Promise<void> {
  await act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  });
}

describe('Markdown', () => {
  it('renders a finished block once; only the growing block is rendered again', async () => {
    const { rerender, container } = render(<Markdown text={'# Title\n\nFirst para'} streaming />);
    await waitFor(() => expect(container.querySelector('h1')).toHaveTextContent('Title'));
    rendered.length = 0;
    for (const text of ['# Title\n\nFirst paragraph', '# Title\n\nFirst paragraph.\n\nSecond']) {
      rerender(<Markdown text={text} streaming />);
      await settle();
    }
    rerender(<Markdown text={'# Title\n\nFirst paragraph.\n\nSecond'} />);
    await settle();
    expect(rendered.filter((s) => s.startsWith('# Title'))).toEqual([]);
    expect(rendered.filter((s) => s.startsWith('First'))).toEqual(['First paragraph', 'First paragraph.\n']);
    expect(rendered.filter((s) => s.startsWith('Second'))).toEqual(['Second']);
    expect(container.querySelector('h1')).toHaveTextContent('Title');
  });

  it('a reply that ends as its last rendering showed it is not left busy; a finished reply\'s new text is shown whole', async () => {
    const { rerender, container } = render(<Markdown text={'All **done**'} streaming />);
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('done'));
    rerender(<Markdown text={'All **done**'} />);
    await settle();
    expect(container.querySelector('.markdown')).not.toHaveAttribute('aria-busy');
    // A finished reply's text replaced (edited): every block as it now is.
    for (const text of ['All **done**, and more', 'First *changed*\n\nAll **done**, and more', 'First *kept*\n\nAll **done**, and more']) {
      rerender(<Markdown text={text} />);
      await waitFor(() => expect(container.querySelector('.markdown')).not.toHaveAttribute('aria-busy'));
      expect(container).toHaveTextContent(text.replace(/[*]/g, '').replace('\n\n', ' '));
    }
  });

  it('a growing block shows its text at once, then rendered, never as raw HTML', async () => {
    const { container } = render(<Markdown text={'<img src=x onerror=alert(1)> **b**'} streaming />);
    expect(container).toHaveTextContent('<img src=x onerror=alert(1)> **b**');
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('b'));
    expect(container.querySelector('img')).toBeNull();
  });

  it('streaming through the live store, a frame that only grows the last block renders neither the view nor the reply; the end shows what a fresh render shows', async () => {
    const text = longMarkdown(6 * 1024);
    let commits = 0;
    const streamingReply = message({ id: 'live-1', text: '', status: 'streaming' });
    const view = (m: Message) => <Profiler id="reply" onRender={() => commits++}><MessageView message={m} /></Profiler>;
    const { rerender, container } = render(view(streamingReply));
    let frames = 0;
    for (let end = 5; end < text.length; end += 23) {
      act(() => publishLiveReplies(new Map([['live-1', { text: text.slice(0, end), reasoning: '' }]])));
      frames++;
      // A rendering comes back most frames (the worker is quick); its frame draws it.
      if (frames % 3 === 0) await settle();
    }
    act(() => publishLiveReplies(new Map([['live-1', { text, reasoning: '' }]])));
    await settle();
    const blocks = new MarkdownBlockSplitter().split(text).closed.length;
    // React draws when a group of blocks is started (16 blocks), not each frame, nor each block
    // finished, nor each rendering arrived.
    expect(commits).toBeLessThan(frames / 3);
    expect(commits).toBeLessThan(blocks / 4);
    // A frame that only grows the last block commits nothing, and the block shows the new text.
    const before = commits;
    act(() => publishLiveReplies(new Map([['live-1', { text: `${text} and then some`, reasoning: '' }]])));
    await settle();
    expect(commits).toBe(before);
    expect(container.querySelector('.markdown')).toHaveTextContent(/and then some$/);
    act(() => publishLiveReplies(new Map([['live-1', { text, reasoning: '' }]])));
    await settle();
    const streamed = container.querySelector('.markdown')!.innerHTML;
    // What streamed is what the finished reply shows, and what a fresh render of the text shows.
    rerender(view({ ...streamingReply, text, status: 'complete' }));
    act(() => publishLiveReplies(new Map(), ['live-1']));
    await waitFor(() => expect(container.querySelector('.markdown')).not.toHaveAttribute('aria-busy'));
    const fresh = render(<Markdown text={text} />);
    await waitFor(() => expect(fresh.container.querySelector('.markdown')).not.toHaveAttribute('aria-busy'));
    const settled = (html: string) => html.replace(/ aria-busy="true"/g, '');
    expect(settled(container.querySelector('.markdown')!.innerHTML)).toBe(settled(fresh.container.querySelector('.markdown')!.innerHTML));
    expect(settled(streamed)).toBe(settled(fresh.container.querySelector('.markdown')!.innerHTML));
  });

  it('while a reply streams, blocks that finish (several in a frame) and their own renderings are drawn without a React render', async () => {
    let commits = 0;
    const { container, publish, end } = streamingView('live-3', (view) => <Profiler id="reply" onRender={() => commits++}>{view}</Profiler>);
    publish('First *pa');
    // Its rendering arrived (the worker has started).
    await waitFor(() => expect(container.querySelector('.md-block:not(.md-plain)')).not.toBeNull());
    const before = commits;
    // One frame finishes the block (its last rendering was of older text) and two more whole
    // blocks, and starts a fourth; the finished blocks' renderings come after.
    publish('First *para* ends.\n\nSecond **one**.\n\nThird `one`.\n\nFour');
    await waitFor(() => expect(container.querySelector('em')).toHaveTextContent('para'));
    expect(commits - before).toBe(0);
    expect(container.querySelector('strong')).toHaveTextContent('one');
    expect(container.querySelector('code')).toHaveTextContent('one');
    expect(container.querySelector('.markdown')).toHaveTextContent(/Four$/);
    end();
  });

  it('text that comes ahead of its frame is drawn in that frame already rendered, never first as its markers', async () => {
    const { container, publish, end } = streamingView('live-5');
    publish('First *pa');
    await waitFor(() => expect(container.querySelector('.md-block:not(.md-plain)')).not.toBeNull());
    const next = 'First *para* ends.\n\nSecond **one**.\n\nThird `one`.\n\nFour *th*';
    // The background's delta reaches the page: heard at once, published with the next frame.
    announceLiveText('live-5', { text: next, reasoning: '' });
    await settle();
    // Nothing is drawn before its frame.
    expect(container.querySelector('.markdown')).not.toHaveTextContent('Second');
    const seen: string[] = [];
    const observer = new MutationObserver(() => seen.push(container.querySelector('.markdown')?.textContent ?? ''));
    observer.observe(container, { subtree: true, childList: true, characterData: true });
    publish(next);
    await settle();
    observer.disconnect();
    expect(container.querySelector('strong')).toHaveTextContent('one');
    expect(container.querySelector('code')).toHaveTextContent('one');
    expect(container.querySelector('.markdown')).toHaveTextContent(/Four th$/);
    // Each block came rendered: no moment showed its markers.
    expect(seen.filter((text) => /\*\*|`|\*th/.test(text))).toEqual([]);
    end();
  });

  it('a growing block whose text is replaced never shows the old text\'s rendering meanwhile', async () => {
    const { container, publish, end } = streamingView('live-6');
    publish('Alpha *one');
    await settle();
    publish('Alpha *one* and');
    await waitFor(() => expect(container.querySelector('em')).toHaveTextContent('one'));
    // (A snapshot that moved the reply's opening into its reasoning, say.)
    publish('Beta **two** is');
    expect(container.querySelector('.markdown')).not.toHaveTextContent('Alpha');
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('two'));
    end();
  });

  it('a streaming reply whose text is replaced by one with more blocks shows the new blocks, not the old ones', async () => {
    const { container, publish, end } = streamingView('live-4');
    publish('Old *first*.\n\nSame second.\n\nThi');
    await waitFor(() => expect(container.querySelector('em')).toHaveTextContent('first'));
    // (A snapshot that moved the reply's opening into its reasoning, say.)
    publish('New **first**.\n\nSame second.\n\nThird.\n\nFourth.\n\nFif');
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('first'));
    expect(container.querySelector('em')).toBeNull();
    expect(container.querySelector('.markdown')).toHaveTextContent(/^New first\. ?Same second\. ?Third\. ?Fourth\. ?Fif$/);
    end();
  });

  it('a long finished reply whose text is replaced shows every block as it now is, in groups drawn for good too', async () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} is *here*.`);
    const { rerender, container } = render(<Markdown text={paragraphs.join('\n\n')} />);
    await waitFor(() => expect(container.querySelector('.markdown')).not.toHaveAttribute('aria-busy'));
    expect(container.querySelectorAll('em')).toHaveLength(40);
    const changed = paragraphs.map((p, i) => (i === 3 ? 'Paragraph 3 is **changed**.' : p));
    rerender(<Markdown text={changed.join('\n\n')} />);
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('changed'));
    await waitFor(() => expect(container.querySelector('.markdown')).not.toHaveAttribute('aria-busy'));
    expect(container.querySelectorAll('em')).toHaveLength(39);
    expect(container).toHaveTextContent('Paragraph 39 is here.');
  });

  it('a growing block the renderer cannot render shows its newest text while it streams and once it ends, never an older one', async () => {
    const final = 'Para.\n\nB⚠unrenderable and its words keep coming';
    const streamingReply = message({ id: 'live-2', text: '', status: 'streaming' });
    const { rerender, container } = render(<MessageView message={streamingReply} />);
    for (let end = 8; end <= final.length; end += 3) {
      act(() => publishLiveReplies(new Map([['live-2', { text: final.slice(0, end), reasoning: '' }]])));
      if (end % 2 !== 0) continue;
      // Once the renderings asked for have come (failed), the growing block shows the text as it is now.
      await settle();
      expect(container.querySelector('.markdown')).toHaveTextContent(final.slice(7, end).trim());
    }
    act(() => publishLiveReplies(new Map([['live-2', { text: final, reasoning: '' }]])));
    await settle();
    expect(container.querySelector('.markdown')).toHaveTextContent('B⚠unrenderable and its words keep coming');
    rerender(<MessageView message={{ ...streamingReply, text: final, status: 'complete' }} />);
    act(() => publishLiveReplies(new Map(), ['live-2']));
    await settle();
    expect(container.querySelector('.markdown')).toHaveTextContent('Para. B⚠unrenderable and its words keep coming');
  });

  it('a finished reply waits for its rendering: its first paint is never raw markers', async () => {
    const { container } = render(<Markdown text={'A **finished** reply.'} />);
    // Its text may hold its room meanwhile, unseen.
    expect(container.querySelector('.md-plain')).toBeNull();
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('finished'));
  });
});

describe('a long reply never freezes the page (issue 28, item 5)', () => {
  const prose = (chars: number) => 'The reply goes on **and on** in one paragraph without a break. '.repeat(Math.ceil(chars / 64)).slice(0, chars);
  const code = Array.from({ length: 4000 }, (_, i) => `export const value${i} = compute(${i}); // <not a tag>`).join('\n');

  it('a block past the size is shown as plain text, never parsed while it grows nor once final; formatted once, when the reader asks', async () => {
    rendered.length = 0;
    const long = prose(LARGE_BLOCK_CHARS + 5_000);
    const { rerender, container } = render(<Markdown text={`# Title\n\n${long}`} streaming />);
    rerender(<Markdown text={`# Title\n\n${long} More`} streaming />);
    rerender(<Markdown text={`# Title\n\n${long} More words.`} streaming />);
    expect(rendered.filter((s) => s.length > LARGE_BLOCK_CHARS)).toEqual([]);
    expect(container).toHaveTextContent('without a break. The reply goes on **and on**');
    expect(container.querySelector('strong')).toBeNull();
    await waitFor(() => expect(container.querySelector('h1')).toHaveTextContent('Title'));
    rerender(<Markdown text={`# Title\n\n${long} More words.`} />);
    await settle();
    expect(rendered.filter((s) => s.length > LARGE_BLOCK_CHARS)).toEqual([]);
    expect(container.querySelector('strong')).toBeNull();
    expect(container).toHaveTextContent(/A long block \(\d+ kB\), shown as text./);
    await userEvent.click(screen.getByRole('button', { name: 'Show formatted (may take a moment)' }));
    await waitFor(() => expect(container.querySelector('strong')).toHaveTextContent('and on'));
    expect(rendered.filter((s) => s.length > LARGE_BLOCK_CHARS)).toHaveLength(1);
  });

  it('a long fenced block is drawn as code without the parser, while it streams and after, as the parser draws it; the text around it is parsed', async () => {
    rendered.length = 0;
    const head = 'Here is the **file**:\n```ts\n';
    const { rerender, container } = render(<Markdown text={`${head}${code.slice(0, 150_000)}`} streaming />);
    const firstPiece = container.querySelector('code')?.firstChild;
    rerender(<Markdown text={`${head}${code}`} streaming />);
    // What was drawn stays as it was: only the end of the code is drawn again.
    expect(container.querySelector('code')?.firstChild).toBe(firstPiece);
    rerender(<Markdown text={`${head}${code}\n\`\`\`\nThat is *all*.`} />);
    await waitFor(() => expect(container.querySelector('em')).toHaveTextContent('all'));
    expect(rendered.filter((s) => s.includes('compute('))).toEqual([]);
    expect(screen.getByRole('button', { name: 'Copy ts code' })).toBeInTheDocument();
    expect(container.querySelector('code.language-ts')?.textContent).toBe(`${code}\n`);
    expect(container.querySelector('strong')).toHaveTextContent('file');
    expect(container.querySelector('em')).toHaveTextContent('all');
    // The same frame as the renderer draws around a short block.
    const real = await vi.importActual<typeof RenderModule>('@/lib/render/markdown');
    const short = document.createElement('div');
    short.innerHTML = real.renderMarkdownBlock('```ts\nx\n```', labelsFor(wordsFor('en')));
    expect(shape(container.querySelector('.code-block')?.firstElementChild)).toEqual(shape(short.querySelector('.code-block')?.firstElementChild));
  });
});

/** An element as its tags, attributes (in any order) and text: what a reader and a script see of it. */
function shape(element: Element | null | undefined): unknown {
  if (element === null || element === undefined) return undefined;
  return {
    tag: element.tagName,
    attributes: Object.fromEntries([...element.attributes].map((a) => [a.name, a.value]).sort()),
    children: [...element.childNodes].map((child) => (child instanceof Element ? shape(child) : child.textContent)),
  };
}

describe('long reasoning (issue 28, item 5)', () => {
  it('is drawn in pieces: as it grows, what was drawn stays as it was', () => {
    const reasoning = Array.from({ length: 6000 }, (_, i) => `Step ${i}: consider the next case.`).join('\n');
    const { rerender, container } = render(<MessageView message={message({ text: '', reasoning: reasoning.slice(0, 150_000), status: 'streaming' })} />);
    const first = container.querySelector('.reasoning-text')?.firstChild;
    const drawn = first?.textContent;
    rerender(<MessageView message={message({ text: '', reasoning, status: 'streaming' })} />);
    expect(container.querySelector('.reasoning-text')?.firstChild).toBe(first);
    expect(first?.textContent).toBe(drawn);
    expect(container.querySelector('.reasoning-text')?.textContent).toBe(reasoning);
  });
});

describe('sending once, within limits (issue 8)', () => {
  it('two Enters before the first send returns send once', async () => {
    let finish: ((sent: boolean) => void) | undefined;
    const onSend = vi.fn(() => new Promise<boolean>((resolve) => {
      finish = resolve;
    }));
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} />);
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'pay once');
    await userEvent.keyboard('{Enter}{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
    await act(async () => finish?.(true));
  });

  it('a message over the size limit is not sent; it says what was too big and what to do, and keeps the text', async () => {
    const onSend = vi.fn(async () => true);
    render(<Composer streaming={false} onSend={onSend} onStop={() => undefined} />);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await userEvent.click(box);
    await userEvent.paste('word '.repeat(90_000));
    await userEvent.keyboard('{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole('alert')).toHaveTextContent('This message is about 112,500 tokens; one message may hold 100,000. Shorten it, or send it in parts.');
    expect((box as HTMLTextAreaElement).value.length).toBe(450_000);
  });
});

/** A conversation's branch with working ‹ › (what ChatView does, without the background). */
function Thread({ messages, actions }: { messages: Message[]; actions?: Partial<MessageActions> }) {
  const [selected, setSelected] = useState<string>();
  const [editing, setEditing] = useState<string>();
  const tree = buildTree(messages);
  const all: MessageActions = { onVersion: setSelected, onRegenerate: () => undefined, onEdit: async () => true, onDeletePair: () => undefined, ...actions };
  return <>{currentBranch(tree, selected).map((m) => <MessageView key={m.id} message={m} versions={versionInfo(tree, m.id)} actions={all} editing={editing === m.id} onEditingChange={(id, on) => setEditing(on ? id : undefined)} />)}</>;
}

describe('what a retry or a lone </think> moved is never lost (issue 8)', () => {
  it('earlier versions of a reply (as older builds kept them) stay readable: ‹ 2 / 2 › switches to them', async () => {
    render(<Thread messages={[message({ id: 'q', seq: 0, role: 'user', text: 'question' }), message({ id: 'a', seq: 1, text: '', status: 'error', createdAt: 5, versions: [{ text: 'The first answer, cut short', reasoning: '', status: 'interrupted', createdAt: 0 }] })]} />);
    expect(screen.getByRole('group', { name: 'Versions' })).toHaveTextContent('2 / 2');
    await userEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'Assistant message' })).toHaveTextContent('The first answer, cut short'));
    expect(screen.getByRole('group', { name: 'Versions' })).toHaveTextContent('1 / 2');
    expect(screen.getByRole('button', { name: 'Previous version' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next version' }));
    expect(screen.getByRole('article', { name: 'Assistant message' })).not.toHaveTextContent('The first answer');
  });

  it('Edit message opens the text in place; Save and send hands the new text over; Regenerate asks for the reply', async () => {
    const actions = { onVersion: vi.fn(), onRegenerate: vi.fn(), onEdit: vi.fn(async () => true), onDeletePair: vi.fn() };
    render(<Thread messages={[message({ id: 'q', seq: 0, role: 'user', text: 'first wording' }), message({ id: 'a', seq: 1, text: 'An answer' })]} actions={actions} />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit message' }));
    const box = screen.getByRole('textbox', { name: 'Edited message' });
    await userEvent.clear(box);
    await userEvent.type(box, 'second wording');
    await userEvent.click(screen.getByRole('button', { name: 'Save and send' }));
    expect(actions.onEdit).toHaveBeenCalledWith('q', 'second wording');
    expect(screen.queryByRole('textbox', { name: 'Edited message' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Regenerate' }));
    expect(actions.onRegenerate).toHaveBeenCalledWith('a');
    await userEvent.click(screen.getByRole('button', { name: 'Delete this message and its reply' }));
    expect(actions.onDeletePair).toHaveBeenCalledWith('q');
  });

  it('text moved into the reasoning by a lone </think> can be put back into the reply', async () => {
    render(<MessageView message={message({ text: 'the rest.', reasoning: 'The page contains ', movedToReasoning: [0, 18] })} />);
    expect(screen.getByRole('article', { name: 'Assistant message' })).not.toHaveTextContent(/^The page contains/);
    await userEvent.click(screen.getByRole('button', { name: 'Show the text before </think> as part of the reply' }));
    expect(screen.queryByText('Reasoning')).toBeNull();
    await waitFor(() => expect(screen.getByRole('article', { name: 'Assistant message' })).toHaveTextContent('The page contains </think>'));
    expect(screen.getByRole('article', { name: 'Assistant message' })).toHaveTextContent('the rest.');
  });
});

describe('a listed model the gateway cannot serve now (new-api 503 "no channel")', () => {
  const noChannel = storedError(new GatewayError({ kind: 'model_not_found', url: 'https://gw.example.com/v1/chat/completions', status: 503, code: 'model_not_found', gatewayMessage: '当前分组 default 下对于模型 gpt-x 无可用渠道' }));
  it('says it is listed but unavailable, not that it does not exist', () => {
    render(<ErrorCallout error={noChannel} modelListed />);
    expect(screen.getByRole('alert')).toHaveTextContent('This model is listed but unavailable right now');
    expect(screen.getByRole('alert')).toHaveTextContent('Retry later, or choose another model.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('does not exist');
  });
  it('a model not in the catalogue still does not exist', () => {
    render(<ErrorCallout error={noChannel} />);
    expect(screen.getByRole('alert')).toHaveTextContent('This model does not exist on the gateway');
  });
});

describe('a reply the model\'s filter blocked', () => {
  const blocked = (detail: ReturnType<typeof blockDetail>) => storedError(new GatewayError({ kind: 'content_blocked', url: 'https://gw.example.com/v1beta/models/g:streamGenerateContent?alt=sse', detail }));

  it('keeps the text that came, and says it was blocked, why, in which category, and what to do', async () => {
    render(<MessageView message={message({ status: 'error', text: 'The first part', error: blocked(blockDetail('reply_blocked', 'SAFETY', 'HARM_CATEGORY_DANGEROUS_CONTENT')) })} />);
    const reply = screen.getByRole('article', { name: 'Assistant message' });
    await waitFor(() => expect(reply).toHaveTextContent('The first part'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent("Blocked by the model's filter");
    expect(alert).toHaveTextContent('The filter stopped the reply: possibly harmful content. Category: dangerous content.');
    expect(alert).toHaveTextContent('Rephrase what you asked, or try another model');
    expect(screen.getByRole('link', { name: 'Model catalogue' })).toHaveAttribute('href', 'https://gw.example.com/models');
  });

  it('a prompt refused, or a reason and category it does not know, are shown as the vendor sent them', () => {
    render(<ErrorCallout error={blocked(blockDetail('prompt_blocked', 'SOMETHING_NEW', 'HARM_CATEGORY_NEW_HARM'))} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The filter refused your message itself: something_new. Category: new_harm.');
  });
});

describe('a quoted selection in a user message', () => {
  it('shows as a quote from the page, without fence markers; a long one is folded', async () => {
    const short = `Explain this.\n\n\`\`\`text\nA short passage.\n\`\`\``;
    const { unmount } = render(<MessageView message={message({ role: 'user', text: short })} quotedFrom="Example page" />);
    const quote = screen.getByRole('blockquote', { name: 'Quoted from “Example page”' });
    expect(quote).toHaveTextContent('A short passage.');
    expect(screen.getByRole('article', { name: 'User message' })).not.toHaveTextContent('```');
    unmount();
    const long = `Summarise.\n\n\`\`\`text\n${'word '.repeat(200)}\n\`\`\``;
    render(<MessageView message={message({ role: 'user', text: long })} quotedFrom="Example page" />);
    const details = screen.getByText(/Quoted from “Example page” · 1,000 characters/).closest('details')!;
    expect(details).not.toHaveAttribute('open');
    await userEvent.click(screen.getByText(/Quoted from “Example page” · 1,000 characters/));
    expect(details).toHaveAttribute('open');
  });
});

// @vitest-environment jsdom
/**
 * A reply's first words are drawn at once, in the task that brings them
 * (components/hooks/useConversation.ts); when its run is already known here (its start came
 * first, as it does), only the reply's own view draws them: the conversation around it does not
 * render again for them.
 */
import { act, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useConversation } from '@/components/hooks/useConversation';
import { useLiveMessage } from '@/components/stores/live-replies';
import type { ConversationStore } from '@/lib/conversations/store';
import type { Message } from '@/lib/conversations/records';
import type { RunEvent } from '@/lib/runs/run-manager';

let emit: (event: RunEvent) => void = () => undefined;
vi.mock('@/lib/protocol/background.adapter', () => ({
  watchRuns: (_id: string, onEvent: (event: RunEvent) => void) => {
    emit = onEvent;
    return () => undefined;
  },
  askBackground: async () => undefined,
}));

const question: Message = { id: 'q', conversationId: 'c', seq: 0, role: 'user', text: 'Hi', reasoning: '', status: 'complete', createdAt: 0 };
const reply: Message = { id: 'r', conversationId: 'c', seq: 1, role: 'assistant', parentId: 'q', text: '', reasoning: '', status: 'streaming', createdAt: 0 };
const store = {
  watchConversation: () => () => undefined,
  watchMessages: (_id: string, onChange: (messages: Message[], unreadable: number) => void) => {
    onChange([question, reply], 0);
    return () => undefined;
  },
  keepInterruptedText: async () => undefined,
} as unknown as ConversationStore;

function Reply({ message }: { message: Message }) {
  const shown = useLiveMessage(message);
  return <p aria-label="Reply">{shown.text === '' ? 'waiting' : shown.text}</p>;
}

function Conversation({ onRender }: { onRender: () => void }) {
  const view = useConversation(store, 'c');
  onRender();
  return <>{view.messages.filter((m) => m.role === 'assistant').map((m) => <Reply key={m.id} message={m} />)}</>;
}

describe('first words', () => {
  it('of a run known here are drawn at once by the reply alone', async () => {
    let conversationRenders = 0;
    let replyCommits = 0;
    render(<Profiler id="page" onRender={() => replyCommits++}><Conversation onRender={() => conversationRenders++} /></Profiler>);
    await act(async () => undefined);
    act(() => emit({ type: 'snapshot', conversationId: 'c', messageId: 'r', text: '', reasoning: '', records: [question, reply] }));
    await act(async () => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByLabelText('Reply')).toHaveTextContent('waiting');
    const [renders, commits] = [conversationRenders, replyCommits];
    // In the same task: no frame, no timer between the event and the words on screen.
    act(() => emit({ type: 'delta', conversationId: 'c', messageId: 'r', text: 'Hello', reasoning: '' }));
    expect(screen.getByLabelText('Reply')).toHaveTextContent('Hello');
    expect(replyCommits).toBe(commits + 1);
    expect(conversationRenders).toBe(renders);
  });
});

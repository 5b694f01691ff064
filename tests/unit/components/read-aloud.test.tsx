// @vitest-environment jsdom
/**
 * "Read aloud" (issue 32, item 1) as a user meets it: on a finished reply, not on one streaming;
 * while it reads, "Stop reading" and how far it has got; Stop ends the audio; what the page says
 * for code, formulas, images and tables.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MessageView } from '@/components/chat/MessageView';
import { ReadAloudContext } from '@/components/chat/ReadAloud';
import { spokenPart } from '@/components/chat/read-aloud-start';
import { readAloud } from '@/lib/voice/read-aloud';
import { startReading, stopReading } from '@/components/stores/read-aloud';
import type { Message } from '@/lib/conversations/records';
import { wordsFor } from '@/lib/i18n/messages';

const reply = (patch: Partial<Message> = {}): Message => ({ id: 'r1', conversationId: 'c', seq: 2, role: 'assistant', text: 'Hello there. How are you?', reasoning: '', status: 'complete', createdAt: 0, ...patch });

afterEach(() => stopReading());

describe('Read aloud', () => {
  it('is offered on a finished reply, not on one still streaming, and asks the chat view to read it', async () => {
    const start = vi.fn();
    const { rerender } = render(<ReadAloudContext.Provider value={start}><MessageView message={reply({ status: 'streaming' })} /></ReadAloudContext.Provider>);
    expect(screen.queryByRole('button', { name: 'Read aloud' })).toBeNull();
    rerender(<ReadAloudContext.Provider value={start}><MessageView message={reply()} /></ReadAloudContext.Provider>);
    await userEvent.click(screen.getByRole('button', { name: 'Read aloud' }));
    expect(start).toHaveBeenCalledWith(expect.objectContaining({ id: 'r1' }));
  });

  it('while it reads: Stop reading and its progress; Stop ends the audio playing', async () => {
    render(<ReadAloudContext.Provider value={() => undefined}><MessageView message={reply()} /></ReadAloudContext.Provider>);
    let playing: AbortSignal | undefined;
    let reading: Promise<void> | undefined;
    act(() => {
      reading = startReading('r1', readAloud, ['Hello there.', 'How are you?'], {
        via: 'gateway',
        speak: async (text) => new Blob([text]),
        play: (_audio, signal) => new Promise<void>((resolve) => {
          playing = signal;
          signal.addEventListener('abort', () => resolve());
        }),
        keyOf: (text) => text,
      }, () => undefined);
    });
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Reading 1 of 2'));
    await userEvent.click(screen.getByRole('button', { name: 'Stop reading' }));
    expect(playing?.aborted).toBe(true);
    await act(async () => reading);
    expect(screen.getByRole('button', { name: 'Read aloud' })).toBeInTheDocument();
  });

  it('a reading that fails says why, and the reply offers Read aloud again', async () => {
    render(<ReadAloudContext.Provider value={() => undefined}><MessageView message={reply()} /></ReadAloudContext.Provider>);
    const failed = vi.fn();
    await act(async () => startReading('r1', readAloud, ['Hello.'], { via: 'gateway', speak: () => Promise.reject(new Error('no balance')), play: async () => undefined, keyOf: (t) => t }, failed));
    expect(failed).toHaveBeenCalledWith(new Error('no balance'));
    expect(screen.getByRole('button', { name: 'Read aloud' })).toBeInTheDocument();
  });

  it('says code, formulas, images and tables in the interface\'s language', () => {
    const en = wordsFor('en');
    expect(spokenPart(en, { kind: 'code', language: 'python', lines: 12 })).toBe('A python code block of 12 lines');
    expect(spokenPart(en, { kind: 'code', language: '', lines: 1 })).toBe('A code block of 1 line');
    expect(spokenPart(en, { kind: 'table', rows: 3, columns: 2 })).toBe('A table of 3 rows and 2 columns');
    expect(spokenPart(en, { kind: 'image', alt: 'a cat' })).toBe('an image: a cat');
    expect(spokenPart(en, { kind: 'formula' })).toBe('a formula');
  });
});

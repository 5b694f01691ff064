import { describe, expect, it } from 'vitest';
import type { Message } from '@/lib/conversations/records';
import { onlyLiveTextMoved, samePlainData } from '@/lib/conversations/saved-changes';

function message(patch: Partial<Message>): Message {
  return { id: 'm', conversationId: 'c', seq: 1, role: 'assistant', text: '', reasoning: '', status: 'complete', createdAt: 0, ...patch };
}

describe('samePlainData', () => {
  it('compares objects and arrays by their contents, whatever the order of keys', () => {
    expect(samePlainData({ a: 1, b: [1, { c: 'x' }], d: null }, { d: null, b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(samePlainData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(samePlainData([1, 2], [1, 2, 3])).toBe(false);
    expect(samePlainData({ a: [1] }, { a: { 0: 1 } })).toBe(false);
    expect(samePlainData('x', 'y')).toBe(false);
  });

  it('counts anything but plain data as changed, unless it is the same object', () => {
    const blob = new Blob(['a']);
    expect(samePlainData(new Blob(['a']), new Blob(['b']))).toBe(false);
    expect(samePlainData({ image: blob }, { image: blob })).toBe(true);
    expect(samePlainData(new Date(1), new Date(1))).toBe(false);
  });
});

describe('onlyLiveTextMoved', () => {
  const question = message({ id: 'q', role: 'user', text: 'Hi', seq: 1 });
  const reply = message({ id: 'r', seq: 2, text: 'Hel', status: 'streaming', usage: undefined });
  const live = (id: string) => id === 'r';

  it('is true for a save of a streaming reply this page follows, and for messages read again unchanged', () => {
    expect(onlyLiveTextMoved([question, reply], [{ ...question }, { ...reply, text: 'Hello', reasoning: 'thinking' }], live)).toBe(true);
    expect(onlyLiveTextMoved([question, reply], [{ ...question }, { ...reply }], () => false)).toBe(true);
  });

  it('is false when anything else changed: the reply ended, a message came or went, another field, a reply not followed here', () => {
    expect(onlyLiveTextMoved([question, reply], [question, { ...reply, text: 'Hello', status: 'complete' }], live)).toBe(false);
    expect(onlyLiveTextMoved([question, reply], [question, { ...reply, model: 'other' }], live)).toBe(false);
    expect(onlyLiveTextMoved([question, reply], [question], live)).toBe(false);
    expect(onlyLiveTextMoved([question, reply], [{ ...question, text: 'Hi there' }, reply], live)).toBe(false);
    expect(onlyLiveTextMoved([question, reply], [question, { ...reply, text: 'Hello' }], () => false)).toBe(false);
    expect(onlyLiveTextMoved([question, reply], [reply, question], live)).toBe(false);
  });
});

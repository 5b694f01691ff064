import { afterEach, describe, expect, it } from 'vitest';
import { publishLiveReplies, useLiveReplies } from '@/components/stores/live-replies';

afterEach(() => useLiveReplies.setState({ byId: new Map() }));

describe('live replies', () => {
  it('keeps each streaming reply\'s newest text, and forgets a reply once it ended', () => {
    publishLiveReplies(new Map([['a', { text: 'Hel', reasoning: '' }], ['b', { text: '', reasoning: 'think' }]]));
    publishLiveReplies(new Map([['a', { text: 'Hello', reasoning: '' }]]));
    expect(useLiveReplies.getState().byId.get('a')).toEqual({ text: 'Hello', reasoning: '' });
    // A reply not named (another conversation's) keeps its text.
    expect(useLiveReplies.getState().byId.get('b')).toEqual({ text: '', reasoning: 'think' });
    publishLiveReplies(new Map(), ['a']);
    expect(useLiveReplies.getState().byId.has('a')).toBe(false);
  });

  it('does not tell its readers anything when no text changed', () => {
    publishLiveReplies(new Map([['a', { text: 'Hello', reasoning: '' }]]));
    const before = useLiveReplies.getState();
    publishLiveReplies(new Map([['a', { text: 'Hello', reasoning: '' }]]), ['gone-already']);
    expect(useLiveReplies.getState()).toBe(before);
  });
});

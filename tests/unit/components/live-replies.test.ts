import { afterEach, describe, expect, it } from 'vitest';
import { hasImageRefs, publishLiveReplies, useLiveReplies } from '@/components/stores/live-replies';
import { IMAGE_REF_SCHEME } from '@/lib/images/types';

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

  it('knows whether a reply\'s text names an image, as it grows (a reference split across frames too) and when it is replaced', () => {
    const ref = `![a cat](${IMAGE_REF_SCHEME}img-1)`;
    // The second step ends inside the scheme (`…](gc-i`): the search of the third starts before it.
    const steps = ['Here', `Here it is: ${ref.slice(0, 13)}`, `Here it is: ${ref}`, `Here it is: ${ref} and more`];
    const seen = steps.map((text) => {
      publishLiveReplies(new Map([['a', { text, reasoning: '' }]]));
      return hasImageRefs(useLiveReplies.getState().byId.get('a')!);
    });
    expect(seen).toEqual([false, false, true, true]);
    publishLiveReplies(new Map([['a', { text: 'Replaced, no image', reasoning: '' }]]));
    expect(hasImageRefs(useLiveReplies.getState().byId.get('a')!)).toBe(false);
    expect(hasImageRefs({ text: `never published ${ref}`, reasoning: '' })).toBe(true);
  });
});

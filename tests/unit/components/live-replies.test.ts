import { afterEach, describe, expect, it } from 'vitest';
import { grownText, hasImageRefs, publishLiveReplies, useLiveReplies } from '@/components/stores/live-replies';
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

  it('finds an image reference from the pieces as they come, one split across pieces too, never reading the whole text', () => {
    const ref = `![a cat](${IMAGE_REF_SCHEME}img-1)`;
    const text = `Here it is: ${ref} and more`;
    // Every cut of the text in two pieces, the reference split at each place.
    for (let cut = 0; cut <= text.length; cut++) {
      const first = grownText(undefined, '', text.slice(0, cut));
      const second = grownText(first, first.tail, text.slice(cut));
      expect(second.text).toBe(text);
      expect(second.namesImages).toBe(true);
      expect(first.namesImages).toBe(text.slice(0, cut).includes(IMAGE_REF_SCHEME));
    }
    // Known once, it stays known; a text without one says so.
    const after = grownText({ text, namesImages: true }, '', ' no reference here');
    expect(after.namesImages).toBe(true);
    expect(grownText(undefined, '', 'plain words').namesImages).toBe(false);
    // What publishing trusts: the reply's own flag, not a search of its text.
    publishLiveReplies(new Map([['a', { text: 'a gc-image: lookalike', reasoning: '', namesImages: false }]]));
    expect(hasImageRefs(useLiveReplies.getState().byId.get('a')!)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { checkMessageSize, DEFAULT_MESSAGE_LIMITS } from '@/lib/runs/limits';

describe('message size limits', () => {
  it('a long pasted text is measured in estimated tokens, CJK at one a character', () => {
    expect(checkMessageSize('a'.repeat(400_000), [])).toBeUndefined();
    expect(checkMessageSize('a'.repeat(400_004), [])).toEqual({ problem: 'text_too_long', tokens: 100_001, limit: DEFAULT_MESSAGE_LIMITS.maxTextTokens });
    expect(checkMessageSize('中'.repeat(100_001), [])).toMatchObject({ problem: 'text_too_long', tokens: 100_001 });
  });

  it('images: how many and how large together', () => {
    expect(checkMessageSize('x', Array.from({ length: 9 }, () => 'data:image/png;base64,AA'))).toMatchObject({ problem: 'too_many_images', count: 9, limit: 8 });
    const big = `data:image/png;base64,${'A'.repeat(11 * 1024 * 1024)}`;
    expect(checkMessageSize('x', [big, big])).toMatchObject({ problem: 'images_too_large', limit: 20 * 1024 * 1024 });
    expect(checkMessageSize('x', [big])).toBeUndefined();
  });

  it('files count with the text: over together, the largest file is named and what fits beside the text said', () => {
    const file = (name: string, tokens: number) => ({ id: name, name, kind: 'text' as const, type: '', size: 1, lines: 1, tokens, text: '' });
    expect(checkMessageSize('a'.repeat(400), [], undefined, [file('a.txt', 40_000), file('b.pdf', 59_900)])).toBeUndefined();
    expect(checkMessageSize('a'.repeat(400), [], undefined, [file('a.txt', 40_000), file('b.pdf', 60_000)]))
      .toEqual({ problem: 'files_too_long', name: 'b.pdf', tokens: 100_100, limit: 100_000, fits: 99_900 });
  });
});

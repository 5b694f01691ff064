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
});

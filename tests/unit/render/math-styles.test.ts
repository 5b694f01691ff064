import { describe, expect, it } from 'vitest';
import { loadMathStyles } from '@/components/chat/render/math-styles';

describe('loadMathStyles', () => {
  it('loads KaTeX’s stylesheet once, however many formulas ask for it', async () => {
    const first = loadMathStyles();
    expect(loadMathStyles()).toBe(first);
    await expect(first).resolves.toBeUndefined();
    expect(loadMathStyles()).toBe(first);
  });
});

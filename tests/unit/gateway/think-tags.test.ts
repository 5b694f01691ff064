import { describe, expect, it } from 'vitest';
import { ThinkTagSplitter, type Segment } from '@/lib/gateway/think-tags';

/** Feeds the pieces and applies `movedFromText` as a consumer would. */
function split(pieces: string[]): { text: string; reasoning: string } {
  const splitter = new ThinkTagSplitter();
  const out: Segment[] = [];
  for (const piece of pieces) splitter.push(piece, out);
  splitter.flush(out);
  let text = '';
  let reasoning = '';
  for (const s of out) {
    if (s.type === 'text') text += s.text;
    else {
      if (s.movedFromText === true) {
        reasoning += text;
        text = '';
      }
      reasoning += s.text;
    }
  }
  return { text, reasoning };
}

/** Every way of cutting `whole` in two, and in single characters. */
function cuts(whole: string): string[][] {
  const out: string[][] = [[whole], Array.from(whole)];
  for (let i = 1; i < whole.length; i++) out.push([whole.slice(0, i), whole.slice(i)]);
  return out;
}

describe('ThinkTagSplitter', () => {
  it.each([
    ['<think>plan it</think>\n\nThe answer.', { reasoning: 'plan it', text: 'The answer.' }],
    ['  \n<think>x</think>y', { reasoning: 'x', text: 'y' }],
    ['before</think>after', { reasoning: 'before', text: 'after' }],
    ['plain text with < and > signs', { reasoning: '', text: 'plain text with < and > signs' }],
    ['text then <think>not reasoning</think>', { reasoning: '', text: 'text then <think>not reasoning</think>' }],
    ['a <b> tag, then </think>answer', { reasoning: 'a <b> tag, then ', text: 'answer' }],
    ['<think>never closed', { reasoning: 'never closed', text: '' }],
    ['<thin', { reasoning: '', text: '<thin' }],
    ['ends with </thi', { reasoning: '', text: 'ends with </thi' }],
    ['<think></think>only answer', { reasoning: '', text: 'only answer' }],
  ])('%j splits the same way however it is cut', (whole, expected) => {
    for (const pieces of cuts(whole)) expect(split(pieces), JSON.stringify(pieces)).toEqual(expected);
  });

  it('passes content through untouched after the think block', () => {
    expect(split(['<think>a</think>b', '</think> c'])).toEqual({ reasoning: 'a', text: 'b</think> c' });
  });
});

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

describe('a lone </think>: reasoning before it, unless the answer quotes the tag (issue 8)', () => {
  it('an R1 distill behind vLLM: thousands of characters of reasoning, blank lines, quotes and code spans, then </think>', () => {
    const reasoning = Array.from({ length: 60 }, (_, i) => `Step ${i}: the user said "hello"; consider \`x + ${i}\` carefully.\n\nHmm, wait.`).join('\n');
    expect(reasoning.length).toBeGreaterThan(3000);
    const whole = `${reasoning}\n</think>\n\nThe answer is 4.`;
    for (const size of [1, 3, 7, 64]) {
      const pieces: string[] = [];
      for (let i = 0; i < whole.length; i += size) pieces.push(whole.slice(i, i + size));
      expect(split(pieces), `pieces of ${size}`).toEqual({ reasoning: `${reasoning}\n`, text: 'The answer is 4.' });
    }
  });

  it.each([
    ['in an inline code span', 'The page ends its block with `</think>` and then the answer follows.'],
    ['in quotation marks', 'The tag "</think>" closes the block.'],
    ['after a fenced code block', 'Here is the page:\n\n```html\n<p>hi</p>\n</think>\n```\n\nThat tag closes the block.'],
    ['on a block-quote line', 'The page says:\n\n> it ends with </think> here\n\nwhich closes the block.'],
  ])('%s: the answer is left whole', (_name, whole) => {
    for (const pieces of cuts(whole)) expect(split(pieces), JSON.stringify(pieces)).toEqual({ reasoning: '', text: whole });
  });

  it('only the first </think> counts: one quoted first means no later one moves text', () => {
    const whole = 'Quote: "</think>" then more\n</think>\nrest';
    expect(split([whole])).toEqual({ reasoning: '', text: whole });
  });
});

describe('a fence far above a lone </think> still counts', () => {
  it('a fence cut into single characters, then more than a screenful, then the tag', () => {
    const whole = `Look:\n\n\`\`\`html\n<p>x</p>\n\`\`\`\n\n${'More words about the page. '.repeat(40)}\n</think>\nand so on`;
    const pieces = [...Array.from(whole.slice(0, 20)), whole.slice(20, 60), ...whole.slice(60).match(/[\s\S]{1,5}/g)!];
    expect(split(pieces)).toEqual({ reasoning: '', text: whole });
  });
});

describe('reasoning in its own field', () => {
  it('once the gateway separates reasoning, a lone </think> in the content is text', () => {
    const splitter = new ThinkTagSplitter();
    const out: Segment[] = [];
    splitter.separateReasoning();
    for (const piece of ['The answer mentions ', '</think> as a tag.']) splitter.push(piece, out);
    splitter.flush(out);
    expect(out.every((s) => s.type === 'text')).toBe(true);
    expect(out.map((s) => s.text).join('')).toBe('The answer mentions </think> as a tag.');
  });
});

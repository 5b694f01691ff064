/**
 * The hand-checked fast path for chat chunks must never accept what the zod schema rejects,
 * and must read the same fields as zod does.
 */
import { describe, expect, it } from 'vitest';
import { ChatChunk, quickChatChunk } from '@/lib/gateway/wire';

const samples: unknown[] = [
  { id: 'c', choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: null }] },
  { choices: [{ delta: { role: 'assistant', content: '' } }] },
  { choices: [{ delta: { reasoning_content: 'r' } }] },
  { choices: [{ delta: { reasoning: 'r', reasoning_details: [{ text: 'r' }] } }] },
  { choices: [{ delta: { content: null, tool_calls: [{ index: 1 }] } }] },
  { choices: [{ delta: {}, finish_reason: 'stop' }] },
  { choices: [] },
  { id: '', choices: [], prompt_filter_results: [] },
  { choices: null },
  {},
  { choices: [{ delta: null }] },
  // Shapes the fast path leaves to zod:
  { choices: [], usage: { prompt_tokens: 1 } },
  { error: { message: 'x' } },
  { choices: [{ delta: { content: 5 } }] },
  { choices: [{ delta: 'text' }] },
  { choices: [{ message: { content: 'x' } }] },
  { choices: [{ finish_reason: 1 }] },
  { choices: 'nope' },
  { choices: [null] },
  [],
  'string',
  null,
];

describe('quickChatChunk', () => {
  it.each(samples.map((s) => [JSON.stringify(s), s]))('agrees with ChatChunk on %s', (_label, sample) => {
    const quick = quickChatChunk(sample);
    const schema = ChatChunk.safeParse(sample);
    if (quick !== undefined) {
      expect(schema.success).toBe(true);
      if (schema.success) {
        const read = (c: typeof quick) => c.choices?.map((x) => [x.delta?.content, x.delta?.reasoning_content, x.delta?.reasoning, x.finish_reason]);
        expect(read(quick)).toEqual(read(schema.data));
      }
    }
  });

  it('takes the common token chunk without zod', () => {
    expect(quickChatChunk(samples[0])).toBe(samples[0]);
  });

  it('leaves usage, errors and odd shapes to zod', () => {
    for (const sample of samples.slice(11)) expect(quickChatChunk(sample)).toBeUndefined();
  });
});

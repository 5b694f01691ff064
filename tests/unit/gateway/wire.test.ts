/**
 * The hand-checked fast path for chat chunks must never accept what the zod schema rejects,
 * and must read the same fields as zod does.
 */
import { describe, expect, it } from 'vitest';
import { ChatChunk, ResponsesEvent, quickChatChunk, quickResponsesEvent } from '@/lib/gateway/wire';
import { AnthropicEvent, quickAnthropicEvent } from '@/lib/gateway/interfaces/anthropic';
import { GeminiResponse, quickGeminiResponse } from '@/lib/gateway/interfaces/gemini';

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

interface HotPath<T> {
  quick(value: unknown): T | undefined;
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } };
  /** The fields the decoder reads. */
  read(value: T): unknown;
  /** The delta that makes up most of a stream. */
  common: unknown;
  /** Other shapes taken without zod. */
  taken: unknown[];
  /** Shapes left to zod. */
  left: unknown[];
}

/** Each interface's hand-checked hot path accepts only what its schema accepts, and reads the same. */
function hotPath<T>(name: string, path: HotPath<T>): void {
  describe(name, () => {
    it('agrees with its schema on every sample', () => {
      for (const sample of [path.common, ...path.taken, ...path.left]) {
        const fast = path.quick(sample);
        if (fast === undefined) continue;
        const parsed = path.schema.safeParse(sample);
        expect(parsed.success, JSON.stringify(sample)).toBe(true);
        if (parsed.success) expect(path.read(fast)).toEqual(path.read(parsed.data));
      }
    });

    it('takes the common delta without zod, and leaves the rare shapes to it', () => {
      expect(path.quick(path.common)).toBe(path.common);
      for (const sample of path.taken) expect(path.quick(sample), JSON.stringify(sample)).toBe(sample);
      for (const sample of path.left) expect(path.quick(sample), JSON.stringify(sample)).toBeUndefined();
    });
  });
}

hotPath('quickResponsesEvent', {
  quick: quickResponsesEvent,
  schema: ResponsesEvent,
  read: (e: ResponsesEvent) => [e.type, e.delta],
  common: { type: 'response.output_text.delta', sequence_number: 4, item_id: 'm', output_index: 0, content_index: 0, delta: 'Hel', logprobs: [] },
  taken: [{ type: 'response.reasoning_summary_text.delta', delta: 'r' }, { delta: '' }],
  left: [{ type: 'response.completed', response: { usage: {} } }, { type: 'error', error: { message: 'x' } }, { type: 'x', delta: 5 }, { type: 5, delta: 'x' }, [], null, 'delta'],
});

hotPath('quickAnthropicEvent', {
  quick: quickAnthropicEvent,
  schema: AnthropicEvent,
  read: (e: AnthropicEvent) => [e.type, e.delta?.type, e.delta?.text, e.delta?.thinking, e.delta?.signature],
  common: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hel' } },
  taken: [{ type: 'ping' }, { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'r' } }, { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 's' } }, { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"a' } }],
  left: [
    { type: 'message_start', message: { usage: { input_tokens: 3 } } }, { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
    { type: 'content_block_start', content_block: { type: 'text', text: '' } }, { type: 'error', error: { type: 'overloaded_error' } },
    { type: 'content_block_delta', delta: { type: 'text_delta', text: null } }, { type: 'content_block_delta', delta: { text: 'x' } }, { type: 'content_block_delta', delta: 'x' }, null, [],
  ],
});

hotPath('quickGeminiResponse', {
  quick: quickGeminiResponse,
  schema: GeminiResponse,
  read: (r: GeminiResponse) => [r.candidates?.map((c) => [c.finishReason, c.content?.parts?.map((p) => [p.text, p.thought])]), r.usageMetadata],
  common: { candidates: [{ content: { parts: [{ text: 'Hel' }], role: 'model' }, index: 0 }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 }, modelVersion: 'g', responseId: 'r' },
  taken: [
    { candidates: [{ content: { parts: [{ text: 'r', thought: true }] } }] }, { candidates: [{ content: { parts: [{ text: '' }] }, finishReason: 'STOP' }] },
    { candidates: [{ finishReason: 'SAFETY', safetyRatings: [] }] }, { candidates: [], usageMetadata: null },
  ],
  left: [
    { promptFeedback: { blockReason: 'SAFETY' } }, { error: { code: 500 } }, { candidates: [{ content: { parts: [{ text: 5 }] } }] },
    { candidates: [{ content: { parts: [{ thought: 'yes' }] } }] }, { candidates: [{ finishReason: 3 }] }, { candidates: 'x' },
    { candidates: [], usageMetadata: { promptTokenCount: '3' } }, { usageMetadata: { totalTokenCount: 4 } }, null, [],
  ],
});

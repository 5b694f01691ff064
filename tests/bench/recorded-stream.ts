/**
 * A recorded reply stream of a chosen size, as real gateways send it through each interface,
 * with the same reasoning and text: Chat Completions (role chunk, `reasoning_content` and content
 * deltas of varied length — ASCII, CJK, emoji — comment lines, a finishing chunk, a usage chunk
 * with `choices: []`, `[DONE]`), Responses (`event:` + `data:` pairs, reasoning summaries, usage
 * in `response.completed`), Anthropic Messages (thinking and text blocks, a signature, pings,
 * `message_delta` usage) and Gemini (`data:` lines ended by CRLF pairs, each with its cumulative
 * `usageMetadata`, thought parts, no `[DONE]`). Deterministic.
 */
import type { ApiStyle } from '../../lib/gateway';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['the', 'gateway', 'streams', 'tokens', 'quickly', '模型', '回答', 'with', 'markdown', '`code`', '**bold**', 'and', 'tables', '👋', 'über', 'résumé', '\n', '\n\n', '- item', '| a | b |'];

/** How one interface frames the reply's pieces. */
interface Framing {
  start: string[];
  piece(kind: 'reasoning' | 'text', piece: string, at: number): string;
  /** Sent when the reasoning ends and the text begins. */
  switchToText: string;
  ping: string;
  end(events: number): string[];
}

const json = (value: unknown): string => JSON.stringify(value);
const sse = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${json({ type, ...data })}\n\n`;

const FRAMINGS: Record<ApiStyle, Framing> = {
  chat: (() => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
      `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1732000000,"model":"bench-model","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":${json(delta)},"logprobs":null,"finish_reason":${json(finish)}}]}\n\n`;
    return {
      start: [': OPENROUTER PROCESSING\n\n', chunk({ role: 'assistant', content: '' })],
      piece: (kind, piece) => chunk(kind === 'reasoning' ? { reasoning_content: piece } : { content: piece }),
      switchToText: '',
      ping: ': PING\n\n',
      end: (events) => [
        chunk({}, 'stop'),
        `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1732000000,"model":"bench-model","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${events},"total_tokens":${events + 12}}}\n\n`,
        'data: [DONE]\n\n',
      ],
    };
  })(),
  responses: {
    start: [sse('response.created', { sequence_number: 0, response: { id: 'resp_bench', object: 'response', status: 'in_progress', model: 'bench-model', output: [] } })],
    piece: (kind, piece, at) => (kind === 'reasoning'
      ? sse('response.reasoning_summary_text.delta', { sequence_number: at, item_id: 'rs_bench', output_index: 0, summary_index: 0, delta: piece })
      : sse('response.output_text.delta', { sequence_number: at, item_id: 'msg_bench', output_index: 1, content_index: 0, delta: piece, logprobs: [] })),
    switchToText: sse('response.output_item.added', { output_index: 1, item: { id: 'msg_bench', type: 'message', status: 'in_progress', role: 'assistant', content: [] } }),
    ping: '',
    end: (events) => [sse('response.completed', { response: { id: 'resp_bench', status: 'completed', usage: { input_tokens: 12, output_tokens: events, total_tokens: events + 12 } } })],
  },
  anthropic: {
    start: [
      sse('message_start', { message: { id: 'msg_bench', type: 'message', role: 'assistant', model: 'bench-model', content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 1 } } }),
      sse('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ],
    piece: (kind, piece) => sse('content_block_delta', kind === 'reasoning'
      ? { index: 0, delta: { type: 'thinking_delta', thinking: piece } }
      : { index: 1, delta: { type: 'text_delta', text: piece } }),
    switchToText: sse('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM'.repeat(8) } })
      + sse('content_block_stop', { index: 0 }) + sse('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    ping: sse('ping', {}),
    end: (events) => [sse('content_block_stop', { index: 1 }), sse('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: events } }), sse('message_stop', {})],
  },
  gemini: {
    start: [],
    piece: (kind, piece, at) => `data: ${json({
      candidates: [{ content: { parts: [kind === 'reasoning' ? { text: piece, thought: true } : { text: piece }], role: 'model' }, index: 0 }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: at, totalTokenCount: 12 + at },
      modelVersion: 'bench-model', responseId: 'bench',
    })}\r\n\r\n`,
    switchToText: '',
    ping: '',
    end: (events) => [`data: ${json({
      candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: events, totalTokenCount: 12 + events },
      modelVersion: 'bench-model', responseId: 'bench',
    })}\r\n\r\n`],
  },
};

export function recordedStream(api: ApiStyle, targetBytes: number, seed = 42): { body: string; text: string; reasoning: string; events: number } {
  const framing = FRAMINGS[api];
  const rand = prng(seed);
  const parts: string[] = [];
  let size = 0;
  let text = '';
  let reasoning = '';
  let events = 0;
  const push = (s: string): void => {
    if (s === '') return;
    parts.push(s);
    size += s.length;
  };
  for (const s of framing.start) push(s);
  let i = 0;
  while (size < targetBytes - 600) {
    const n = 1 + Math.floor(rand() * 4);
    let piece = '';
    for (let w = 0; w < n; w++) piece += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
    if (i === 200) push(framing.switchToText);
    if (i < 200) {
      reasoning += piece;
      push(framing.piece('reasoning', piece, i + 1));
    } else {
      text += piece;
      push(framing.piece('text', piece, i + 1));
    }
    events++;
    if (i % 500 === 0) push(framing.ping);
    i++;
  }
  for (const s of framing.end(events)) push(s);
  return { body: parts.join(''), text, reasoning, events };
}

/** The body cut into network-sized reads. */
export function toReads(body: string, readBytes = 16 * 1024): Uint8Array[] {
  const bytes = new TextEncoder().encode(body);
  const reads: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += readBytes) reads.push(bytes.subarray(i, i + readBytes));
  return reads;
}

export function streamOfReads(reads: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = reads[i++];
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

/**
 * Bench: decoding a 20 MB recorded reply stream through `streamChat`, for each interface (Chat
 * Completions, Responses, Anthropic Messages, Gemini), against a bare eventsource-parser +
 * JSON.parse loop that reads the same interface's fields from the same bytes, in the same process.
 */
import { createParser } from 'eventsource-parser';
import { createGatewayClient, type ApiStyle } from '../../lib/gateway';
import { recordedStream, streamOfReads, toReads } from './recorded-stream';
import { compare, type Figure } from './measure';

interface Pieces {
  text: string;
  reasoning: string;
}

type Wire = { choices?: { delta?: { content?: string; reasoning_content?: string } }[] } & { type?: string; delta?: string | { type?: string; text?: string; thinking?: string } } & {
  candidates?: { content?: { parts?: { text?: string; thought?: boolean }[] } }[];
};

/** The minimum each interface's reader must do with one event: take its text or reasoning. */
const BARE_READERS: Record<ApiStyle, (data: Wire, into: Pieces) => void> = {
  chat(chunk, into) {
    const delta = chunk.choices?.[0]?.delta;
    if (delta?.reasoning_content != null) into.reasoning += delta.reasoning_content;
    if (delta?.content != null) into.text += delta.content;
  },
  responses(event, into) {
    if (typeof event.delta !== 'string') return;
    if (event.type === 'response.output_text.delta') into.text += event.delta;
    else if (event.type === 'response.reasoning_summary_text.delta') into.reasoning += event.delta;
  },
  anthropic(event, into) {
    if (event.type !== 'content_block_delta' || typeof event.delta !== 'object') return;
    if (event.delta.type === 'text_delta') into.text += event.delta.text ?? '';
    else if (event.delta.type === 'thinking_delta') into.reasoning += event.delta.thinking ?? '';
  },
  gemini(response, into) {
    for (const part of response.candidates?.[0]?.content?.parts ?? []) {
      if (part.thought === true) into.reasoning += part.text ?? '';
      else into.text += part.text ?? '';
    }
  },
};

async function bareLoop(api: ApiStyle, reads: readonly Uint8Array[]): Promise<number> {
  const into: Pieces = { text: '', reasoning: '' };
  const read = BARE_READERS[api];
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return;
      read(JSON.parse(event.data) as Wire, into);
    },
  });
  const decoder = new TextDecoder();
  const reader = streamOfReads(reads).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return into.text.length + into.reasoning.length;
}

async function throughStreamChat(api: ApiStyle, reads: readonly Uint8Array[]): Promise<number> {
  const fetch = (async () => new Response(streamOfReads(reads), { headers: { 'content-type': 'text/event-stream' } })) as unknown as typeof globalThis.fetch;
  const client = createGatewayClient({ baseUrl: 'https://bench.invalid/v1', apiKey: 'sk-bench', fetch });
  let text = '';
  let reasoning = '';
  for await (const event of client.streamChat({ model: 'bench-model', api, messages: [{ role: 'user', content: 'go' }] })) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'reasoning') reasoning += event.text;
    else if (event.type === 'error') throw event.error;
  }
  return text.length + reasoning.length;
}

const NAMES: Record<ApiStyle, string> = { chat: 'Chat Completions', responses: 'Responses', anthropic: 'Anthropic Messages', gemini: 'Gemini' };

export async function benchStreamDecoding(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const api of ['chat', 'responses', 'anthropic', 'gemini'] as const) {
    const recording = recordedStream(api, 20 * 1024 * 1024);
    const reads = toReads(recording.body);
    const expected = recording.text.length + recording.reasoning.length;
    const [bare, ours] = await compare(
      { name: 'bare eventsource-parser + JSON.parse', run: () => bareLoop(api, reads), check: (n) => n === expected },
      { name: 'streamChat (lib/gateway)', run: () => throughStreamChat(api, reads), check: (n) => n === expected },
    );
    const mb = recording.body.length / 1024 / 1024;
    const ratio = ours.medianMs / bare.medianMs;
    figures.push(
      { label: `${NAMES[api]}: ${mb.toFixed(1)} MB, ${recording.events} deltas, ${reads.length} reads`, value: '' },
      { label: `  ${bare.name}`, value: `${bare.medianMs.toFixed(0)} ms median (${(mb / (bare.medianMs / 1000)).toFixed(0)} MB/s)` },
      { label: `  ${ours.name}`, value: `${ours.medianMs.toFixed(0)} ms median (${(mb / (ours.medianMs / 1000)).toFixed(0)} MB/s)` },
      { label: `  ${NAMES[api]}: ratio streamChat / bare`, value: ratio.toFixed(3), budget: 1.25, actual: ratio },
    );
  }
  return figures;
}

/**
 * Bench: decoding a 20 MB recorded chat stream through `streamChat` against a bare
 * eventsource-parser + JSON.parse loop over the same bytes, in the same process.
 */
import { createParser } from 'eventsource-parser';
import { createGatewayClient } from '../../lib/gateway';
import { recordedChatStream, streamOfReads, toReads } from './recorded-stream';
import { compare, type Figure } from './measure';

async function bareLoop(reads: readonly Uint8Array[]): Promise<number> {
  let text = '';
  let reasoning = '';
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]') return;
      const chunk = JSON.parse(event.data) as { choices?: { delta?: { content?: string; reasoning_content?: string } }[] };
      const delta = chunk.choices?.[0]?.delta;
      if (delta?.reasoning_content != null) reasoning += delta.reasoning_content;
      if (delta?.content != null) text += delta.content;
    },
  });
  const decoder = new TextDecoder();
  const reader = streamOfReads(reads).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return text.length + reasoning.length;
}

async function throughStreamChat(reads: readonly Uint8Array[]): Promise<number> {
  const fetch = (async () => new Response(streamOfReads(reads), { headers: { 'content-type': 'text/event-stream' } })) as unknown as typeof globalThis.fetch;
  const client = createGatewayClient({ baseUrl: 'https://bench.invalid/v1', apiKey: 'sk-bench', fetch });
  let text = '';
  let reasoning = '';
  for await (const event of client.streamChat({ model: 'bench-model', messages: [{ role: 'user', content: 'go' }] })) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'reasoning') reasoning += event.text;
    else if (event.type === 'error') throw event.error;
  }
  return text.length + reasoning.length;
}

export async function benchStreamDecoding(): Promise<Figure[]> {
  const recording = recordedChatStream(20 * 1024 * 1024);
  const reads = toReads(recording.body);
  const expected = recording.text.length + recording.reasoning.length;
  const [bare, ours] = await compare(
    { name: 'bare eventsource-parser + JSON.parse', run: () => bareLoop(reads), check: (n) => n === expected },
    { name: 'streamChat (lib/gateway)', run: () => throughStreamChat(reads), check: (n) => n === expected },
  );
  const mb = recording.body.length / 1024 / 1024;
  const ratio = ours.medianMs / bare.medianMs;
  return [
    { label: `recorded stream: ${mb.toFixed(1)} MB, ${recording.events} deltas, ${reads.length} reads`, value: '' },
    { label: bare.name, value: `${bare.medianMs.toFixed(0)} ms median (${(mb / (bare.medianMs / 1000)).toFixed(0)} MB/s)` },
    { label: ours.name, value: `${ours.medianMs.toFixed(0)} ms median (${(mb / (ours.medianMs / 1000)).toFixed(0)} MB/s)` },
    { label: 'ratio streamChat / bare', value: ratio.toFixed(3), budget: 1.25, actual: ratio },
  ];
}

/**
 * A recorded chat stream of a chosen size, as a mixed real-world gateway sends it: role chunk,
 * reasoning_content deltas, content deltas of varied length (ASCII, CJK, emoji), comment
 * lines, a finishing chunk, a usage chunk with `choices: []`, and `[DONE]`. Deterministic.
 */

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = ['the', 'gateway', 'streams', 'tokens', 'quickly', '模型', '回答', 'with', 'markdown', '`code`', '**bold**', 'and', 'tables', '👋', 'über', 'résumé', '\n', '\n\n', '- item', '| a | b |'];

export function recordedChatStream(targetBytes: number, seed = 42): { body: string; text: string; reasoning: string; events: number } {
  const rand = prng(seed);
  const parts: string[] = [];
  let size = 0;
  let text = '';
  let reasoning = '';
  let events = 0;
  const push = (s: string): void => {
    parts.push(s);
    size += s.length;
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    `data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1732000000,"model":"bench-model","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}]}\n\n`;

  push(': OPENROUTER PROCESSING\n\n');
  push(chunk({ role: 'assistant', content: '' }));
  let i = 0;
  while (size < targetBytes - 600) {
    const n = 1 + Math.floor(rand() * 4);
    let piece = '';
    for (let w = 0; w < n; w++) piece += `${WORDS[Math.floor(rand() * WORDS.length)]} `;
    if (i < 200) {
      reasoning += piece;
      push(chunk({ reasoning_content: piece }));
    } else {
      text += piece;
      push(chunk({ content: piece }));
    }
    events++;
    if (i % 500 === 0) push(': PING\n\n');
    i++;
  }
  push(chunk({}, 'stop'));
  push(`data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1732000000,"model":"bench-model","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":${events},"total_tokens":${events + 12}}}\n\n`);
  push('data: [DONE]\n\n');
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

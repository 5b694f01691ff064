/**
 * The reference gateway's catalogue and what each model answers. Every answer is a pure
 * function of the request (and the gateway's knobs), so tests can state exactly what they expect.
 */
import { IMAGE_MODELS } from './images';

export interface IncomingImage {
  url: string;
  mediaType: string;
  bytes: number;
  /** `imageTag` of its bytes, when they came with the request (a data URI, inline data). */
  tag?: string;
}

export interface IncomingTurn {
  role: string;
  text: string;
  images: IncomingImage[];
}

export interface ModelReply {
  reasoning?: string;
  text: string;
  /**
   * An image after the text (Gemini image models): on Chat Completions the content goes on with
   * `![image](data:{mime};base64,…)` in pieces of `pieceChars`; on Gemini's interface, an
   * `inlineData` part.
   */
  image?: { mime: string; base64: string; pieceChars: number };
  /** Output tokens billed, when not counted from the text (an image counts as a fixed number). */
  outputTokens?: number;
}

/** What a model's answer may depend on besides the request: the gateway's knobs. */
export interface AnswerContext {
  /** The image a Gemini-style image model draws in a chat reply (`POST /__admin/image-chat`). */
  imageChat: ImageChatSettings;
}

export interface ImageChatSettings {
  /** Its size, unless the prompt says `[size:WxH]`. */
  size: string;
  /** Pad the PNG to at least this many bytes (a `tEXt` chunk `padding`), unless the prompt says `[bytes:N]`. */
  bytes?: number | undefined;
  /** Characters of the data URI per content delta. */
  pieceChars: number;
}

export const DEFAULT_IMAGE_CHAT: ImageChatSettings = { size: '512x512', pieceChars: 64 * 1024 };

/** new-api's `supported_endpoint_types` words the reference gateway serves. */
export const ENDPOINTS = ['openai', 'openai-response', 'anthropic', 'gemini', 'image-generation'] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export interface ReferenceModel {
  id: string;
  ownedBy: string;
  /**
   * new-api's `supported_endpoint_types`, the preferred first: `openai` = Chat Completions,
   * `openai-response` = Responses, `anthropic` = Messages, `gemini` = generateContent,
   * `image-generation` = `/v1/images/generations` and `/v1/images/edits`.
   */
  endpoints: Endpoint[];
  imageInput: boolean;
  /** Tokens per unit of balance: what a reply costs. */
  price: number;
  /** Per call instead (new-api's `quota_type: 1`): dollars (`model_price`) per image. */
  perCall?: number;
  /** An image model's sizes and answers (`images.ts`). */
  images?: ImageModelSpec;
  /** A speech or transcription model (`audio.ts`): served only on its audio route. */
  audio?: 'speech' | 'transcription';
  /** Answers a request that offers tools with a 400 naming `tools` (tools.ts). */
  refusesTools?: boolean;
  /**
   * Thinks before calling tools (`reasoning_content` ahead of the calls, Chat Completions), and,
   * as DeepSeek's and Kimi's thinking modes do, answers 400 to a request with an assistant turn
   * that called tools without its `reasoning_content` (tools.ts: `missingToolThinking`).
   */
  thinksWithTools?: boolean;
  answer(turns: IncomingTurn[], context?: AnswerContext): ModelReply;
}

/** What an image-generation model takes and answers with. */
export interface ImageModelSpec {
  /** The sizes it takes (`auto` among them if it takes it); the first is its default. */
  sizes: readonly string[];
  /** The qualities it takes. */
  qualities: readonly string[];
  /** Most images per request. */
  maxN: number;
  /** Its answer when `response_format` is not given. */
  answersWith: 'b64_json' | 'url';
  /** Streams partial images when asked (`stream: true`); otherwise answers JSON anyway. */
  streams: boolean;
  /** Takes `/v1/images/edits`. */
  edits: boolean;
  /** Rewrites the prompt (`revised_prompt`). */
  revises: boolean;
}

function lastUserTurn(turns: IncomingTurn[]): IncomingTurn {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    if (turn !== undefined && turn.role === 'user') return turn;
  }
  return { role: 'user', text: '', images: [] };
}

const STOPWORDS = new Set(
  'a an and are as at be but by for from has have he her his i in is it its of on or our she that the their them then there these they this to was we were what when which who will with you your not can do does did so if into than also about over such more most other some only just any each both'.split(' '),
);

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

/** Split into sentences, keeping each sentence's own punctuation. */
export function sentences(text: string): string[] {
  return (text.replace(/\s+/g, ' ').match(/[^.!?。！？]+[.!?。！？]*/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * An extractive summary: the sentences whose words recur most across the text, in their
 * original order; at most a fifth of the sentences (1 to 5), so it always condenses.
 */
export function summarise(text: string): string {
  const all = sentences(text);
  if (all.length === 0) return 'Summary: (nothing to summarise)';
  const frequency = new Map<string, number>();
  for (const w of words(text)) if (!STOPWORDS.has(w)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scored = all.map((sentence, index) => {
    const ws = words(sentence).filter((w) => !STOPWORDS.has(w));
    const score = ws.reduce((sum, w) => sum + (frequency.get(w) ?? 0), 0) / Math.max(1, ws.length);
    return { sentence, index, score };
  });
  const keep = Math.min(5, Math.max(1, Math.ceil(all.length / 5)));
  const chosen = [...scored]
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, keep)
    .sort((a, b) => a.index - b.index)
    .map((s) => s.sentence);
  let summary = chosen.join(' ');
  // Never longer than the input: a single long sentence is cut at a word boundary.
  const limit = Math.max(40, Math.floor(text.length / 2));
  if (all.length === 1 && summary.length > limit) summary = `${summary.slice(0, limit).replace(/\s+\S*$/, '')}…`;
  return `Summary: ${summary}`;
}

const LANGS = ['ts', 'python', 'bash', 'json', 'rust'] as const;

function codeBlock(lang: (typeof LANGS)[number], n: number): string {
  switch (lang) {
    case 'ts':
      return `\`\`\`ts\nexport function step${n}(input: number[]): number {\n  let total = 0;\n  for (const value of input) total += value * ${n};\n  return total;\n}\n\`\`\``;
    case 'python':
      return `\`\`\`python\ndef step_${n}(values):\n    """Scale and add up the values."""\n    return sum(v * ${n} for v in values)\n\`\`\``;
    case 'bash':
      return `\`\`\`bash\nfor i in $(seq 1 ${n}); do\n  echo "round $i of ${n}"\ndone\n\`\`\``;
    case 'json':
      return `\`\`\`json\n{ "step": ${n}, "enabled": true, "tags": ["alpha", "beta"], "limit": ${n * 10} }\n\`\`\``;
    case 'rust':
      return `\`\`\`rust\nfn step_${n}(values: &[i64]) -> i64 {\n    values.iter().map(|v| v * ${n}).sum()\n}\n\`\`\``;
  }
}

/**
 * Long markdown for load tests: sections of paragraphs, lists, a table, formulas (inline and
 * display, beside prices that are not formulas) and a fenced code block each, until `targetBytes` is reached. Deterministic for a given size.
 */
export function longMarkdown(targetBytes: number): string {
  const parts: string[] = ['# Generated report\n\nThis document is generated by the reference gateway to exercise rendering.\n'];
  let size = parts[0]!.length;
  for (let n = 1; size < targetBytes; n++) {
    const section = [
      `## Section ${n}: measurements and notes`,
      `Paragraph ${n} explains the **results** of step ${n} with some *emphasis*, \`inline code\`, and a [link to the docs](https://example.com/docs/${n}). The values below were measured on a quiet machine and rounded.`,
      `The second paragraph of section ${n} goes into detail. Each run was repeated ${n + 2} times and the median kept, because single runs on a shared machine vary by several percent. `
        + `Where the spread was larger than the effect, the result is marked as inconclusive rather than reported as a change. The setup used ${n * 2} workers, a warm cache, and inputs of ${n * 64} kB; `
        + `cold-cache numbers are in the appendix. Treat the throughput column as an upper bound: real traffic has more small requests than this benchmark, and small requests pay the fixed costs of parsing and routing more often. `
        + `Finally, note that ~~older~~ *newer* builds changed the defaults, so compare like with like.`,
      `- first point of section ${n}\n- second point, with \`code\`\n- third point:\n  1. nested one\n  2. nested two`,
      `| metric | value | unit |\n| --- | ---: | --- |\n| latency | ${(n * 3.7).toFixed(1)} | ms |\n| throughput | ${n * 120} | req/s |\n| errors | ${n % 3} | count |`,
      `The fitted curve is $y = ${n}x^2 + \\frac{a}{b}$ and its error stays under \\(\\epsilon_{${n}}\\), for $5 and $10 a run:\n\n$$\n\\sum_{i=1}^{${n}} \\frac{1}{i^2} \\le \\frac{\\pi^2}{6}\n$$`,
      codeBlock(LANGS[n % LANGS.length]!, n),
      `> Note ${n}: keep the numbers above in mind for the next section.`,
    ].join('\n\n');
    parts.push(section);
    size += section.length + 2;
  }
  return parts.join('\n\n');
}

/**
 * One fenced code block of about `targetBytes` (numbered lines of code), said as models often
 * say it: a line before the fence and a line after it, neither set apart by a blank line.
 * Deterministic for a given size.
 */
export function longCodeBlock(targetBytes: number): { text: string; code: string } {
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < targetBytes; n++) {
    const line = `export const value${n} = compute(${n}, 'step ${n} of the generated table', [${n % 7}, ${n % 11}, ${n % 13}]);`;
    lines.push(line);
    size += line.length + 1;
  }
  const code = `${lines.join('\n')}\n`;
  return { code, text: `Here is the whole file:\n\`\`\`ts\n${code}\`\`\`\nThat is all of it.` };
}

function describeImages(images: IncomingImage[]): string {
  return images.map((img, i) => `image ${i + 1}: ${img.mediaType}, ${img.bytes} bytes`).join('; ');
}

function sizeFromPrompt(text: string, fallbackKb: number): number {
  const match = /(\d+(?:\.\d+)?)\s*kb/i.exec(text);
  return Math.round((match === null ? fallbackKb : Number(match[1])) * 1024);
}

export const REFERENCE_MODELS: readonly ReferenceModel[] = [
  {
    id: 'echo-1',
    ownedBy: 'reference',
    endpoints: ['openai', 'openai-response'],
    imageInput: false,
    price: 1,
    answer: (turns) => ({ text: `Echo: ${lastUserTurn(turns).text}` }),
  },
  {
    id: 'summarise-1',
    ownedBy: 'reference',
    endpoints: ['openai'],
    imageInput: false,
    price: 1,
    answer: (turns) => ({ text: summarise(lastUserTurn(turns).text) }),
  },
  {
    id: 'vision-1',
    ownedBy: 'reference-vision',
    endpoints: ['openai', 'openai-response', 'anthropic', 'gemini'],
    imageInput: true,
    price: 2,
    answer: (turns) => {
      const turn = lastUserTurn(turns);
      return {
        text: turn.images.length === 0
          ? `No image received. You said: ${turn.text}`
          : `I received ${turn.images.length} image(s) (${describeImages(turn.images)}). You said: ${turn.text}`,
      };
    },
  },
  {
    id: 'reasoner-1',
    ownedBy: 'reference-labs',
    endpoints: ['openai'],
    imageInput: false,
    price: 2,
    thinksWithTools: true,
    answer: (turns) => {
      const text = lastUserTurn(turns).text;
      return {
        reasoning: `The user wrote ${words(text).length} words. I will answer briefly.`,
        text: `Answer: ${text.split('').reverse().join('')}`,
      };
    },
  },
  {
    id: 'responses-only-1',
    ownedBy: 'reference-labs',
    endpoints: ['openai-response'],
    imageInput: false,
    price: 1,
    answer: (turns) => ({ text: `Responses: ${lastUserTurn(turns).text}` }),
  },
  {
    // Prefers Anthropic's interface; thinks before answering (as new-api's `-thinking` models do).
    id: 'claude-ref-1',
    ownedBy: 'reference-anthropic',
    endpoints: ['anthropic', 'openai'],
    imageInput: true,
    price: 2,
    answer: (turns) => {
      const turn = lastUserTurn(turns);
      return {
        reasoning: `Considering ${words(turn.text).length} words${turn.images.length === 0 ? '' : ` and ${turn.images.length} image(s)`}.`,
        text: turn.images.length === 0 ? `Claude: ${turn.text}` : `Claude saw ${describeImages(turn.images)}. You said: ${turn.text}`,
      };
    },
  },
  {
    // Prefers Gemini's interface; sends thought summaries when asked for them.
    id: 'gemini-ref-1',
    ownedBy: 'reference-google',
    endpoints: ['gemini', 'openai'],
    imageInput: true,
    price: 2,
    answer: (turns) => {
      const turn = lastUserTurn(turns);
      return {
        reasoning: `Thinking about: ${turn.text}`,
        text: turn.images.length === 0 ? `Gemini: ${turn.text}` : `Gemini saw ${describeImages(turn.images)}. You said: ${turn.text}`,
      };
    },
  },
  {
    id: 'markdown-1',
    ownedBy: 'reference',
    endpoints: ['openai', 'openai-response'],
    imageInput: false,
    price: 0.01,
    // `write 30 kB`: long markdown; `write a 2048 kB code block`: one fenced block that long.
    answer: (turns) => {
      const prompt = lastUserTurn(turns).text;
      const size = sizeFromPrompt(prompt, 20);
      return { text: /code block/i.test(prompt) ? longCodeBlock(size).text : longMarkdown(size) };
    },
  },
  {
    id: 'legacy-1',
    ownedBy: 'reference',
    endpoints: ['openai'],
    imageInput: false,
    price: 1,
    refusesTools: true,
    answer: (turns) => ({ text: `Legacy: ${lastUserTurn(turns).text}` }),
  },
  // gpt-image-1, dall-e-3 and gemini-2.5-flash-image (`images.ts`).
  ...IMAGE_MODELS,
];

/** Rough token count, as gateways bill before the upstream reports usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Google's Gemini interface on the reference gateway: `POST /v1beta/models/{model}:generateContent`
 * and `:streamGenerateContent` (`?alt=sse`: `data:` lines ended by CRLF pairs, no `[DONE]`, the
 * body's end is the reply's end; without it, one JSON array), the key in `x-goog-api-key` (or
 * `?key=`, which new-api also takes); thought summaries as parts marked `thought` when asked for;
 * cumulative `usageMetadata`; a prompt containing `#blocked` is refused by `promptFeedback`.
 * `GET /v1beta/models` lists the models that offer this interface.
 */
import { z } from 'zod';
import { chunkText, cutByFilter, imageFromBase64, promptTokensOf, sleep, type GatewayCore, type Served } from './core';
import { geminiErrorBody, sendRefusal, type Problem } from './errors';
import { estimateTokens, type IncomingImage, type IncomingTurn, type ReferenceModel } from './models';
import { SEARCH_SOURCES, TOOLS_REFUSED, geminiToolView, searchAnswer, toolStep } from './tools';

/** A candidate's ratings when the filter stopped it: dangerous content, marked as the one that blocked. */
const SAFETY_RATINGS = [
  { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
  { category: 'HARM_CATEGORY_HARASSMENT', probability: 'LOW' },
  { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'MEDIUM', blocked: true },
];

/** `/v1beta/models/{model}:{method}` */
export const GEMINI_CALL = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;
export const GEMINI_MODELS = '/v1beta/models';

const Part = z.object({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  inlineData: z.object({ mimeType: z.string(), data: z.string() }).optional(),
  fileData: z.object({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
}).loose();
const Content = z.object({ role: z.enum(['user', 'model']).optional(), parts: z.array(Part) }).loose();

export const GenerateBody = z.object({
  contents: z.array(Content).min(1),
  systemInstruction: Content.optional(),
  generationConfig: z.object({
    temperature: z.number().min(0).max(2).optional(),
    maxOutputTokens: z.number().int().positive().optional(),
    thinkingConfig: z.object({ includeThoughts: z.boolean().optional(), thinkingBudget: z.number().int().optional() }).loose().optional(),
  }).loose().optional(),
}).loose();
type GenerateBody = z.infer<typeof GenerateBody>;

function turnOf(role: string, content: z.infer<typeof Content>): IncomingTurn {
  const text: string[] = [];
  const images: IncomingImage[] = [];
  for (const part of content.parts) {
    // A thought sent back is not part of what was said.
    if (part.text !== undefined && part.thought !== true) text.push(part.text);
    if (part.inlineData !== undefined) images.push(imageFromBase64(part.inlineData.mimeType, part.inlineData.data));
    if (part.fileData !== undefined) images.push({ url: part.fileData.fileUri, mediaType: 'remote', bytes: 0 });
  }
  return { role, text: text.join('\n'), images };
}

function turnsOf(body: GenerateBody): IncomingTurn[] {
  const turns: IncomingTurn[] = [];
  if (body.systemInstruction !== undefined) turns.push(turnOf('system', body.systemInstruction));
  for (const content of body.contents) turns.push(turnOf(content.role === 'model' ? 'assistant' : 'user', content));
  return turns;
}

export function listGeminiModels(models: readonly ReferenceModel[]): string {
  return JSON.stringify({
    models: models.filter((m) => m.endpoints.includes('gemini')).map((m) => ({
      name: `models/${m.id}`, version: '1', displayName: m.id, inputTokenLimit: 1_048_576, outputTokenLimit: 65_536,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
    })),
  });
}

/** A reply not streamed as SSE: one response, or (streamed without `alt=sse`) one JSON array of responses. */
function sendWhole(res: Served['res'], method: 'generateContent' | 'streamGenerateContent', whole: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(method === 'generateContent' ? whole : [whole]));
}

export async function serveGemini(core: GatewayCore, served: Served, modelId: string, method: 'generateContent' | 'streamGenerateContent', sse: boolean): Promise<void> {
  const { res, key, fault } = served;
  const refuse = (problem: Problem): void => sendRefusal(res, 'gemini', problem);
  const read = await core.readJson(served, GenerateBody);
  if (!read.ok) return refuse(read.problem);
  const body = read.value;
  const turns = turnsOf(body);
  const admitted = core.admit(key, modelId, 'gemini', turns);
  if (!admitted.ok) return refuse(admitted.problem);
  const model = admitted.model;
  const view = geminiToolView(body);
  if (model.refusesTools === true && view.offered.length > 0) return refuse(TOOLS_REFUSED);
  const step = toolStep(view, core.serial());
  if (step?.kind === 'calls') {
    // Gemini sends each call whole, as a functionCall part; the reply ends STOP.
    const promptTokenCount = promptTokensOf(turns, estimateTokens);
    const parts = step.calls.map((c) => ({ functionCall: { name: c.name, args: c.args } }));
    const whole = { candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount, candidatesTokenCount: 5, totalTokenCount: promptTokenCount + 5 }, modelVersion: model.id };
    core.bill(key, model, promptTokenCount, 5);
    if (method === 'generateContent' || !sse) return sendWhole(res, method, whole);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const out = core.writer(served);
    const log = core.startStream(served, out);
    if (!out.write(`data: ${JSON.stringify(whole)}\r\n\r\n`)) return;
    core.finish(served, log);
    return;
  }
  const searched = searchAnswer(view);
  const answer = searched !== undefined ? { text: searched } : step?.kind === 'answer' ? { text: step.text } as ReturnType<ReferenceModel['answer']> : model.answer(turns, core.answerContext());
  // Grounding with Google Search: the pages, on the last response.
  const grounding = searched === undefined ? {} : { groundingMetadata: { webSearchQueries: ['tides'], groundingChunks: SEARCH_SOURCES.map((s) => ({ web: { uri: s.url, title: s.title } })) } };
  // An image model's image: an `inlineData` part after the text (none if the filter stops the reply).
  const image = answer.image === undefined || fault?.kind === 'blocked' ? undefined : { inlineData: { mimeType: answer.image.mime, data: answer.image.base64 } };
  const outputTokens = (text: string) => estimateTokens(text) + (image === undefined ? 0 : answer.outputTokens ?? 0);
  const maxTokens = body.generationConfig?.maxOutputTokens;
  const truncated = maxTokens !== undefined && image === undefined && answer.text.length > maxTokens * 4;
  const filtered = cutByFilter(truncated ? answer.text.slice(0, maxTokens * 4) : answer.text, fault, core.pace().chunkChars);
  const text = filtered.text;
  const thoughts = body.generationConfig?.thinkingConfig?.includeThoughts === true ? answer.reasoning : undefined;
  const promptTokenCount = promptTokensOf(turns, estimateTokens);
  // Thinking is billed whether or not its summary is shown.
  const thoughtsTokenCount = estimateTokens(answer.reasoning ?? '');
  const responseId = `ref-${core.serial()}`;
  const blocked = turns.some((t) => t.role === 'user' && t.text.includes('#blocked'));
  const usage = (candidates: number) => ({
    promptTokenCount,
    candidatesTokenCount: candidates,
    ...(thoughtsTokenCount > 0 ? { thoughtsTokenCount } : {}),
    totalTokenCount: promptTokenCount + candidates + thoughtsTokenCount,
  });
  const response = (parts: unknown[], finishReason: string | undefined, candidates: number) => ({
    candidates: [{ content: { parts, role: 'model' }, index: 0, ...(finishReason === undefined ? {} : { finishReason, ...grounding }) }],
    usageMetadata: usage(candidates),
    modelVersion: model.id,
    responseId,
  });
  const finishReason = truncated ? 'MAX_TOKENS' : 'STOP';
  // The filter's verdict: the only candidate ends SAFETY (streamed, in a response with no content of its own).
  const safetyBlock = (parts: unknown[], candidates: number) => ({
    candidates: [{ ...(parts.length === 0 ? {} : { content: { parts, role: 'model' } }), finishReason: 'SAFETY', index: 0, safetyRatings: SAFETY_RATINGS }],
    usageMetadata: usage(candidates),
    modelVersion: model.id,
    responseId,
  });
  const blockedResponse = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount, totalTokenCount: promptTokenCount }, modelVersion: model.id, responseId };

  if (method === 'generateContent' || !sse) {
    core.bill(key, model, promptTokenCount, blocked ? 0 : outputTokens(text) + thoughtsTokenCount);
    const parts = [
      ...(thoughts === undefined ? [] : [{ text: thoughts, thought: true }]),
      ...(filtered.blocked && text === '' ? [] : [{ text }]),
      ...(image === undefined ? [] : [image]),
    ];
    const whole = blocked ? blockedResponse : filtered.blocked ? safetyBlock(parts, estimateTokens(text)) : response(parts, finishReason, outputTokens(text));
    return sendWhole(res, method, whole);
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const out = core.writer(served);
  const log = core.startStream(served, out);
  const data = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;
  if (blocked) {
    core.bill(key, model, promptTokenCount, 0);
    if (!out.write(data(blockedResponse))) return;
    core.finish(served, log);
    return;
  }
  const pace = core.pace();
  const pieces: { piece: string; thought: boolean; image?: typeof image }[] = [
    ...chunkText(thoughts ?? '', pace.chunkChars).map((piece) => ({ piece, thought: true })),
    ...chunkText(text, pace.chunkChars).map((piece) => ({ piece, thought: false })),
    ...(image === undefined ? [] : [{ piece: '', thought: false, image }]),
  ];
  let sentChunks = 0;
  let sentText = '';
  for (const [at, { piece, thought, image: inline }] of pieces.entries()) {
    if (fault?.kind === 'midstream-error' && sentChunks === fault.afterChunks) {
      out.write(`data: ${geminiErrorBody(500, 'INTERNAL', core.words().upstreamClosed)}\r\n\r\n`);
      res.end();
      return;
    }
    if (fault?.kind === 'malformed-chunk' && sentChunks === fault.afterChunks) {
      if (!out.write('data: {"candidates":[{"content":{"parts":[{"text":"cut\r\n\r\n')) return;
    }
    await sleep(pace.delayMs);
    if (!thought) sentText += piece;
    const last = at === pieces.length - 1 && !filtered.blocked;
    const part = inline ?? (thought ? { text: piece, thought: true } : { text: piece });
    const chunk = response([part], last ? finishReason : undefined, inline === undefined ? estimateTokens(sentText) : outputTokens(sentText));
    if (out.stopped || !out.write(data(chunk))) return;
    if (!thought) core.delivered(log, piece);
    sentChunks++;
  }
  if (filtered.blocked) {
    if (!out.write(data(safetyBlock([], estimateTokens(sentText))))) return;
  } else if (pieces.length === 0 && !out.write(data(response([{ text: '' }], finishReason, 0)))) return;
  core.bill(key, model, promptTokenCount, outputTokens(text) + thoughtsTokenCount);
  core.finish(served, log);
}

/**
 * Anthropic's Messages interface on the reference gateway: `POST /v1/messages` with `x-api-key`
 * (or a bearer key, as new-api takes) and `anthropic-version`; `max_tokens` required; streamed
 * as `event:` + `data:` pairs with pings, thinking blocks signed, and errors as `event: error`.
 * A thinking block sent back must carry the signature it was given.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { chunkText, cutByFilter, imageFromBase64, promptTokensOf, sleep, type GatewayCore, type Served } from './core';
import { sendRefusal, type Problem } from './errors';
import { estimateTokens, type IncomingImage, type IncomingTurn } from './models';
import { SEARCH_SOURCES, TOOLS_REFUSED, anthropicToolView, searchAnswer, toolStep } from './tools';

export const ANTHROPIC_PATH = '/v1/messages';

const TextBlock = z.object({ type: z.literal('text'), text: z.string() }).loose();
const ImageBlock = z.object({
  type: z.literal('image'),
  source: z.union([
    z.object({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.object({ type: z.literal('url'), url: z.string() }),
  ]),
}).loose();
const ThinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }).loose();
const OtherBlock = z.object({ type: z.string() }).loose();
const Block = z.union([TextBlock, ImageBlock, ThinkingBlock, OtherBlock]);

export const MessagesBody = z.object({
  model: z.string().min(1),
  max_tokens: z.number().int().positive(),
  system: z.union([z.string(), z.array(TextBlock)]).optional(),
  messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.union([z.string(), z.array(Block)]) })).min(1),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
}).loose();
type MessagesBody = z.infer<typeof MessagesBody>;

/** The signature the gateway gives a thinking text (and checks when it comes back). */
export function thinkingSignature(thinking: string): string {
  return createHash('sha256').update(`reference-thinking:${thinking}`).digest('base64');
}

function turnsOf(body: MessagesBody): { turns: IncomingTurn[]; badSignature: boolean } {
  const turns: IncomingTurn[] = [];
  let badSignature = false;
  const system = typeof body.system === 'string' ? body.system : body.system?.map((b) => b.text).join('\n');
  if (system !== undefined && system !== '') turns.push({ role: 'system', text: system, images: [] });
  for (const message of body.messages) {
    if (typeof message.content === 'string') {
      turns.push({ role: message.role, text: message.content, images: [] });
      continue;
    }
    const text: string[] = [];
    const images: IncomingImage[] = [];
    for (const block of message.content) {
      const t = TextBlock.safeParse(block);
      if (t.success) text.push(t.data.text);
      const image = ImageBlock.safeParse(block);
      if (image.success) {
        const source = image.data.source;
        images.push(source.type === 'base64' ? imageFromBase64(source.media_type, source.data) : { url: source.url, mediaType: 'remote', bytes: 0 });
      }
      const thinking = ThinkingBlock.safeParse(block);
      if (thinking.success && thinking.data.signature !== thinkingSignature(thinking.data.thinking)) badSignature = true;
    }
    turns.push({ role: message.role, text: text.join('\n'), images });
  }
  return { turns, badSignature };
}

export async function serveMessages(core: GatewayCore, served: Served): Promise<void> {
  const { res, key, fault } = served;
  const refuse = (problem: Problem): void => sendRefusal(res, 'anthropic', problem);
  const read = await core.readJson(served, MessagesBody);
  if (!read.ok) return refuse(read.problem);
  const body = read.value;
  const { turns, badSignature } = turnsOf(body);
  if (badSignature) return refuse({ kind: 'invalid_request', message: 'messages: Invalid `signature` in `thinking` block', param: 'messages' });
  const admitted = core.admit(key, body.model, 'anthropic', turns);
  if (!admitted.ok) return refuse(admitted.problem);
  const model = admitted.model;
  const view = anthropicToolView(body);
  if (model.refusesTools === true && view.offered.length > 0) return refuse(TOOLS_REFUSED);
  const step = toolStep(view, core.serial());
  const searched = searchAnswer(view);
  const answer = searched !== undefined ? { text: searched, reasoning: undefined } : step?.kind === 'answer' ? { text: step.text, reasoning: undefined } : model.answer(turns);
  const limit = body.max_tokens * 4;
  const truncated = answer.text.length > limit;
  // Claude's safety classifiers stop a reply as `refusal`, keeping what it had written.
  const { text, blocked } = cutByFilter(truncated ? answer.text.slice(0, limit) : answer.text, fault, core.pace().chunkChars);
  const thinking = answer.reasoning;
  const inputTokens = promptTokensOf(turns, estimateTokens);
  const outputTokens = estimateTokens(text) + estimateTokens(thinking ?? '');
  const id = `msg_ref${core.serial()}`;
  const calls = step?.kind === 'calls' ? step.calls : [];
  const stopReason = calls.length > 0 ? 'tool_use' : blocked ? 'refusal' : truncated ? 'max_tokens' : 'end_turn';
  const signature = thinking === undefined ? undefined : thinkingSignature(thinking);

  if (body.stream !== true) {
    core.bill(key, model, inputTokens, outputTokens);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({
      id, type: 'message', role: 'assistant', model: model.id,
      content: calls.length > 0
        ? calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args }))
        : [...(thinking === undefined ? [] : [{ type: 'thinking', thinking, signature }]), { type: 'text', text }],
      stop_reason: stopReason, stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: outputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    }));
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const out = core.writer(served);
  const log = core.startStream(served, out);
  const event = (type: string, fields: Record<string, unknown> = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
  const pace = core.pace();

  if (!out.write(event('message_start', {
    message: {
      id, type: 'message', role: 'assistant', model: model.id, content: [], stop_reason: null, stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    },
  }))) return;
  if (!out.write(event('ping'))) return;

  if (calls.length > 0) {
    // Each call a tool_use block, its input as input_json_delta pieces.
    for (const [index, call] of calls.entries()) {
      const json = JSON.stringify(call.args);
      const half = Math.ceil(json.length / 2);
      if (!out.write(event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } }))) return;
      for (const piece of ['', json.slice(0, half), json.slice(half)]) {
        if (!out.write(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }))) return;
      }
      if (!out.write(event('content_block_stop', { index }))) return;
    }
  }
  // The web search server tool ran first: its query, then its results, each a page the text cites.
  let next = 0;
  if (searched !== undefined) {
    const id = `srvtoolu_ref${core.serial()}`;
    if (!out.write(event('content_block_start', { index: next, content_block: { type: 'server_tool_use', id, name: 'web_search', input: {} } }))) return;
    if (!out.write(event('content_block_delta', { index: next, delta: { type: 'input_json_delta', partial_json: '{"query":"tides"}' } }))) return;
    if (!out.write(event('content_block_stop', { index: next++ }))) return;
    const content = SEARCH_SOURCES.map((s) => ({ type: 'web_search_result', url: s.url, title: s.title, encrypted_content: 'Eo8B', page_age: null }));
    if (!out.write(event('content_block_start', { index: next, content_block: { type: 'web_search_tool_result', tool_use_id: id, content } }))) return;
    if (!out.write(event('content_block_stop', { index: next++ }))) return;
    if (!out.write(event('content_block_start', { index: next, content_block: { type: 'text', text: '' } }))) return;
    const citation = SEARCH_SOURCES[0];
    if (!out.write(event('content_block_delta', { index: next, delta: { type: 'citations_delta', citation: { type: 'web_search_result_location', url: citation.url, title: citation.title, encrypted_index: 'Eo8B', cited_text: 'tides' } } }))) return;
    if (!out.write(event('content_block_delta', { index: next, delta: { type: 'text_delta', text } }))) return;
    core.delivered(log, text);
    if (!out.write(event('content_block_stop', { index: next }))) return;
  }
  const blocks: { kind: 'thinking' | 'text'; text: string }[] = calls.length > 0 || searched !== undefined ? [] : [
    ...(thinking === undefined ? [] : [{ kind: 'thinking' as const, text: thinking }]),
    { kind: 'text', text },
  ];
  let sentChunks = 0;
  for (const [index, block] of blocks.entries()) {
    const start = block.kind === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { type: 'text', text: '' };
    if (!out.write(event('content_block_start', { index, content_block: start }))) return;
    for (const piece of chunkText(block.text, pace.chunkChars)) {
      if (fault?.kind === 'midstream-error' && sentChunks === fault.afterChunks) {
        out.write(event('error', { error: { type: 'overloaded_error', message: core.words().upstreamClosed } }));
        res.end();
        return;
      }
      if (fault?.kind === 'malformed-chunk' && sentChunks === fault.afterChunks) {
        if (!out.write(`event: content_block_delta\ndata: {"type":"content_block_delta","index":${index},"delta":{"type":"text_delta","text":"cut\n\n`)) return;
      }
      await sleep(pace.delayMs);
      const delta = block.kind === 'thinking' ? { type: 'thinking_delta', thinking: piece } : { type: 'text_delta', text: piece };
      if (out.stopped || !out.write(event('content_block_delta', { index, delta }))) return;
      if (block.kind === 'text') core.delivered(log, piece);
      sentChunks++;
    }
    if (block.kind === 'thinking' && !out.write(event('content_block_delta', { index, delta: { type: 'signature_delta', signature } }))) return;
    if (!out.write(event('content_block_stop', { index }))) return;
  }
  core.bill(key, model, inputTokens, outputTokens);
  if (!out.write(event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }))) return;
  if (!out.write(event('message_stop'))) return;
  core.finish(served, log);
}

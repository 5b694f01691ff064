/**
 * Images on the reference gateway (issue 30), as new-api serves them:
 *
 * - `POST /v1/images/generations` (JSON: `model, prompt, n, size, quality, background,
 *   output_format, response_format, stream`) and `POST /v1/images/edits` (multipart: `image` or
 *   repeated `image[]`, `mask`, `prompt`, the same options), for the models whose
 *   `supported_endpoint_types` name `image-generation`. Each image is a real PNG drawn from the
 *   prompt (`png.ts`: the size asked, the prompt's colour, `tEXt` `prompt`, and for an edit
 *   `edit-of` = `imageTag` of the first image sent). Always PNG, whatever `output_format` says.
 * - The answer: `{created, data: [{url, b64_json, revised_prompt}], usage?}` with both fields,
 *   one empty (new-api's), `b64_json` or `url` as `response_format` says, else as the model does;
 *   a `url` is served at `{site}/__images/{token}.png` (no key) until it expires (60 s, or
 *   `expireImages()`). `stream: true` to a model that streams: per image, two smaller
 *   `image_generation.partial_image` events (`image_edit.*` for edits) then its `completed`
 *   event (with `usage`), then `data: [DONE]`; a model that does not stream answers JSON.
 * - Refusals in new-api's shapes: a prompt containing `forbidden` → 400
 *   `content_policy_violation`; a size (or `n`, or a model for edits) the model does not take →
 *   400 `invalid_value` naming the param and the supported values.
 * - Billing per call: `model_price × n` dollars, in quota units.
 * - `gemini-2.5-flash-image`, a chat model (Gemini's interface and Chat Completions) that answers
 *   a line of text and then the image: `![image](data:image/png;base64,…)` in content deltas of
 *   `pieceChars` (64 kB), or an `inlineData` part on Gemini's interface. Its image is drawn from
 *   the last user text; when the history holds an image (an assistant's, or any sent back), its
 *   `edit-of` names the last one. The size: `[size:WxH]` in the prompt, else the `image-chat`
 *   knob's (512x512); `[bytes:N]` in the prompt (or the knob's `bytes`) pads the PNG to N bytes
 *   (benches: a 4 MB image).
 */
import type { IncomingMessage } from 'node:http';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { sleep, type GatewayCore, type Served } from './core';
import { openaiErrorBody, sendRefusal } from './errors';
import type { AnswerContext, ImageChatSettings, ImageModelSpec, IncomingTurn, ModelReply, ReferenceModel } from './models';
import { drawPng, imageTag } from './png';

export const IMAGE_PATHS = { generations: '/v1/images/generations', edits: '/v1/images/edits' } as const;
/** `/__images/{token}.png` */
export const SERVED_IMAGE = /^\/__images\/([0-9a-f]+)\.png$/;
/** How long a `url` answer stays served. */
export const IMAGE_URL_TTL_MS = 60_000;
/** What a Gemini image counts as, in output tokens (Google bills 1290 per image). */
const GEMINI_IMAGE_TOKENS = 1290;

const GPT_IMAGE: ImageModelSpec = {
  sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'], qualities: ['auto', 'low', 'medium', 'high'], maxN: 4, answersWith: 'b64_json', streams: true, edits: true, revises: false,
};
const DALL_E_3: ImageModelSpec = {
  sizes: ['1024x1024', '1792x1024', '1024x1792'], qualities: ['standard', 'hd'], maxN: 1, answersWith: 'url', streams: false, edits: false, revises: true,
};

function lastUserText(turns: IncomingTurn[]): string {
  for (let i = turns.length - 1; i >= 0; i--) if (turns[i]?.role === 'user') return turns[i]!.text;
  return '';
}

/** The tag of the last image anywhere in the history before the last user turn's own (what "make it blue" edits). */
function lastImageTag(turns: IncomingTurn[]): string | undefined {
  for (let i = turns.length - 1; i >= 0; i--) {
    const tagged = turns[i]!.images.filter((img) => img.tag !== undefined);
    if (tagged.length > 0) return tagged.at(-1)!.tag;
  }
  return undefined;
}

function parseSize(size: string): { width: number; height: number } {
  const [w, h] = size.split('x').map(Number);
  return { width: w ?? 1024, height: h ?? 1024 };
}

/** A Gemini-style image model's reply: a line, then the image. */
function geminiImageAnswer(turns: IncomingTurn[], context: AnswerContext | undefined): ModelReply {
  const settings: ImageChatSettings = context?.imageChat ?? { size: '512x512', pieceChars: 64 * 1024 };
  const asked = lastUserText(turns);
  const size = /\[size:(\d{2,5}x\d{2,5})\]/.exec(asked)?.[1] ?? settings.size;
  const bytes = /\[bytes:(\d+)\]/.exec(asked)?.[1];
  const prompt = asked.replace(/\s*\[(?:size|bytes):[^\]]*\]\s*/g, ' ').trim();
  const editOf = lastImageTag(turns);
  const png = drawPng({
    ...parseSize(size), prompt, text: editOf === undefined ? {} : { 'edit-of': editOf },
    padTo: bytes === undefined ? settings.bytes : Number(bytes),
  });
  return {
    text: editOf === undefined ? `Here is an image of ${prompt}.\n\n` : `Here is the image again, changed: ${prompt}.\n\n`,
    image: { mime: 'image/png', base64: png.toString('base64'), pieceChars: settings.pieceChars },
    outputTokens: GEMINI_IMAGE_TOKENS,
  };
}

const noText = (): ModelReply => ({ text: '' });

export const IMAGE_MODELS: readonly ReferenceModel[] = [
  {
    id: 'gpt-image-1', ownedBy: 'reference-openai', endpoints: ['image-generation', 'openai'], imageInput: false,
    price: 1, perCall: 0.04, images: GPT_IMAGE, answer: noText,
  },
  {
    id: 'dall-e-3', ownedBy: 'reference-openai', endpoints: ['image-generation', 'openai'], imageInput: false,
    price: 1, perCall: 0.08, images: DALL_E_3, answer: noText,
  },
  {
    // A Gemini chat model, listed as new-api lists a Gemini channel's models.
    id: 'gemini-2.5-flash-image', ownedBy: 'reference-google', endpoints: ['gemini', 'openai'], imageInput: true,
    price: 3, answer: geminiImageAnswer,
  },
];

/** The content a reply streams: its text in pace-sized pieces, then the image's markdown in `pieceChars` pieces. */
export function imageMarkdown(image: NonNullable<ModelReply['image']>): string {
  return `![image](data:${image.mime};base64,${image.base64})`;
}

export function imagePieces(image: NonNullable<ModelReply['image']>): string[] {
  const whole = imageMarkdown(image);
  const out: string[] = [];
  for (let i = 0; i < whole.length; i += image.pieceChars) out.push(whole.slice(i, i + image.pieceChars));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The image routes.

const Options = {
  model: z.string().min(1),
  prompt: z.string().min(1),
  n: z.coerce.number().int().optional(),
  size: z.string().optional(),
  quality: z.string().optional(),
  background: z.string().optional(),
  output_format: z.string().optional(),
  response_format: z.enum(['url', 'b64_json']).optional(),
  stream: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).optional(),
  partial_images: z.coerce.number().int().min(0).max(3).optional(),
};
const GenerationBody = z.object(Options).loose();
type ImageBody = z.infer<typeof GenerationBody>;

/** A file of a multipart body, as logged and as drawn from. */
export interface UploadedFile {
  name: string;
  type: string;
  bytes: number;
}

/** Images served by address, until they expire. */
export class ServedImages {
  private readonly images = new Map<string, { png: Buffer; expires: number }>();
  constructor(private readonly ttlMs: number = IMAGE_URL_TTL_MS) {}
  add(png: Buffer): string {
    const token = randomBytes(12).toString('hex');
    this.images.set(token, { png, expires: Date.now() + this.ttlMs });
    return token;
  }
  get(token: string): Buffer | undefined {
    const image = this.images.get(token);
    if (image === undefined || image.expires <= Date.now()) {
      this.images.delete(token);
      return undefined;
    }
    return image.png;
  }
  expireAll(): void {
    this.images.clear();
  }
}

/** What the image routes borrow from the server besides the core. */
export interface ImageHost {
  core: GatewayCore;
  siteUrl(): string;
  served: ServedImages;
  /** The request's multipart body (read once), or undefined when it is not multipart. */
  formData(req: IncomingMessage): Promise<FormData | undefined>;
  /** The body as logged. */
  log(served: Served, body: unknown): void;
  /** Whether the account can pay for `n` calls (new-api takes the price before it asks upstream). */
  affords(served: Served, model: ReferenceModel, n: number): boolean;
  /** Bills `n` calls of a per-call model. */
  billCalls(served: Served, model: ReferenceModel, n: number): void;
}

/** "'a', 'b', and 'c'" as OpenAI lists supported values. */
function listValues(values: readonly string[]): string {
  const quoted = values.map((v) => `'${v}'`);
  return quoted.length <= 1 ? quoted.join('') : quoted.length === 2 ? quoted.join(' and ') : `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)!}`;
}

function invalidValue(served: Served, param: string, value: string, supported: readonly string[]): void {
  served.res.writeHead(400, { 'content-type': 'application/json' });
  served.res.end(openaiErrorBody(`Invalid value: '${value}'. Supported values are: ${listValues(supported)}.`, 'invalid_request_error', 'invalid_value', param));
}

export const CONTENT_POLICY_MESSAGE = 'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.';

/** Values of a multipart body as logged: strings, files as `{ name, type, bytes }`, repeated names as arrays. */
function loggedForm(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    const logged = typeof value === 'string' ? value : { name: value.name, type: value.type, bytes: value.size };
    const before = out[name];
    out[name] = before === undefined ? logged : Array.isArray(before) ? [...before, logged] : [before, logged];
  }
  return out;
}

export async function serveImages(host: ImageHost, served: Served, route: 'generations' | 'edits'): Promise<void> {
  const { core, served: urls } = host;
  const { res, key, fault } = served;
  let body: ImageBody;
  let editOf: string | undefined;
  if (route === 'edits') {
    const form = await host.formData(served.req);
    if (form === undefined) {
      return sendRefusal(res, 'openai', { kind: 'invalid_request', message: 'Invalid request: the body must be multipart/form-data.', param: null });
    }
    host.log(served, loggedForm(form));
    const fields: Record<string, string> = {};
    for (const [name, value] of form.entries()) if (typeof value === 'string') fields[name] = value;
    const parsed = GenerationBody.safeParse(fields);
    if (!parsed.success) {
      const param = parsed.error.issues[0]?.path.join('.') ?? null;
      return sendRefusal(res, 'openai', { kind: 'invalid_request', message: `Invalid request: ${param ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trim(), param });
    }
    body = parsed.data;
    const files = [...form.getAll('image'), ...form.getAll('image[]')].filter((v): v is File => typeof v !== 'string');
    const first = files[0];
    if (first === undefined) return sendRefusal(res, 'openai', { kind: 'invalid_request', message: "Invalid request: 'image' is required.", param: 'image' });
    editOf = imageTag(new Uint8Array(await first.arrayBuffer()));
  } else {
    const read = await core.readJson(served, GenerationBody);
    if (!read.ok) return sendRefusal(res, 'openai', read.problem);
    body = read.value;
  }

  const admitted = core.admit(key, body.model, 'image-generation', [{ role: 'user', text: body.prompt, images: [] }]);
  if (!admitted.ok) return sendRefusal(res, 'openai', admitted.problem);
  const model = admitted.model;
  const spec = model.images;
  if (spec === undefined) {
    return sendRefusal(res, 'openai', { kind: 'endpoint', message: `${model.id} is not an image generation model; it supports: ${model.endpoints.join(', ')}.` });
  }
  if (route === 'edits' && !spec.edits) {
    const takers = ['gpt-image-1'];
    return invalidValue(served, 'model', model.id, takers);
  }
  const n = body.n ?? 1;
  if (n < 1 || n > spec.maxN) return invalidValue(served, 'n', String(n), Array.from({ length: spec.maxN }, (_, i) => String(i + 1)));
  const size = body.size ?? spec.sizes[0]!;
  if (!spec.sizes.includes(size)) return invalidValue(served, 'size', size, spec.sizes);
  if (body.quality !== undefined && !spec.qualities.includes(body.quality)) return invalidValue(served, 'quality', body.quality, spec.qualities);
  if (!host.affords(served, model, n)) return sendRefusal(res, 'openai', { kind: 'balance', message: core.words().insufficientBalance });
  if (/forbidden/i.test(body.prompt)) {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(openaiErrorBody(CONTENT_POLICY_MESSAGE, 'invalid_request_error', 'content_policy_violation'));
    return;
  }

  const { width, height } = parseSize(size === 'auto' ? '1024x1024' : size);
  const text: Record<string, string> = editOf === undefined ? {} : { 'edit-of': editOf };
  const draw = (index: number) => drawPng({ width, height, prompt: body.prompt, text: { ...text, ...(n > 1 ? { index: String(index) } : {}) } });
  const revised = spec.revises ? `${body.prompt}, rendered in soft light` : '';
  const answersWith = body.response_format ?? spec.answersWith;
  const promptTokens = Math.ceil(body.prompt.length / 4);
  const usage = {
    total_tokens: promptTokens + 272 * n, input_tokens: promptTokens, output_tokens: 272 * n,
    input_tokens_details: { text_tokens: promptTokens, image_tokens: editOf === undefined ? 0 : 272 },
  };
  const datum = (png: Buffer) => answersWith === 'url'
    ? { url: `${host.siteUrl()}/__images/${urls.add(png)}.png`, b64_json: '', revised_prompt: revised }
    : { url: '', b64_json: png.toString('base64'), revised_prompt: revised };
  const created = Math.floor(Date.now() / 1000);
  const pace = core.pace();

  if (body.stream !== true || !spec.streams) {
    await sleep(pace.delayMs);
    const data = Array.from({ length: n }, (_, i) => datum(draw(i)));
    host.billCalls(served, model, n);
    const out = core.writer(served);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (out.write(JSON.stringify({ created, data, ...(model.id.startsWith('gpt-image') ? { usage } : {}) }))) res.end();
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const out = core.writer(served);
  const log = core.startStream(served, out);
  const prefix = route === 'edits' ? 'image_edit' : 'image_generation';
  const event = (type: string, fields: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, created_at: created, size, quality: body.quality ?? 'auto', background: body.background ?? 'auto', output_format: 'png', ...fields })}\n\n`;
  const partials = body.partial_images ?? 2;
  let sent = 0;
  for (let index = 0; index < n; index++) {
    for (let p = 0; p < partials; p++) {
      if (fault?.kind === 'midstream-error' && sent === fault.afterChunks) {
        out.write(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { message: core.words().upstreamClosed, type: 'upstream_error', code: 'bad_response_status_code', param: null } })}\n\n`);
        res.end();
        return;
      }
      await sleep(pace.delayMs);
      // A partial is smaller and says which it is.
      const partial = drawPng({ width: Math.max(1, Math.round(width / 8)), height: Math.max(1, Math.round(height / 8)), prompt: body.prompt, text: { ...text, partial: String(p) } });
      if (out.stopped || !out.write(event(`${prefix}.partial_image`, { b64_json: partial.toString('base64'), partial_image_index: p }))) return;
      sent++;
    }
    await sleep(pace.delayMs);
    const last = index === n - 1;
    if (last) host.billCalls(served, model, n);
    if (out.stopped || !out.write(event(`${prefix}.completed`, { b64_json: draw(index).toString('base64'), ...(last ? { usage } : {}) }))) return;
    core.delivered(log, `[image ${index}]`);
    sent++;
  }
  if (!out.write('data: [DONE]\n\n')) return;
  core.finish(served, log);
}

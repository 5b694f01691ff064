/**
 * zod schemas for everything the gateway sends. They name only the fields this client reads
 * and accept the variations real gateways produce (a `code` that is a string, a number, ""
 * or absent; `{"error": "<string>"}`; `data: null`; …). Unknown fields pass through.
 */
import * as z from 'zod/mini';

const optionalString = z.optional(z.nullable(z.string()));
const optionalNumber = z.optional(z.nullable(z.number()));

/** `{"error":{message,type,param,code}}` and its cousins. */
export const ErrorObject = z.looseObject({
  message: z.optional(z.nullable(z.unknown())),
  type: z.optional(z.nullable(z.unknown())),
  param: z.optional(z.nullable(z.unknown())),
  code: z.optional(z.nullable(z.unknown())),
  metadata: z.optional(z.unknown()),
});
export type ErrorObject = z.infer<typeof ErrorObject>;

export const ErrorEnvelope = z.looseObject({
  error: z.optional(z.nullable(z.union([ErrorObject, z.string()]))),
  // vLLM / FastAPI style: fields at the top level, `object: "error"`.
  object: z.optional(z.unknown()),
  message: z.optional(z.unknown()),
  type: z.optional(z.unknown()),
  code: z.optional(z.unknown()),
  detail: z.optional(z.unknown()),
  success: z.optional(z.unknown()),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const UsageWire = z.looseObject({
  prompt_tokens: optionalNumber,
  completion_tokens: optionalNumber,
  total_tokens: optionalNumber,
  input_tokens: optionalNumber,
  output_tokens: optionalNumber,
  cost: z.optional(z.nullable(z.union([z.number(), z.string()]))),
  completion_tokens_details: z.optional(z.nullable(z.looseObject({ reasoning_tokens: optionalNumber }))),
  output_tokens_details: z.optional(z.nullable(z.looseObject({ reasoning_tokens: optionalNumber }))),
  prompt_tokens_details: z.optional(z.nullable(z.looseObject({ cached_tokens: optionalNumber }))),
  input_tokens_details: z.optional(z.nullable(z.looseObject({ cached_tokens: optionalNumber }))),
});
export type UsageWire = z.infer<typeof UsageWire>;

/** A piece of a streamed tool call (or a whole one, in a non-streamed message). */
const ToolCallWire = z.looseObject({
  index: z.optional(z.nullable(z.number())),
  id: optionalString,
  function: z.optional(z.nullable(z.looseObject({
    name: optionalString,
    // A few gateways send the arguments as an object.
    arguments: z.optional(z.nullable(z.union([z.string(), z.record(z.string(), z.unknown())]))),
  }))),
});
export type ToolCallWire = z.infer<typeof ToolCallWire>;

const DeltaWire = z.looseObject({
  content: optionalString,
  reasoning_content: optionalString,
  reasoning: optionalString,
  tool_calls: z.optional(z.nullable(z.array(ToolCallWire))),
});

const MessageWire = z.looseObject({
  content: z.optional(z.nullable(z.union([z.string(), z.array(z.looseObject({ type: z.optional(z.string()), text: optionalString }))]))),
  reasoning_content: optionalString,
  reasoning: optionalString,
  tool_calls: z.optional(z.nullable(z.array(ToolCallWire))),
});

const ChoiceWire = z.looseObject({
  delta: z.optional(z.nullable(DeltaWire)),
  message: z.optional(z.nullable(MessageWire)),
  finish_reason: optionalString,
  error: z.optional(z.unknown()),
});

/** One chunk of a streamed chat completion, or a whole non-streamed completion. */
export const ChatChunk = z.looseObject({
  choices: z.optional(z.nullable(z.array(ChoiceWire))),
  usage: z.optional(z.nullable(UsageWire)),
  error: z.optional(z.nullable(z.union([ErrorObject, z.string()]))),
});
export type ChatChunk = z.infer<typeof ChatChunk>;

export function isOptionalString(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

/**
 * The common chunk shape, checked by hand: `choices` of plain text/reasoning deltas and
 * nothing else. It accepts a subset of what `ChatChunk` accepts (a unit test holds the two
 * together), and returns undefined for anything else, which then goes through zod.
 *
 * Why: a stream has one chunk per token. zod costs about 1.3 µs per chunk where it cannot
 * compile its checks (an extension page's CSP forbids `new Function`), which alone would
 * put decoding 60% behind a bare JSON.parse loop; `npm run bench` holds the gap under 25%.
 */
export function quickChatChunk(value: unknown): ChatChunk | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const chunk = value as Record<string, unknown>;
  if (chunk.usage != null || chunk.error != null) return undefined;
  const choices = chunk.choices;
  if (choices == null) return chunk as ChatChunk;
  if (!Array.isArray(choices)) return undefined;
  for (const choice of choices as unknown[]) {
    if (typeof choice !== 'object' || choice === null) return undefined;
    const c = choice as Record<string, unknown>;
    if (c.message !== undefined || c.error !== undefined || !isOptionalString(c.finish_reason)) return undefined;
    const delta = c.delta;
    if (delta == null) continue;
    if (typeof delta !== 'object') return undefined;
    const d = delta as Record<string, unknown>;
    if (!isOptionalString(d.content) || !isOptionalString(d.reasoning_content) || !isOptionalString(d.reasoning)) return undefined;
    // Tool calls are checked by the schema.
    if (d.tool_calls != null) return undefined;
  }
  return chunk as ChatChunk;
}

/** One event of a Responses API stream; the text and reasoning deltas are in `delta`. */
/** An output item of a Responses reply: a message, reasoning, or a `function_call`. */
const ResponsesItem = z.looseObject({
  type: z.optional(z.string()),
  id: optionalString,
  call_id: optionalString,
  name: optionalString,
  arguments: optionalString,
});

export const ResponsesEvent = z.looseObject({
  type: z.optional(z.string()),
  delta: z.optional(z.unknown()),
  /** `response.output_item.added` / `.done`: the item; argument events name it by `item_id`. */
  item: z.optional(z.nullable(ResponsesItem)),
  item_id: optionalString,
  output_index: optionalNumber,
  arguments: optionalString,
  /** `response.output_text.annotation.added`: a citation (`url_citation`: `url`, `title`). */
  annotation: z.optional(z.nullable(z.looseObject({ type: optionalString, url: z.optional(z.unknown()), title: z.optional(z.unknown()) }))),
  response: z.optional(z.nullable(z.looseObject({
    status: optionalString,
    usage: z.optional(z.nullable(UsageWire)),
    error: z.optional(z.nullable(z.union([ErrorObject, z.string()]))),
    incomplete_details: z.optional(z.nullable(z.looseObject({ reason: optionalString }))),
  }))),
  // `error` events carry these at the top level.
  code: z.optional(z.unknown()),
  message: z.optional(z.unknown()),
  param: z.optional(z.unknown()),
  error: z.optional(z.nullable(z.union([ErrorObject, z.string()]))),
});
export type ResponsesEvent = z.infer<typeof ResponsesEvent>;

/**
 * The hot path of a Responses stream, checked by hand: a text or reasoning delta (a string
 * `delta`, nothing else that `ResponsesEvent` checks). A subset of what the schema accepts.
 */
export function quickResponsesEvent(value: unknown): ResponsesEvent | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const event = value as Record<string, unknown>;
  if (typeof event.delta !== 'string' || !isOptionalString(event.type)) return undefined;
  if (event.response !== undefined || event.error !== undefined || event.item !== undefined || event.annotation !== undefined) return undefined;
  if (!isOptionalString(event.item_id) || (event.output_index != null && typeof event.output_index !== 'number')) return undefined;
  return event as ResponsesEvent;
}

const ResponsesContentPart = z.looseObject({
  type: z.optional(z.string()), text: optionalString,
  annotations: z.optional(z.nullable(z.array(z.looseObject({ type: optionalString, url: z.optional(z.unknown()), title: z.optional(z.unknown()) })))),
});

/** A whole non-streamed Responses reply. */
export const ResponsesReply = z.looseObject({
  status: optionalString,
  output: z.optional(z.nullable(z.array(z.looseObject({
    type: z.optional(z.string()),
    id: optionalString,
    call_id: optionalString,
    name: optionalString,
    arguments: optionalString,
    content: z.optional(z.nullable(z.array(ResponsesContentPart))),
    summary: z.optional(z.nullable(z.array(ResponsesContentPart))),
  })))),
  output_text: optionalString,
  usage: z.optional(z.nullable(UsageWire)),
  error: z.optional(z.nullable(z.union([ErrorObject, z.string()]))),
  incomplete_details: z.optional(z.nullable(z.looseObject({ reason: optionalString }))),
});
export type ResponsesReply = z.infer<typeof ResponsesReply>;

/** One entry of `GET /models`: new-api, one-api, OpenAI, OpenRouter, LiteLLM, vLLM, Ollama shapes. */
export const ModelWire = z.looseObject({
  id: z.string(),
  owned_by: optionalString,
  name: optionalString,
  context_length: optionalNumber,
  supported_endpoint_types: z.optional(z.nullable(z.array(z.string()))),
  /** OpenRouter: the request parameters the model takes (`tools`, `reasoning`, …). */
  supported_parameters: z.optional(z.nullable(z.array(z.string()))),
  architecture: z.optional(z.nullable(z.looseObject({
    input_modalities: z.optional(z.nullable(z.array(z.string()))),
    output_modalities: z.optional(z.nullable(z.array(z.string()))),
    modality: optionalString,
  }))),
});
export type ModelWire = z.infer<typeof ModelWire>;

export const ModelListWire = z.union([
  z.looseObject({ data: z.nullable(z.array(z.unknown())) }),
  z.array(z.unknown()),
]);

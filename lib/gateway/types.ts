import type { GatewayError } from './errors';
import type { ApiStyle } from './interfaces/names';

export type { ApiStyle } from './interfaces/names';

export type ContentPart =
  | { type: 'text'; text: string }
  /** `url` is an http(s) URL or a `data:` URL. */
  | { type: 'image'; url: string; detail?: 'auto' | 'low' | 'high' }
  /** A document sent as itself (a PDF, for models whose catalogue says they take files): `data` is its `data:` URL. */
  | { type: 'file'; filename: string; data: string };

/** A tool the model may call: its JSON Schema is the MCP server's (or ours) as given. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** A tool call as the model made it: `arguments` is the JSON text it wrote (maybe not valid JSON). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
  /** Gemini's `thoughtSignature` on the call: sent back with it (Gemini 3 refuses a call without it). */
  signature?: string;
}

export type ChatMessage =
  | TextMessage
  /** A tool's answer to the call `toolCallId` (its `name` too: Gemini matches results by name). */
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError?: boolean };

export interface TextMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ContentPart[];
  /** The calls an assistant turn made (its text, if any, came before them). */
  toolCalls?: ToolCall[];
  /**
   * An assistant turn's thinking, sent back where the interface takes it: Anthropic's thinking
   * blocks when signed (they must keep their signature); Chat Completions' `reasoning_content`
   * on a turn that called tools (DeepSeek and Kimi refuse such a turn without it); left out elsewhere.
   */
  reasoning?: { text: string; signature?: string };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** The interface the request goes through (see `API_STYLES`); default `'chat'`. */
  api?: ApiStyle;
  /** Default true. A non-streamed reply yields the same events. */
  stream?: boolean;
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** Ask a streamed chat reply to report usage (`stream_options.include_usage`). Default true. */
  includeUsage?: boolean;
  /** Extra body fields passed through as they are (gateway-specific options). */
  extra?: Record<string, unknown>;
  /** Tools the model may call, in each interface's own shape. */
  tools?: ToolSpec[];
  /**
   * Let the model search the web through the gateway's own search, where the interface has one
   * (the Responses API's `web_search`, Anthropic's `web_search` server tool, Gemini's
   * `googleSearch`); Chat Completions has none and ignores it. Its sources come as `sources` events.
   */
  webSearch?: boolean;
}

/** A page a reply's answer drew on (a web search the gateway ran), to cite. */
export interface ReplySource {
  title: string;
  url: string;
}

export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedTokens?: number;
  /** Cost as the gateway reports it (OpenRouter's `cost`), in its currency. */
  cost?: number;
  /** The object the gateway sent, as it was. */
  raw: Record<string, unknown>;
}

export type StreamEvent =
  | { type: 'text'; text: string }
  /**
   * `movedFromText` is set when a server stripped the opening `<think>` and a lone
   * `</think>` showed that the text already delivered was reasoning: the consumer moves all
   * the text it has received so far into reasoning, then appends this event's text to it.
   */
  | { type: 'reasoning'; text: string; movedFromText?: true }
  | { type: 'usage'; usage: Usage }
  /** Pages the answer drew on (the gateway's own web search), as the interface cited them. */
  | { type: 'sources'; sources: ReplySource[] }
  /** A tool call, whole (its pieces assembled): all of a reply's calls come just before its `done`. */
  | { type: 'tool_call'; call: ToolCall }
  /**
   * The request went through Chat Completions because this gateway does not serve `from`'s
   * route (it answered `status` there before any reply): what follows is the reply as usual.
   */
  | { type: 'rerouted'; from: ApiStyle; status: number }
  | { type: 'error'; error: GatewayError }
  /** `signature`: the reply's thinking as signed by the interface (Anthropic), to be sent back with it. */
  | { type: 'done'; finishReason?: string; signature?: string };

export type Capability = boolean | 'unknown';

export interface ModelCapabilities {
  chat: Capability;
  responses: Capability;
  imageInput: Capability;
  imageGeneration: Capability;
  embeddings: Capability;
  /** Thinks before answering (OpenRouter's `supported_parameters` has `reasoning`). */
  reasoning: Capability;
  /** Calls tools (OpenRouter's `supported_parameters` has `tools`). */
  tools: Capability;
  /** Takes documents as files (OpenRouter's `input_modalities` has `file`). */
  fileInput?: Capability;
}

export interface ModelInfo {
  id: string;
  ownedBy?: string;
  /** A display name where the gateway gives one (OpenRouter). */
  name?: string;
  contextLength?: number;
  capabilities: ModelCapabilities;
  /** new-api's `supported_endpoint_types` as sent; its first entry is the preferred one. */
  endpointTypes?: string[];
  /** The interfaces the gateway serves this model through, when it says (its order; the first preferred). */
  apis?: ApiStyle[];
  /** The interface the gateway prefers for this model, when it says. */
  preferredApi?: ApiStyle;
}

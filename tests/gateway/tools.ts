/**
 * Tool calling on the reference gateway, the same on all four interfaces and deterministic:
 *
 * - `[[tool:NAME {json args}]]` in the last question asks for a call of NAME with those
 *   arguments, when the request offers a tool of that name (several markers: parallel calls in
 *   one turn). Offered no such tool, the model answers as usual.
 * - Once the results of that turn's calls come back (after the question), the model answers with
 *   them: `Tool NAME said: <result>` per result, or `Tool NAME was not run: <result>` for one
 *   marked as an error (a refusal).
 * - `[[tool-loop:NAME {json}]]` asks for NAME again after every result that is not a refusal
 *   (one marked as an error, or saying it was denied): for the step cap.
 * - A result quoted in a fence (as our client quotes tool output) is answered with what is inside.
 * - A model with `refusesTools` answers a request that offers tools with a 400 naming `tools`.
 *
 * Each interface's reader turns its body into a `ToolView`; each handler writes the calls in its
 * own shape (see chat/responses in server.ts, anthropic.ts, gemini.ts).
 */
export interface ToolResultSeen {
  callId: string;
  name: string;
  content: string;
  isError: boolean;
}

export interface ToolView {
  /** The names of the tools the request offers. */
  offered: string[];
  /** The request offers the interface's own web search (Responses `web_search`, Anthropic's server tool, Gemini `googleSearch`). */
  searchOffered?: boolean;
  /** The last question's text. */
  question: string;
  /** The tool results sent after the last question. */
  results: ToolResultSeen[];
}

export interface PlannedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export type ToolStep = { kind: 'calls'; calls: PlannedCall[] } | { kind: 'answer'; text: string };

const MARKER = /\[\[(tool|tool-loop):([\w.-]+)\s*(\{[\s\S]*?\})?\]\]/g;

/** What the model does with this request's tools; undefined: answer as usual. */
export function toolStep(view: ToolView, serial: number): ToolStep | undefined {
  const markers = [...view.question.matchAll(MARKER)].map((m) => ({ loop: m[1] === 'tool-loop', name: m[2]!, args: parseArgs(m[3]) }));
  if (markers.length === 0) return undefined;
  const loops = markers.filter((m) => m.loop);
  const refused = view.results.some((r) => r.isError || /denied/i.test(r.content));
  if (view.results.length > 0 && (loops.length === 0 || refused || !loops.every((m) => view.offered.includes(m.name)))) {
    return { kind: 'answer', text: view.results.map((r) => r.isError ? `Tool ${r.name} was not run: ${unfence(r.content)}` : `Tool ${r.name} said: ${unfence(r.content)}`).join('\n') };
  }
  const wanted = view.results.length > 0 ? loops : markers;
  if (!wanted.every((m) => view.offered.includes(m.name))) return undefined;
  return { kind: 'calls', calls: wanted.map((m, i) => ({ id: `call_${serial}_${i + 1}`, name: m.name, args: m.args })) };
}

/** A result quoted in a fence (as a client quotes tool output): what is inside it; else the result as sent. */
function unfence(content: string): string {
  const fenced = /(`{3,})[^\n]*\n([\s\S]*?)\n\1/.exec(content);
  return fenced === null ? content : fenced[2]!;
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

type Loose = Record<string, unknown>;
const obj = (value: unknown): Loose => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Loose : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  return list(content).map((p) => str(obj(p).text)).join('');
}

/** Chat Completions: `tools[].function.name`; `role: tool` messages after the last user message. */
export function chatToolView(body: unknown): ToolView {
  const b = obj(body);
  const messages = list(b.messages).map(obj);
  const at = messages.findLastIndex((m) => m.role === 'user');
  const names = new Map<string, string>();
  for (const m of messages) for (const c of list(m.tool_calls).map(obj)) names.set(str(c.id), str(obj(c.function).name));
  return {
    offered: list(b.tools).map((t) => str(obj(obj(t).function).name)),
    question: at < 0 ? '' : textOfContent(messages[at]!.content),
    results: messages.slice(at + 1).filter((m) => m.role === 'tool').map((m) => ({
      callId: str(m.tool_call_id), name: names.get(str(m.tool_call_id)) ?? '?', content: textOfContent(m.content), isError: false,
    })),
  };
}

/** Responses: `tools[].name`; `function_call_output` items after the last user item. */
export function responsesToolView(body: unknown): ToolView {
  const b = obj(body);
  const offered = list(b.tools).map((t) => str(obj(t).name));
  if (typeof b.input === 'string') return { offered, searchOffered: list(b.tools).some((t) => /^web_search/.test(str(obj(t).type))), question: b.input, results: [] };
  const items = list(b.input).map(obj);
  const at = items.findLastIndex((m) => m.role === 'user');
  const names = new Map(items.filter((i) => i.type === 'function_call').map((i) => [str(i.call_id), str(i.name)]));
  return {
    offered,
    searchOffered: list(b.tools).some((t) => /^web_search/.test(str(obj(t).type))),
    question: at < 0 ? '' : textOfContent(items[at]!.content),
    results: items.slice(at + 1).filter((i) => i.type === 'function_call_output').map((i) => ({
      callId: str(i.call_id), name: names.get(str(i.call_id)) ?? '?', content: str(i.output), isError: false,
    })),
  };
}

/** Anthropic: `tools[].name`; `tool_result` blocks in the user turns after the last question. */
export function anthropicToolView(body: unknown): ToolView {
  const b = obj(body);
  const messages = list(b.messages).map(obj);
  const isResults = (m: Loose) => Array.isArray(m.content) && m.content.length > 0 && m.content.every((c) => obj(c).type === 'tool_result');
  const at = messages.findLastIndex((m) => m.role === 'user' && !isResults(m));
  const names = new Map<string, string>();
  for (const m of messages) for (const c of list(m.content).map(obj)) if (c.type === 'tool_use') names.set(str(c.id), str(c.name));
  const results = messages.slice(at + 1).filter(isResults).flatMap((m) => list(m.content).map(obj)).map((c) => ({
    callId: str(c.tool_use_id), name: names.get(str(c.tool_use_id)) ?? '?', content: textOfContent(c.content), isError: c.is_error === true,
  }));
  return {
    offered: list(b.tools).filter((t) => obj(t).type === undefined).map((t) => str(obj(t).name)),
    searchOffered: list(b.tools).some((t) => /^web_search_/.test(str(obj(t).type))),
    question: at < 0 ? '' : textOfContent(messages[at]!.content), results,
  };
}

/** Gemini: `tools[].functionDeclarations[].name`; `functionResponse` parts after the last question. */
export function geminiToolView(body: unknown): ToolView {
  const b = obj(body);
  const contents = list(b.contents).map(obj);
  const responses = (c: Loose) => list(c.parts).map(obj).filter((p) => p.functionResponse !== undefined);
  const at = contents.findLastIndex((c) => c.role !== 'model' && responses(c).length === 0);
  const results = contents.slice(at + 1).flatMap(responses).map((p) => {
    const r = obj(p.functionResponse);
    const response = obj(r.response);
    const error = response.error;
    return { callId: str(r.id), name: str(r.name), content: error !== undefined ? str(error) : typeof response.content === 'string' ? response.content : JSON.stringify(response), isError: error !== undefined };
  });
  return {
    offered: list(b.tools).flatMap((t) => list(obj(t).functionDeclarations)).map((d) => str(obj(d).name)),
    searchOffered: list(b.tools).some((t) => obj(t).googleSearch !== undefined),
    question: at < 0 ? '' : list(contents[at]!.parts).map((p) => str(obj(p).text)).join(''),
    results,
  };
}

/** The pages the gateway's own search finds for a question with `[[search]]`. */
export const SEARCH_SOURCES = [
  { url: 'https://search.example.org/tides', title: 'Tides, by the search' },
  { url: 'https://search.example.org/moon', title: 'The Moon, by the search' },
] as const;

/** `[[search]]` in the question, with the interface's own search offered: the answer cites SEARCH_SOURCES. */
export function searchAnswer(view: ToolView): string | undefined {
  if (view.searchOffered !== true || !view.question.includes('[[search]]')) return undefined;
  return `Searched the web: ${SEARCH_SOURCES.length} pages.`;
}

/** What a model that thinks with tools (`thinksWithTools`) thinks before calling them. */
export function toolThinking(calls: readonly PlannedCall[]): string {
  return `I should call ${calls.map((c) => c.name).join(' and ')} first.`;
}

/**
 * The first assistant turn with tool calls but no `reasoning_content` (Chat Completions): the
 * index of that message, which DeepSeek's thinking mode refuses; undefined when every one has it.
 */
export function missingToolThinking(body: unknown): number | undefined {
  const at = list(obj(body).messages).map(obj).findIndex((m) => m.role === 'assistant' && list(m.tool_calls).length > 0 && str(m.reasoning_content).trim() === '');
  return at < 0 ? undefined : at;
}

/** A model's refusal of a request that offers tools (vLLM, an old model behind new-api). */
export const TOOLS_REFUSED = { kind: 'invalid_request' as const, message: 'tools is not supported for this model', param: 'tools' };

/**
 * The reference gateway's refusals, each in the shape its interface uses: OpenAI's
 * `{"error":{message,type,param,code}}`, Anthropic's `{"type":"error","error":{type,message}}`,
 * Gemini's `{"error":{code,message,status}}`. The statuses are new-api's.
 */
import type { ServerResponse } from 'node:http';

export type Problem =
  | { kind: 'invalid_key'; message: string }
  | { kind: 'model_missing'; model: string; message: string }
  | { kind: 'balance'; message: string }
  | { kind: 'endpoint'; message: string }
  | { kind: 'image'; message: string }
  | { kind: 'invalid_json'; message: string }
  | { kind: 'invalid_request'; message: string; param: string | null }
  | { kind: 'rate_limited'; message: string; retryAfter: number }
  | { kind: 'server'; message: string }
  | { kind: 'overloaded'; message: string }
  | { kind: 'no_route'; message: string };

export type ErrorShape = 'openai' | 'anthropic' | 'gemini';

export interface Refusal {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export function openaiErrorBody(message: string, type: string, code: string | null, param: string | null = null): string {
  return JSON.stringify({ error: { message, type, param, code } });
}

export function anthropicErrorBody(type: string, message: string): string {
  return JSON.stringify({ type: 'error', error: { type, message } });
}

export function geminiErrorBody(code: number, status: string, message: string, details?: unknown[]): string {
  return JSON.stringify({ error: { code, message, status, ...(details === undefined ? {} : { details }) } });
}

function retryHeaders(problem: Problem): Record<string, string> {
  return problem.kind === 'rate_limited' ? { 'retry-after': String(problem.retryAfter) } : {};
}

function openai(problem: Problem): Omit<Refusal, 'headers'> {
  const m = problem.message;
  switch (problem.kind) {
    case 'invalid_key': return { status: 401, body: openaiErrorBody(m, 'invalid_request_error', 'INVALID_API_KEY') };
    case 'model_missing': return { status: 404, body: openaiErrorBody(m, 'invalid_request_error', 'model_not_found', 'model') };
    case 'balance': return { status: 402, body: openaiErrorBody(m, 'insufficient_balance', 'insufficient_balance') };
    case 'endpoint': return { status: 400, body: openaiErrorBody(m, 'invalid_request_error', 'unsupported_endpoint') };
    case 'image': return { status: 400, body: openaiErrorBody(m, 'invalid_request_error', 'image_input_unsupported', 'messages') };
    case 'invalid_json': return { status: 400, body: openaiErrorBody(m, 'invalid_request_error', 'invalid_json') };
    case 'invalid_request': return { status: 400, body: openaiErrorBody(m, 'invalid_request_error', 'invalid_request', problem.param) };
    case 'rate_limited': return { status: 429, body: openaiErrorBody(m, 'rate_limit_error', 'rate_limit_exceeded') };
    case 'server': return { status: 500, body: openaiErrorBody(m, 'server_error', 'upstream_error') };
    case 'overloaded': return { status: 503, body: openaiErrorBody(m, 'server_error', 'model_overloaded') };
    case 'no_route': return { status: 404, body: openaiErrorBody(m, 'invalid_request_error', '') };
  }
}

function anthropic(problem: Problem): Omit<Refusal, 'headers'> {
  const m = problem.message;
  switch (problem.kind) {
    case 'invalid_key': return { status: 401, body: anthropicErrorBody('authentication_error', m) };
    // Anthropic's own words for a missing model.
    case 'model_missing': return { status: 404, body: anthropicErrorBody('not_found_error', `model: ${problem.model}`) };
    // new-api's own refusals keep its status and come as its own error type.
    case 'balance': return { status: 403, body: anthropicErrorBody('new_api_error', m) };
    case 'endpoint':
    case 'image':
    case 'invalid_json':
    case 'invalid_request': return { status: 400, body: anthropicErrorBody('invalid_request_error', m) };
    case 'rate_limited': return { status: 429, body: anthropicErrorBody('rate_limit_error', m) };
    case 'server': return { status: 500, body: anthropicErrorBody('api_error', m) };
    case 'overloaded': return { status: 529, body: anthropicErrorBody('overloaded_error', m) };
    case 'no_route': return { status: 404, body: anthropicErrorBody('not_found_error', m) };
  }
}

function gemini(problem: Problem): Omit<Refusal, 'headers'> {
  const m = problem.message;
  switch (problem.kind) {
    // Google's answer to a bad key: 400 with the reason in the details.
    case 'invalid_key': return { status: 400, body: geminiErrorBody(400, 'INVALID_ARGUMENT', m, [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }]) };
    case 'model_missing': return { status: 404, body: geminiErrorBody(404, 'NOT_FOUND', m) };
    case 'balance': return { status: 402, body: geminiErrorBody(402, 'FAILED_PRECONDITION', m) };
    case 'endpoint':
    case 'image':
    case 'invalid_json':
    case 'invalid_request': return { status: 400, body: geminiErrorBody(400, 'INVALID_ARGUMENT', m) };
    case 'rate_limited': return { status: 429, body: geminiErrorBody(429, 'RESOURCE_EXHAUSTED', m) };
    case 'server': return { status: 500, body: geminiErrorBody(500, 'INTERNAL', m) };
    case 'overloaded': return { status: 503, body: geminiErrorBody(503, 'UNAVAILABLE', m) };
    case 'no_route': return { status: 404, body: geminiErrorBody(404, 'NOT_FOUND', m) };
  }
}

const SHAPES: Record<ErrorShape, (problem: Problem) => Omit<Refusal, 'headers'>> = { openai, anthropic, gemini };

export function refusal(shape: ErrorShape, problem: Problem): Refusal {
  return { ...SHAPES[shape](problem), headers: retryHeaders(problem) };
}

/** Answers a request with the refusal in its interface's shape. */
export function sendRefusal(res: ServerResponse, shape: ErrorShape, problem: Problem): void {
  const r = refusal(shape, problem);
  res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
  res.end(r.body);
}

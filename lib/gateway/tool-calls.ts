/**
 * Streamed tool calls, assembled. Every interface sends a call in pieces of its own shape (Chat
 * Completions: `delta.tool_calls[i]` by index; Responses: `function_call` items and argument
 * deltas by item id; Anthropic: `tool_use` blocks and `input_json_delta` by block index; Gemini:
 * whole `functionCall` parts); each decoder hands the pieces here under a key of its own, and
 * the whole calls come out, in the order they began, just before the reply's `done`.
 */
import type { ToolCall } from './types';

interface Piece {
  /** The call's id as the interface gave it (Responses: `call_id`). */
  id?: string | null | undefined;
  name?: string | null | undefined;
  /** A piece of the arguments' JSON text, appended. */
  arguments?: string | null | undefined;
  /** The interface's signature of the call (Gemini's `thoughtSignature`). */
  signature?: string | null | undefined;
}

interface Building {
  key: string;
  id: string;
  name: string;
  args: string;
  /** The arguments given whole (an object, or the `.done` event's text): they win over the pieces. */
  whole?: string;
  signature?: string;
}

export class ToolCallAssembler {
  private readonly calls: Building[] = [];

  get size(): number {
    return this.calls.length;
  }

  /**
   * A piece of the call `key` (an index, an item id), its first piece starting it. `unique`: the
   * key names one call for good (a Responses item id), so nothing in a piece starts another.
   */
  piece(key: string, piece: Piece, unique = false): void {
    let call = this.find(key);
    // A new id under a key in use is a new call (gateways that number every parallel call 0);
    // so is a name coming after a call whose arguments are already whole JSON (the same, without ids).
    if (!unique && call !== undefined && nonEmpty(piece.id) && call.id !== '' && piece.id !== call.id) call = undefined;
    else if (!unique && call !== undefined && nonEmpty(piece.name) && call.name !== '' && nonEmpty(piece.arguments) && wholeJson(call.args)) call = undefined;
    if (call === undefined) {
      call = { key, id: '', name: '', args: '' };
      this.calls.push(call);
    }
    if (nonEmpty(piece.id)) call.id = piece.id;
    // Some gateways repeat the name in every piece: the first one stands.
    if (nonEmpty(piece.name) && call.name === '') call.name = piece.name;
    if (typeof piece.arguments === 'string') call.args += piece.arguments;
    if (nonEmpty(piece.signature)) call.signature = piece.signature;
  }

  /** The call's arguments, whole: a JSON text, or an object (Anthropic's `input`, Gemini's `args`). */
  whole(key: string, args: unknown): void {
    const call = this.find(key);
    if (call === undefined || args === undefined || args === null) return;
    if (typeof args === 'string') {
      if (args !== '') call.whole = args;
      return;
    }
    // An empty object at a block's start is a placeholder for the pieces that follow.
    if (typeof args === 'object' && Object.keys(args).length === 0) return;
    call.whole = JSON.stringify(args);
  }

  /** The calls, whole, in the order they began: a call without a name is dropped, one without an id gets one. */
  drain(): ToolCall[] {
    const out: ToolCall[] = [];
    for (const [i, call] of this.calls.entries()) {
      if (call.name === '') continue;
      const args = call.whole ?? call.args;
      out.push({ id: call.id === '' ? `call_${i + 1}` : call.id, name: call.name, arguments: args.trim() === '' ? '{}' : args, ...(call.signature === undefined ? {} : { signature: call.signature }) });
    }
    this.calls.length = 0;
    return out;
  }

  private find(key: string): Building | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) if (this.calls[i]!.key === key) return this.calls[i];
    return undefined;
  }
}

function wholeJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function nonEmpty(value: string | null | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

/** A call's arguments as an object (what Anthropic and Gemini take back): `{}` when they are not a JSON object. */
export function argumentsObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : {};
  } catch {
    return {};
  }
}

/**
 * A reply's tool calls go wherever the reply goes: a history file (exported, imported back the
 * same), its Markdown (each call named, its arguments and result fenced), and sync's changes;
 * no token or key is in any of them (a call keeps the server's address, never its token).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from '@/lib/conversations/records';
import { ChangeSchema } from '@/lib/sync/changes';
import { conversationMarkdown, exportHistory, parseHistory } from '@/lib/transfer/history-file';
import { replyMessages } from '@/lib/tools/history';
import type { ToolCallRecord } from '@/lib/tools/types';

const calls: ToolCallRecord[] = [
  { id: 'call_1', name: 'notes__add', tool: 'add', source: 'srv', address: 'http://127.0.0.1:9/mcp', server: 'notes', arguments: '{"a":2,"b":3}', status: 'done', result: '2 + 3 = 5', step: 1, at: 9 },
  { id: 'call_2', name: 'notes__delete_note', tool: 'delete_note', source: 'srv', address: 'http://127.0.0.1:9/mcp', server: 'notes', arguments: '{"id":"n1"}', status: 'denied', step: 1, at: 9 },
  { id: 'call_3', name: 'web_search', tool: 'web_search', source: 'builtin', arguments: '{"query":"```x"}', status: 'done', result: 'r ``` r', sources: [{ title: 'A', url: 'https://a.example' }], step: 2, at: 19 },
];
const conversation: Conversation = { id: 'c1', title: 'Sums', createdAt: 1, updatedAt: 2, profileId: 'p1', model: 'm', surface: 'chat', leafId: 'm2' };
const question: Message = { id: 'm1', conversationId: 'c1', seq: 0, role: 'user', parentId: null, text: 'Add them', reasoning: '', status: 'complete', createdAt: 1 };
const reply: Message = { id: 'm2', conversationId: 'c1', seq: 1, role: 'assistant', parentId: 'm1', text: 'Checking.Searching.It is 5.', reasoning: '', status: 'complete', createdAt: 2, toolCalls: calls };

describe('tool calls are carried', () => {
  it('in a history file, and imported back the same', () => {
    const file = exportHistory([{ conversation, messages: [question, reply] }], { includeProfiles: false, profiles: [] });
    const parsed = parseHistory(file, { profileId: 'p1' });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.conversations[0]!.messages.find((m) => m.id === 'm2')!.toolCalls).toEqual(calls);
  });

  it('in the Markdown: each call named with its state, arguments and result fenced', () => {
    const md = conversationMarkdown(conversation, [question, reply], { user: 'User', assistant: 'Assistant', image: '[{alt}]', tool: 'Tool call: {tool} ({status})', toolResult: 'Result', toolStatus: { waiting: 'Waiting', running: 'Running', done: 'Done', failed: 'Failed', denied: 'Denied', stopped: 'Stopped' } });
    expect(md).toContain('**Tool call: notes: add (Done)**\n\n```json\n{"a":2,"b":3}\n```\n\nResult:\n\n```text\n2 + 3 = 5\n```');
    expect(md).toContain('**Tool call: notes: delete_note (Denied)**');
    // A fence inside the arguments or the result cannot close the quote.
    expect(md).toContain('````json\n{"query":"```x"}\n````');
    expect(md).toContain('````text\nr ``` r\n````');
  });

  it('in sync\'s changes', () => {
    const change = ChangeSchema.parse({ type: 'message', stamp: '0000000000001-0000-dev', message: reply });
    expect(change.type === 'message' && change.message.toolCalls).toEqual(calls);
  });

  it('back to the model as its steps: each step\'s text and calls, then their results; the answer after', () => {
    const messages = replyMessages(reply.text, reply.toolCalls);
    expect(messages.map((m) => (m.role === 'tool' ? `tool ${m.toolCallId} ${m.isError === true ? 'error' : 'ok'}` : `${m.role} ${JSON.stringify(m.content)} ${(m.toolCalls ?? []).map((c) => c.id).join(',')}`))).toEqual([
      'assistant "Checking." call_1,call_2',
      'tool call_1 ok',
      'tool call_2 error',
      'assistant "Searching." call_3',
      'tool call_3 ok',
      'assistant "It is 5." ',
    ]);
  });
});

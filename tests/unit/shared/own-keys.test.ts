/**
 * Every table looked up by text from outside (a gateway's codes and words, a file's ids) answers
 * only what it holds: the names every object has through Object.prototype find nothing there.
 * A table added later gets a row in TABLES.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { GATEWAY_ERROR_KINDS, GatewayError, parseModelList, priceOf, type ChatRequest, type GatewayErrorKind } from '@/lib/gateway';
import { parseNewApiPricing, parseOpenRouterPricing } from '@/lib/gateway/billing-answers';
import { streamErrorFrom } from '@/lib/gateway/classify';
import { StoredErrorSchema, storedError } from '@/lib/conversations/records';
import { ConversationStore } from '@/lib/conversations/store';
import { SearchService } from '@/lib/search/search-service';
import { runImport } from '@/lib/transfer/run-import';
import { BASE, JSON_TYPE, clientFor, lastOf, replay, streamOf } from '../gateway/recordings';

/** Names every plain object answers to. */
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty'] as const;

/** An object with `key` as its own property, even `__proto__` (as JSON.parse makes it). */
const own = (key: string, value: unknown): Record<string, unknown> => Object.fromEntries([[key, value]]);

/** A GatewayError is sane: a kind of the closed list, and it can be saved and read back. */
function expectSane(error: GatewayError): void {
  expect(GATEWAY_ERROR_KINDS).toContain(error.kind);
  const stored = storedError(error);
  expect(StoredErrorSchema.parse(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
}

async function testConnectionError(status: number, error: Record<string, unknown>): Promise<GatewayError> {
  try {
    await clientFor(replay({ status, headers: JSON_TYPE, chunks: [JSON.stringify({ error: { message: 'refused', ...error } })] })).listModels();
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(GatewayError);
    return thrown as GatewayError;
  }
  throw new Error('expected listModels to throw');
}

const claude: ChatRequest = { model: 'claude-test', api: 'anthropic', messages: [{ role: 'user', content: 'hello' }] };
const ev = (type: string, fields: Record<string, unknown> = {}): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;

/** A ChatGPT export in which `key` is a node's id, a child and a parent, and a child and a parent that are missing. */
function chatGptExport(key: string): string {
  const message = (role: string, text: string) => ({ author: { role }, create_time: 1_700_000_000, content: { content_type: 'text', parts: [text] } });
  const present = {
    id: 'present', title: 'Present', create_time: 1_700_000_000, current_node: 'reply',
    mapping: {
      root: { id: 'root', parent: null, children: [key] },
      ...own(key, { id: key, parent: 'root', children: ['reply'], message: message('user', 'Hi') }),
      reply: { id: 'reply', parent: key, children: [], message: message('assistant', 'Hello') },
    },
  };
  const missing = {
    id: 'missing', title: 'Missing', create_time: 1_700_000_000, current_node: 'answer',
    mapping: {
      root: { id: 'root', parent: null, children: ['question', key] },
      question: { id: 'question', parent: 'root', children: [key], message: message('user', 'Q') },
      answer: { id: 'answer', parent: key, children: [], message: message('assistant', 'A') },
    },
  };
  return JSON.stringify([present, missing]);
}

let databases = 0;

/** Each table keyed by outside text, and what feeding it one of PROTOTYPE_NAMES must give. */
const TABLES: { table: string; check(key: string): void | Promise<void> }[] = [
  {
    table: 'gateway error codes (CODE_KINDS): the status decides',
    async check(key) {
      const error = await testConnectionError(401, { code: key });
      expect(error.kind).toBe('invalid_key');
      expectSane(error);
    },
  },
  {
    table: 'gateway error types (TYPE_KINDS): the status decides',
    async check(key) {
      const error = await testConnectionError(429, { type: key });
      expect(error.kind).toBe('rate_limited');
      expectSane(error);
    },
  },
  {
    table: 'an error inside a stream (no status): an upstream failure',
    check(key) {
      const error = streamErrorFrom({ code: key, type: key, message: 'failed' }, { url: `${BASE}/chat/completions` });
      expect(error.kind).toBe('server');
      expectSane(error);
    },
  },
  {
    table: 'GatewayError kinds: only the closed list',
    check(key) {
      const error = new GatewayError({ kind: key as GatewayErrorKind, url: `${BASE}/models` });
      expect(error.kind).toBe('bad_response');
      expectSane(error);
    },
  },
  {
    table: 'catalogue endpoint types (ENDPOINT_TYPE_API)',
    check(key) {
      const parsed = parseModelList({ data: [{ id: 'both', supported_endpoint_types: [key, 'anthropic'] }, { id: 'only', supported_endpoint_types: [key] }] });
      const [both, only] = parsed?.models ?? [];
      expect(both).toMatchObject({ apis: ['anthropic'], preferredApi: 'anthropic' });
      expect(only?.apis).toBeUndefined();
      expect(only?.preferredApi).toBeUndefined();
    },
  },
  {
    table: 'Anthropic stop reasons (STOP_REASONS): kept as sent',
    async check(key) {
      const events = await streamOf({
        chunks: [
          ev('message_start', { message: { id: 'm', type: 'message', role: 'assistant', content: [], model: 'claude-test', stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } }),
          ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
          ev('message_delta', { delta: { stop_reason: key, stop_sequence: null }, usage: { output_tokens: 2 } }),
          ev('message_stop'),
        ],
      }, claude);
      expect(lastOf(events)).toEqual({ type: 'done', finishReason: key });
    },
  },
  {
    table: "saved errors' legacy link labels (LEGACY_LINK_LABELS)",
    check(key) {
      const saved = JSON.parse(JSON.stringify({ kind: 'server', url: `${BASE}/chat/completions`, message: 'old words', remedy: { text: 'old', links: [{ label: key, url: 'https://elsewhere.example' }, { label: 'Keys page', url: 'https://gw.example.com/keys' }] } }));
      expect(StoredErrorSchema.parse(saved).links).toEqual([{ id: 'keys', url: 'https://gw.example.com/keys' }]);
    },
  },
  {
    table: "ChatGPT export node ids (mapping): a node, a child, a parent",
    async check(key) {
      const store = new ConversationStore(`own-keys-${databases++}`);
      const result = await runImport(chatGptExport(key), store, { profileId: 'p1' });
      expect(result).toMatchObject({ ok: true, written: 2, skipped: [] });
      // `__proto__` is a node like any other: the question, its answer below it.
      const present = await store.messages('chatgpt-present');
      expect(present.map((m) => m.text)).toEqual(['Hi', 'Hello']);
      expect(present[1]?.parentId).toBe(present[0]?.id);
      expect((await store.getConversation('chatgpt-present'))?.leafId).toBe(present[1]?.id);
      // A child that is not in the file is simply absent; a node whose parent is not there starts a branch.
      const missing = await store.messages('chatgpt-missing');
      expect(missing.map((m) => m.text).sort()).toEqual(['A', 'Q']);
      expect(missing.map((m) => m.parentId)).toEqual([null, null]);
    },
  },
  {
    table: 'price lists: model ids and group names (new-api, OpenRouter)',
    check(key) {
      const newApi = parseNewApiPricing({ data: [{ model_name: key, model_ratio: 1, completion_ratio: 2, enable_groups: [key, 'default'] }], group_ratio: { default: 1 } });
      expect(priceOf(newApi, key)).toEqual({ input: 2, output: 4, currency: 'USD' });
      const openRouter = parseOpenRouterPricing({ data: [{ id: key, pricing: { prompt: '0.000001', completion: '0.000002' } }] });
      expect(priceOf(openRouter, key)).toEqual({ input: 1, output: 2, currency: 'USD' });
      // A model the list does not price has no price, whatever its name.
      expect(priceOf(parseNewApiPricing({ data: [{ model_name: 'other', model_ratio: 1 }] }), key)).toBeUndefined();
    },
  },
  {
    table: 'search snippets by conversation id (imported files choose the ids)',
    async check(key) {
      const store = new ConversationStore(`own-keys-${databases++}`);
      const conversation = { id: key, title: 'Fruit', createdAt: 1, updatedAt: 1, profileId: 'p1', model: 'm', surface: 'chat' } as const;
      await store.importConversations([{ conversation, messages: [{ id: `${key}-0`, conversationId: key, seq: 0, role: 'user', parentId: null, text: 'an apple a day', reasoning: '', status: 'complete', createdAt: 1 }] }]);
      const search = new SearchService(store, { saveDelayMs: 0 });
      await search.open();
      const found = await search.whereFound('apple', [key]);
      expect(Object.hasOwn(found, key)).toBe(true);
      expect(found[key]?.messageId).toBe(`${key}-0`);
    },
  },
];

describe('tables keyed by outside text answer only what they hold', () => {
  describe.each(TABLES)('$table', ({ check }) => {
    it.each(PROTOTYPE_NAMES)('%s', async (key) => {
      await check(key);
    });
  });
});

/**
 * ChatGPT's data export (`conversations.json`): an array of conversations, each a tree of
 * message nodes (`mapping`: id → { message, parent, children }) with `current_node` the end of
 * the branch last shown. Flattened here along that branch; the other branches are kept as
 * versions (our messages form the same tree: see branches.ts). System, tool and hidden nodes
 * are left out, their children joined to the nearest message kept.
 */
import * as z from 'zod/mini';
import type { Conversation, Message } from '../conversations/records';
import type { ImportedConversation, Skipped } from './history-file';

const NodeSchema = z.object({
  id: z.optional(z.string()),
  parent: z.optional(z.nullable(z.string())),
  children: z._default(z.array(z.string()), []),
  message: z.optional(z.nullable(z.object({
    id: z.optional(z.string()),
    author: z.object({ role: z.string() }),
    create_time: z.optional(z.nullable(z.number())),
    content: z.optional(z.nullable(z.object({
      content_type: z.optional(z.string()),
      parts: z.optional(z.array(z.unknown())),
      text: z.optional(z.string()),
    }))),
    metadata: z.optional(z.nullable(z.object({
      model_slug: z.optional(z.nullable(z.string())),
      is_visually_hidden_from_conversation: z.optional(z.nullable(z.boolean())),
    }))),
  }))),
});

/**
 * The nodes by id, as a Map: the ids are the file's, so a node or child named `constructor` or
 * `__proto__` must be a node like any other (or simply absent), never a property of every
 * object. A zod record would also drop a `__proto__` node.
 */
const NodesSchema = z.pipe(
  z.transform((value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? new Map(Object.entries(value)) : value)),
  z.map(z.string(), NodeSchema),
);

const ConversationSchema = z.object({
  id: z.optional(z.string()),
  conversation_id: z.optional(z.string()),
  title: z.optional(z.nullable(z.string())),
  create_time: z.optional(z.nullable(z.number())),
  update_time: z.optional(z.nullable(z.number())),
  current_node: z.optional(z.nullable(z.string())),
  mapping: NodesSchema,
});

export function looksLikeChatGpt(raw: unknown): raw is unknown[] {
  return Array.isArray(raw) && raw.length > 0 && typeof raw[0] === 'object' && raw[0] !== null && 'mapping' in raw[0];
}

function textOf(content: { parts?: unknown[]; text?: string } | null | undefined): string {
  if (content === undefined || content === null) return '';
  if (typeof content.text === 'string') return content.text;
  return (content.parts ?? []).filter((p): p is string => typeof p === 'string').join('\n').trim();
}

export function fromChatGpt(raw: unknown[], profileId: string): { conversations: ImportedConversation[]; skipped: Skipped[] } {
  const conversations: ImportedConversation[] = [];
  const skipped: Skipped[] = [];
  raw.forEach((item, i) => {
    const parsed = ConversationSchema.safeParse(item);
    const name = typeof (item as { title?: unknown }).title === 'string' ? (item as { title: string }).title : `#${i + 1}`;
    if (!parsed.success) {
      skipped.push({ conversation: name, reason: 'conversation_damaged', path: parsed.error.issues[0]?.path.join('.') ?? '' });
      return;
    }
    const c = parsed.data;
    const sourceId = c.conversation_id ?? c.id ?? `${i}-${c.create_time ?? 0}`;
    const id = `chatgpt-${sourceId}`;
    const created = Math.round((c.create_time ?? 0) * 1000);
    const nodes = c.mapping;
    // The nearest kept node at or above each node, in preorder from the roots.
    const kept = new Map<string, string | null>();
    const messages: Message[] = [];
    const roots = [...nodes].filter(([, n]) => n.parent === undefined || n.parent === null || !nodes.has(n.parent)).map(([key]) => key);
    const stack: { key: string; above: string | null }[] = roots.reverse().map((key) => ({ key, above: null }));
    const visited = new Set<string>();
    while (stack.length > 0) {
      const { key, above } = stack.pop()!;
      if (visited.has(key)) continue;
      visited.add(key);
      const node = nodes.get(key)!;
      const m = node.message;
      const role = m?.author.role;
      const text = m === undefined || m === null ? '' : textOf(m.content);
      let here = above;
      if ((role === 'user' || role === 'assistant') && text !== '' && m?.metadata?.is_visually_hidden_from_conversation !== true) {
        const message: Message = {
          id: `${id}-${key}`, conversationId: id, seq: messages.length, role, parentId: above, text, reasoning: '', status: 'complete',
          createdAt: Math.round((m?.create_time ?? c.create_time ?? 0) * 1000),
        };
        const model = m?.metadata?.model_slug;
        if (role === 'assistant' && typeof model === 'string' && model !== '') message.model = model;
        messages.push(message);
        here = message.id;
      }
      kept.set(key, here);
      for (const child of [...node.children].reverse()) if (nodes.has(child)) stack.push({ key: child, above: here });
    }
    if (messages.length === 0) {
      skipped.push({ conversation: name, reason: 'no_messages' });
      return;
    }
    const leaf = c.current_node === undefined || c.current_node === null ? undefined : kept.get(c.current_node) ?? undefined;
    const lastModel = [...messages].reverse().find((m) => m.model !== undefined)?.model ?? 'chatgpt';
    const conversation: Conversation = {
      id, title: c.title ?? name, createdAt: created, updatedAt: Math.round((c.update_time ?? c.create_time ?? 0) * 1000),
      profileId, model: lastModel, surface: 'chat',
    };
    if (leaf !== undefined) conversation.leafId = leaf;
    conversations.push({ conversation, messages });
  });
  return { conversations, skipped };
}

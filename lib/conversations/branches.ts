/**
 * Versions, never destruction: a conversation is a tree of messages. Regenerating a reply adds
 * a sibling reply under the same question; editing a question adds a sibling question (with its
 * own reply) under the same parent. The conversation shows one branch: from the root down to the
 * message it has selected (`Conversation.leafId`), then on through the newest child at each step.
 *
 * Messages saved before branching have no `parentId`: their parent is the message before them
 * (by `seq`). Replies that were asked again before branching kept their earlier answers inline
 * (`versions`): those are shown as sibling versions under synthetic ids (`<id>~v<n>`).
 */
import type { Message } from './records';

/** The id of an earlier inline version of a legacy reply. */
export function legacyVersionId(messageId: string, index: number): string {
  return `${messageId}~v${index}`;
}

export interface Tree {
  /** Every message by id, the legacy inline versions among them. */
  byId: ReadonlyMap<string, Message>;
  /** Each message's parent id (null at the root). */
  parentOf: ReadonlyMap<string, string | null>;
  /** Children of each parent id ('' for the root), oldest first. */
  childrenOf: ReadonlyMap<string, readonly Message[]>;
}

const ROOT = '';

function byAge(a: Message, b: Message): number {
  return a.seq - b.seq || a.createdAt - b.createdAt;
}

/** The conversation's messages as a tree (any order in, each parent's children oldest first). */
export function buildTree(messages: readonly Message[]): Tree {
  const real = [...messages].sort(byAge);
  const byId = new Map<string, Message>();
  const parentOf = new Map<string, string | null>();
  const children = new Map<string, Message[]>();
  const add = (message: Message, parent: string | null): void => {
    byId.set(message.id, message);
    parentOf.set(message.id, parent);
    const key = parent ?? ROOT;
    const list = children.get(key);
    if (list === undefined) children.set(key, [message]);
    else list.push(message);
  };
  let previous: string | null = null;
  for (const message of real) {
    const parent = message.parentId === undefined ? previous : message.parentId;
    // Earlier inline versions come first among the siblings, oldest first.
    message.versions?.forEach((version, index) => {
      add({ ...version, id: legacyVersionId(message.id, index), conversationId: message.conversationId, seq: message.seq, role: message.role }, parent);
    });
    // The same object when there is nothing to strip: views memoised on it stay as they are.
    if (message.versions === undefined) add(message, parent);
    else {
      const { versions: _versions, ...plain } = message;
      add(plain, parent);
    }
    previous = message.id;
  }
  // A parent that is missing (a damaged record, a partial import) makes its children roots.
  for (const [id, parent] of parentOf) {
    if (parent !== null && !byId.has(parent)) {
      parentOf.set(id, null);
      const orphans = children.get(parent) ?? [];
      children.delete(parent);
      children.set(ROOT, [...(children.get(ROOT) ?? []), ...orphans].sort(byAge));
    }
  }
  return { byId, parentOf, childrenOf: children };
}

function newestChild(tree: Tree, id: string | null): Message | undefined {
  return tree.childrenOf.get(id ?? ROOT)?.at(-1);
}

/**
 * The branch shown: root → `selectedId` → on through the newest child at each step. Without a
 * selection (or one no longer there), the branch that ends at the newest message.
 */
export function currentBranch(tree: Tree, selectedId?: string): Message[] {
  let selected = selectedId === undefined ? undefined : tree.byId.get(selectedId);
  if (selected === undefined) {
    let newest: Message | undefined;
    for (const m of tree.byId.values()) if (newest === undefined || byAge(newest, m) < 0) newest = m;
    selected = newest;
  }
  if (selected === undefined) return [];
  const up: Message[] = [];
  const seen = new Set<string>();
  for (let at: Message | undefined = selected; at !== undefined && !seen.has(at.id); ) {
    seen.add(at.id);
    up.push(at);
    const parent = tree.parentOf.get(at.id);
    at = parent === null || parent === undefined ? undefined : tree.byId.get(parent);
  }
  const branch = up.reverse();
  for (let next = newestChild(tree, selected.id); next !== undefined && !seen.has(next.id); next = newestChild(tree, next.id)) {
    seen.add(next.id);
    branch.push(next);
  }
  return branch;
}

export interface VersionInfo {
  /** 1-based position among its versions. */
  index: number;
  count: number;
  previous?: string;
  next?: string;
}

/** Where a message stands among its versions (its siblings of the same role). */
export function versionInfo(tree: Tree, id: string): VersionInfo {
  const message = tree.byId.get(id);
  const parent = tree.parentOf.get(id) ?? null;
  const siblings = (tree.childrenOf.get(parent ?? ROOT) ?? []).filter((m) => m.role === message?.role);
  const at = siblings.findIndex((m) => m.id === id);
  const info: VersionInfo = { index: at + 1, count: siblings.length };
  if (at > 0) info.previous = siblings[at - 1]!.id;
  if (at >= 0 && at < siblings.length - 1) info.next = siblings[at + 1]!.id;
  return info;
}

/** The real parent id of a message (null at the root), as saved for a new sibling of it. */
export function parentIdOf(tree: Tree, id: string): string | null {
  return tree.parentOf.get(id) ?? null;
}

/** A message and everything under it. */
export function subtree(tree: Tree, id: string): Message[] {
  const out: Message[] = [];
  const stack = [id];
  while (stack.length > 0) {
    const at = stack.pop()!;
    const message = tree.byId.get(at);
    if (message === undefined) continue;
    out.push(message);
    for (const child of tree.childrenOf.get(at) ?? []) stack.push(child.id);
  }
  return out;
}

/** Whether the id names a legacy inline version (not a record of its own). */
export function isLegacyVersion(id: string): boolean {
  return /~v\d+$/.test(id);
}

/** The record a legacy inline version lives in. */
export function recordIdOf(id: string): string {
  return id.replace(/~v\d+$/, '');
}

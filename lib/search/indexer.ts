/**
 * Keeps the search index current with the conversation database and saved across restarts:
 * opened from its saved copy, then only conversations changed since it was saved are indexed
 * again. A conversation changes (`updatedAt`) when a turn starts and when its reply ends, not on
 * the partial saves while a reply streams: a streaming conversation waits until it has finished.
 */
import type { Conversation } from '../conversations/records';
import type { ConversationStore } from '../conversations/store';
import { ConversationIndex, type SearchHit } from './conversation-index';

/** Conversations indexed between two pauses (a long task is never this long). */
const BATCH = 100;

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export function textsOf(messages: readonly { text: string; versions?: readonly { text: string }[] | undefined }[]): string[] {
  const texts: string[] = [];
  for (const m of messages) {
    if (m.text !== '') texts.push(m.text);
    for (const v of m.versions ?? []) if (v.text !== '') texts.push(v.text);
  }
  return texts;
}

/** How far a catch-up is: `indexed` of the `of` conversations it found changed. */
export interface IndexProgress {
  indexed: number;
  of: number;
}

export class SearchIndexer {
  private index = new ConversationIndex();
  private watermark = 0;
  private opened: Promise<void> | undefined;
  private running: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(private readonly store: ConversationStore, private readonly options: { saveDelayMs?: number; onProgress?: (p: IndexProgress) => void } = {}) {}

  /** Opens the saved index (or builds one) and catches up with the database. */
  open(): Promise<void> {
    this.opened ??= (async () => {
      // Opened first: a blocked database is refused (search finds nothing) rather than awaited for ever.
      await this.store.open();
      const saved = await this.store.loadSearchIndex();
      const loaded = saved === undefined ? undefined : ConversationIndex.load(saved.index);
      if (loaded !== undefined && saved !== undefined) {
        this.index = loaded;
        this.watermark = saved.watermark;
      }
      await this.catchUp();
    })();
    // A database refused now (blocked, say) may open on the next search: the refusal is not kept.
    this.opened.catch(() => {
      this.opened = undefined;
    });
    return this.opened;
  }

  /** Indexes what changed since the last time; conversations deleted meanwhile leave the index. */
  catchUp(): Promise<void> {
    this.running = this.running.then(() => this.update(), () => this.update());
    return this.running;
  }

  async search(query: string, limit?: number): Promise<SearchHit[]> {
    await this.open();
    return this.index.search(query, limit);
  }

  /** The `updatedAt` of a conversation as indexed (undefined when it is not). */
  updatedAtOf(id: string): number | undefined {
    return this.index.updatedAtOf(id);
  }

  /** What is indexed (tests, the bench). */
  get size(): number {
    return this.index.size;
  }

  private async update(): Promise<void> {
    const ids = new Set(await this.store.conversationIds());
    const changed = (await this.store.conversationsUpdatedSince(this.watermark)).sort((a, b) => a.updatedAt - b.updatedAt);
    // Imported conversations keep their own (older) times: they are found by being absent.
    const seen = new Set(changed.map((c) => c.id));
    const absent = [...ids].filter((id) => !seen.has(id) && !this.index.has(id));
    const imported = absent.length === 0 ? [] : await this.store.getConversations(absent);
    const ready: Conversation[] = [];
    let watermark = this.watermark;
    let blocked = false;
    for (const c of changed) {
      // A reply still streaming is indexed once it ends (its conversation changes again then).
      if (c.replyStatus === 'streaming') blocked = true;
      else if (this.index.updatedAtOf(c.id) !== c.updatedAt) ready.push(c);
      if (!blocked) watermark = c.updatedAt;
    }
    for (const c of imported) if (c.replyStatus !== 'streaming') ready.push(c);
    for (let i = 0; i < ready.length; i += BATCH) {
      const batch = ready.slice(i, i + BATCH);
      const messages = await this.store.messageTexts(batch.map((c) => c.id));
      for (const c of batch) this.index.put({ id: c.id, updatedAt: c.updatedAt, title: c.title, texts: textsOf(messages.get(c.id) ?? []) });
      this.dirty = true;
      this.options.onProgress?.({ indexed: Math.min(ready.length, i + BATCH), of: ready.length });
      if (i + BATCH < ready.length) await pause();
    }
    for (const id of [...this.index.ids()]) {
      if (!ids.has(id)) {
        this.index.remove(id);
        this.dirty = true;
      }
    }
    this.watermark = watermark;
    this.index.prepare();
    if (this.dirty) this.scheduleSave();
  }

  private saveTimer: ReturnType<typeof setTimeout> | undefined;

  private scheduleSave(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, this.options.saveDelayMs ?? 2_000);
  }

  /** Saves the index now (a page about to close; tests). */
  async save(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    await this.store.saveSearchIndex(this.index.save(), this.watermark);
  }
}

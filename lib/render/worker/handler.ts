/**
 * What the render worker does with each message (lib/render/worker/protocol.ts): blocks of
 * markdown → sanitised HTML, with the words the page last sent. A finished message's blocks are
 * looked up in, and saved to, the rendering cache (lib/render/cache.ts), so opening it again
 * renders nothing. Runs in the worker, and in the page itself where no worker can start (tests
 * under jsdom, a browser that refuses the worker).
 */
import { blocksOf, type RenderCache, type Rendering } from '../cache';
import { BARE_LABELS, type RenderLabels } from '../labels';
import { prepareMarkdown, renderMarkdownBlock } from '../markdown';
import type { FromWorker, RenderedBlock, SavedMessage, ToWorker } from './protocol';

/** The rendering cache as the service uses it (one that cannot read ahead simply does not). */
type Cache = Pick<RenderCache, 'get' | 'put'> & Partial<Pick<RenderCache, 'newest'>>;

/**
 * How many of a conversation's newest renderings are read ahead of its opening: more than the
 * replies of a first screen (`renderRepliesAhead` asks for about 3,000 characters of them).
 */
export const PREFETCH_ROWS = 8;

export interface RenderService {
  /** The answer to `message` (none to words and read-aheads). */
  handle(message: ToWorker): Promise<FromWorker | undefined>;
}

function labelsFrom(raw: Record<string, string>): RenderLabels {
  // Whatever the page did not send keeps the bare facts: a button is never left unnamed.
  return { ...BARE_LABELS, ...raw };
}

export function renderBlock(source: string, labels: RenderLabels): RenderedBlock {
  const html = renderMarkdownBlock(source, labels);
  return { html, math: html.includes('class="math '), diagram: html.includes('data-diagram') };
}

/** About this many characters of finished blocks' renderings are kept in the worker (oldest go first). */
const RECENT_CHARS = 4_000_000;

/**
 * Finished blocks rendered lately, by source, with the words they were rendered with: a reply
 * that streamed here is then saved whole (lib/render/client.ts) without rendering it again.
 */
class Recent {
  private readonly blocks = new Map<string, RenderedBlock>();
  private chars = 0;
  private key = '';

  get(key: string, source: string): RenderedBlock | undefined {
    return key === this.key ? this.blocks.get(source) : undefined;
  }

  set(key: string, source: string, block: RenderedBlock): void {
    if (key !== this.key) {
      this.blocks.clear();
      this.chars = 0;
      this.key = key;
    }
    if (this.blocks.has(source)) return;
    this.blocks.set(source, block);
    this.chars += source.length + block.html.length;
    for (const [old, kept] of this.blocks) {
      if (this.chars <= RECENT_CHARS) break;
      this.blocks.delete(old);
      this.chars -= old.length + kept.html.length;
    }
  }
}

export function createRenderService(cache?: Cache): RenderService {
  let labels = BARE_LABELS;
  let labelsKey = '';
  const recent = new Recent();
  // The cache is a convenience: once it fails (refused, full disk), rendering goes on without it.
  let cacheUsable = cache !== undefined;
  const cached = async <T>(act: (cache: Cache) => Promise<T>): Promise<T | undefined> => {
    if (!cacheUsable || cache === undefined) return undefined;
    try {
      return await act(cache);
    } catch {
      cacheUsable = false;
      return undefined;
    }
  };
  const saving = new Map<string, Promise<unknown>>();
  // The newest renderings of the conversation about to open (one at a time), as read.
  let prefetched: { conversationId: string; rows: Promise<Map<string, Rendering>> } | undefined;
  const save = (saved: SavedMessage, wordsKey: string, sources: readonly string[], blocks: readonly RenderedBlock[], startedAt: number): void => {
    const written = cached((c) => c.put(saved, wordsKey, sources, blocks, startedAt));
    saving.set(saved.id, written);
    void written.then(() => {
      if (saving.get(saved.id) === written) saving.delete(saved.id);
    });
  };
  return {
    async handle(message) {
      if (message.type === 'labels') {
        labels = labelsFrom(message.labels);
        labelsKey = message.key;
        return undefined;
      }
      if (message.type === 'prefetch') {
        const rows = cached((c) => c.newest?.(message.conversationId, PREFETCH_ROWS) ?? Promise.resolve([]))
          .then((found) => new Map((found ?? []).map((row) => [row.id, row])));
        prefetched = { conversationId: message.conversationId, rows };
        await rows;
        return undefined;
      }
      const { id, sources, saved } = message;
      const startedAt = Date.now();
      // The words of the moment it was asked: renders may overlap (see render.worker.ts).
      const [words, wordsKey] = [labels, labelsKey];
      if (saved !== undefined) {
        // Its rendering being saved (just answered): read once saved.
        await saving.get(saved.id);
        // Read ahead, else read now.
        const ahead = prefetched?.conversationId === saved.conversationId ? (await prefetched.rows).get(saved.id) : undefined;
        const blocks = (ahead === undefined ? undefined : blocksOf(ahead, wordsKey, sources)) ?? await cached((c) => c.get(saved.id, wordsKey, sources));
        // As saved: this worker's own output, sanitised as it was made, by this very sanitiser
        // (a row is read back only by a build with the sanitiser that made it: lib/render/cache.ts,
        // `SANITISER`). Sanitising it again as it is read cost an opening about 50 ms (the
        // 200-code-block conversation opened again, median of 12: 186 → 138 ms): a fresh worker's
        // sanitiser is not yet compiled.
        if (blocks !== undefined) return { type: 'rendered', id, blocks, fromCache: true };
      }
      try {
        await prepareMarkdown(sources);
        const blocks = sources.map((source) => {
          const known = recent.get(wordsKey, source);
          if (known !== undefined) return known;
          const block = renderBlock(source, words);
          if (message.growing !== true) recent.set(wordsKey, source, block);
          return block;
        });
        // Saved after it is answered: the page draws it while it is written (a write took 7–21 ms, measured).
        if (saved !== undefined) save(saved, wordsKey, sources, blocks, startedAt);
        return { type: 'rendered', id, blocks, fromCache: false };
      } catch (error) {
        return { type: 'failed', id, code: error instanceof Error ? error.name : 'unknown' };
      }
    },
  };
}

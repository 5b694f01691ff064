/**
 * The page's side of the render worker: which blocks are rendered, which are on their way, and
 * who to tell when they arrive. Finished blocks are kept by source (a block's source never
 * changes once it is final, so its rendering is looked up, never made again); the block still
 * growing has one render on its way at most, and the newest text waits for it, so a worker
 * slower than the stream skips versions instead of falling behind.
 */
import type { RenderLabels } from './labels';
import { FromWorkerSchema, type RenderedBlock, type SavedMessage, type ToWorker } from './worker/protocol';

/** How a client reaches its worker (a Worker, or the same code in the page). */
export interface RenderPort {
  post(message: ToWorker): void;
  listen(onMessage: (data: unknown) => void): void;
}

/** A block the worker could not render: shown as its text. */
export const FAILED: RenderedBlock = Object.freeze({ html: '', math: false, diagram: false });

/**
 * A conversation read ahead this recently is not read ahead again (the click after the press on
 * its row): what was read is still what is saved, or is told apart from it by its source.
 */
const PREFETCH_FRESH_MS = 2_000;

/** About this many characters of finished renderings are kept (the least recently used go first). */
const KEPT_CHARS = 2_000_000;

interface Request {
  sources: string[];
  /** The words it was rendered with. */
  labelsKey: string;
  /** The growing block's slot and place, when the request is its render. */
  slot?: object;
  index?: number;
  done: Set<() => void>;
  /** Called as soon as its answer is here (before the frame that tells `done`). */
  answered?: () => void;
}

interface Slot {
  /** Its newest rendering, of which source, and the block's place in its reply. */
  latest?: GrowingRendering;
  /** The render on its way, if one is. */
  inFlight?: Request;
  /** The text that came while a render was on its way: sent when it returns. */
  queued?: { index: number; source: string; onDone: () => void };
}

export interface GrowingRendering {
  index: number;
  source: string;
  block: RenderedBlock;
}

/** A message's blocks, told apart from an edit of it by their number and length. */
function shapeOf(sources: readonly string[]): string {
  let chars = 0;
  for (const source of sources) chars += source.length;
  return `${sources.length}:${chars}`;
}

export class RenderClient {
  private nextId = 1;
  private readonly requests = new Map<number, Request>();
  /**
   * Finished renderings with the current words, by source, oldest first. Keyed by the source
   * itself: the page passes the same string objects frame after frame, and a string keeps its
   * hash, so looking up every block of a reply on every frame reads none of their characters.
   */
  private readonly kept = new Map<string, RenderedBlock>();
  private keptChars = 0;
  /** Sources on their way, with who waits for them. */
  private readonly onTheirWay = new Map<string, Set<() => void>>();
  private readonly slots = new WeakMap<object, Slot>();
  /**
   * Saved messages sent whole (looked up, or to be saved) with the current words: by id, the
   * number and length of their blocks then (not the text itself, which this would keep alive).
   */
  private readonly wholeAsked = new Map<string, string>();
  private labelsKey = '';
  private labels: RenderLabels | undefined;
  /** The conversation last read ahead, and when. */
  private lastPrefetch: { conversationId: string; at: number } | undefined;

  /** Who to tell once the current batch of answers is in (see `schedule`). */
  private readonly toTell = new Set<() => void>();
  private told = true;

  /**
   * `schedule` runs the telling of answers that arrived: the page does it in the next animation
   * frame's callback, so what the worker sends lands in the same frame as the text that streamed
   * meanwhile (one style, layout and paint a frame, not one for each), and all answers of a frame
   * render in one pass.
   */
  constructor(private readonly port: RenderPort, private readonly schedule: (tell: () => void) => void = (tell) => tell()) {
    port.listen((data) => this.receive(data));
  }

  /** The words rendered buttons carry from now on (sent only when they change). */
  setLabels(labels: RenderLabels): void {
    if (labels === this.labels) return;
    this.labels = labels;
    const key = JSON.stringify(labels);
    if (key === this.labelsKey) return;
    this.labelsKey = key;
    this.kept.clear();
    this.keptChars = 0;
    this.wholeAsked.clear();
    this.port.post({ type: 'labels', key, labels: { ...labels } });
  }

  /**
   * A conversation is about to open: the worker reads its newest saved renderings now, while
   * the page reads its messages, so its first screen's are at hand when asked for.
   */
  prefetch(conversationId: string, now = Date.now()): void {
    // The press on a row and the click that follows both ask: the worker reads once (its reads
    // and the page's read of the messages share the database's one queue).
    const last = this.lastPrefetch;
    if (last !== undefined && last.conversationId === conversationId && now - last.at < PREFETCH_FRESH_MS) return;
    this.lastPrefetch = { conversationId, at: now };
    this.port.post({ type: 'prefetch', conversationId });
  }

  /** A finished block's rendering, if it is here. */
  peek(source: string): RenderedBlock | undefined {
    return this.kept.get(source);
  }

  /** The newest rendering of a growing block's slot (perhaps of an older text of it). */
  latest(slot: object): GrowingRendering | undefined {
    return this.slots.get(slot)?.latest;
  }

  /**
   * Asks for finished blocks not rendered yet; `onDone` is called once when they are. `saved`:
   * they are the whole of a saved message, looked up in and saved to the rendering cache.
   */
  request(sources: readonly string[], onDone: () => void, saved?: SavedMessage): void {
    if (saved !== undefined) {
      // A saved message with blocks not here: looked up in the cache whole, else rendered and
      // saved. Whole even when some of its blocks are here, or on their way for another message
      // (replies that share a paragraph, "Both give the same result."): one lookup then answers
      // it, where rendering the rest apart would highlight again what the cache holds (60 ms
      // for one reply, measured). (Asked again while all of it is on its way, it waits for
      // that, below.)
      if (this.askableWhole(sources)) {
        this.askWhole(sources, saved, onDone);
        return;
      }
      // All of it here (it streamed here): sent whole once, to be saved (the worker has most of
      // it rendered still; what is here is not taken again from the answer, so nothing on screen
      // is set anew).
      if (sources.every((source) => this.kept.has(source)) && !this.askedWhole(sources, saved)) {
        this.askWhole(sources, saved);
        return;
      }
    }
    const missing: string[] = [];
    for (const source of sources) {
      if (this.kept.has(source)) continue;
      const waiting = this.onTheirWay.get(source);
      if (waiting !== undefined) {
        waiting.add(onDone);
        continue;
      }
      this.onTheirWay.set(source, new Set([onDone]));
      missing.push(source);
    }
    if (missing.length === 0) return;
    this.send({ sources: missing, labelsKey: this.labelsKey, done: new Set([onDone]) });
  }

  /**
   * Asks for a saved message as `request` does, ahead of the view that will show it (a
   * conversation just read): resolves as soon as its answer is here, read from the rendering
   * cache or rendered now, so the conversation can be drawn with it, once. Resolves at once when
   * none of it needs asking for (it is here, or on its way for another request).
   */
  ahead(sources: readonly string[], saved: SavedMessage): Promise<void> {
    if (!this.askableWhole(sources)) return Promise.resolve();
    return new Promise((resolve) => this.askWhole(sources, saved, undefined, resolve));
  }

  /** Some of it is neither here nor on its way: a saved message is then looked up whole. */
  private askableWhole(sources: readonly string[]): boolean {
    return sources.some((source) => !this.kept.has(source) && !this.onTheirWay.has(source));
  }

  /** Whether this saved message, as it now reads, was sent whole with the current words. */
  private askedWhole(sources: readonly string[], saved: SavedMessage): boolean {
    return this.wholeAsked.get(saved.id) === shapeOf(sources);
  }

  private askWhole(sources: readonly string[], saved: SavedMessage, onDone?: () => void, answered?: () => void): void {
    for (const source of sources) if (!this.kept.has(source) && !this.onTheirWay.has(source)) this.onTheirWay.set(source, new Set());
    this.wholeAsked.set(saved.id, shapeOf(sources));
    this.send({ sources: [...sources], labelsKey: this.labelsKey, done: new Set(onDone === undefined ? [] : [onDone]), ...(answered === undefined ? {} : { answered }) }, saved);
  }

  /**
   * Asks for the growing block in `slot`, the `index`th of its reply, to be rendered as `source`
   * (or as newer text, if more comes before the worker is free).
   */
  requestGrowing(slot: object, index: number, source: string, onDone: () => void): void {
    let state = this.slots.get(slot);
    if (state === undefined) {
      state = {};
      this.slots.set(slot, state);
    }
    if (state.latest?.source === source && state.latest.index === index) return;
    const inFlight = state.inFlight;
    if (inFlight !== undefined) {
      // The text on its way already (asked for ahead of the frame that draws it, say).
      if (inFlight.index === index && inFlight.sources[0] === source && inFlight.labelsKey === this.labelsKey) {
        inFlight.done.add(onDone);
        state.queued = undefined;
      } else {
        state.queued = { index, source, onDone };
      }
      return;
    }
    state.inFlight = { sources: [source], labelsKey: this.labelsKey, slot, index, done: new Set([onDone]) };
    this.send(state.inFlight);
  }

  private send(request: Request, saved?: SavedMessage): void {
    const id = this.nextId++;
    this.requests.set(id, request);
    this.port.post({ type: 'render', id, sources: request.sources, ...(saved === undefined ? {} : { saved }), ...(request.slot === undefined ? {} : { growing: true }) });
  }

  private receive(data: unknown): void {
    const parsed = FromWorkerSchema.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    const request = this.requests.get(message.id);
    if (request === undefined) return;
    this.requests.delete(message.id);
    const blocks = message.type === 'rendered' ? message.blocks : request.sources.map(() => FAILED);
    const toTell = new Set(request.done);
    if (request.slot !== undefined) {
      const state = this.slots.get(request.slot);
      if (state !== undefined) {
        state.inFlight = undefined;
        state.latest = { index: request.index ?? 0, source: request.sources[0]!, block: blocks[0] ?? FAILED };
        const queued = state.queued;
        state.queued = undefined;
        if (queued !== undefined) this.requestGrowing(request.slot, queued.index, queued.source, queued.onDone);
      }
    } else {
      request.sources.forEach((source, i) => {
        for (const onDone of this.onTheirWay.get(source) ?? []) toTell.add(onDone);
        this.onTheirWay.delete(source);
        // Rendered with words since replaced: those waiting ask again, with the new ones.
        if (request.labelsKey === this.labelsKey) this.keep(source, blocks[i] ?? FAILED);
      });
    }
    for (const onDone of toTell) this.toTell.add(onDone);
    request.answered?.();
    if (!this.told) return;
    this.told = false;
    this.schedule(() => {
      this.told = true;
      const callbacks = [...this.toTell];
      this.toTell.clear();
      for (const onDone of callbacks) onDone();
    });
  }

  /** A finished block the page already has rendered (the growing block's last text, now final). */
  adopt(source: string, block: RenderedBlock): boolean {
    return this.keep(source, block);
  }

  /** Keeps a finished block's rendering; false when one was kept already. */
  private keep(key: string, block: RenderedBlock): boolean {
    if (this.kept.has(key)) return false;
    this.kept.set(key, block);
    this.keptChars += block.html.length + key.length;
    for (const [oldKey, old] of this.kept) {
      if (this.keptChars <= KEPT_CHARS || this.kept.size <= 1) break;
      this.kept.delete(oldKey);
      this.keptChars -= old.html.length + oldKey.length;
    }
    return true;
  }
}

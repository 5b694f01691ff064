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
  private labelsKey = '';
  private labels: RenderLabels | undefined;

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
    this.port.post({ type: 'labels', key, labels: { ...labels } });
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
    // A saved message none of which is here: looked up in the cache whole, else rendered and
    // saved. Whole even when some of its blocks are on their way for another message (replies
    // that end alike, opened together): one lookup then answers it, where rendering the rest
    // apart would have this message wait for that render (highlighting, measured: 60 ms).
    // (Asked again while all of it is on its way, it waits for that, below.)
    if (saved !== undefined && !sources.some((source) => this.kept.has(source)) && sources.some((source) => !this.onTheirWay.has(source))) {
      for (const source of sources) if (!this.onTheirWay.has(source)) this.onTheirWay.set(source, new Set());
      this.send({ sources: [...sources], labelsKey: this.labelsKey, done: new Set([onDone]) }, saved);
      return;
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
    // The cache holds a message whole: one partly rendered here already (it streamed here) is sent
    // whole as well, after what is missing, to be saved (what is here is not taken again from the
    // answer, so nothing on screen is set anew).
    if (saved !== undefined) this.send({ sources: [...sources], labelsKey: this.labelsKey, done: new Set() }, saved);
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

import { memo, useLayoutEffect, useMemo, useReducer, useRef, useState, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { fencedBlock, MarkdownBlockSplitter, ownCopy, type BlockSplit, type TextGrowth } from '@/lib/render/blocks';
import { TextPieces } from '@/lib/render/pieces';
import { folds } from '@/lib/render/fold';
import { FAILED, type GrowingRendering, type RenderClient } from '@/lib/render/client';
import type { RenderLabels } from '@/lib/render/labels';
import type { RenderedBlock, SavedMessage } from '@/lib/render/worker/protocol';
import { currentWords } from '@/components/i18n/words';
import { labelsFor } from '@/components/i18n/markdown-labels';
import { useWords } from '@/components/i18n/words';
import { renderClient } from './render/render-client';
import { BlockView } from './render/block-view';
import { GroupView } from './render/group-view';
import { useBlockActions } from './render/block-actions';
import { handlePreviewClick } from './render/preview';

const WARM_UP = '# A *b* **c** `d` [e](https://example.com) $x^2$\n\n- f\n\n> g\n\n| h |\n| - |\n| i |\n\n```ts\nconst x = 1;\n```';

/**
 * Starts the page's render worker while the page is idle, and has it render one small block,
 * so that a reply's first words do not wait for it to load and set itself up.
 */
export function startRenderer(): void {
  const client = renderClient();
  client.setLabels(labelsFor(currentWords()));
  client.request([WARM_UP], () => undefined);
}

/**
 * Asks for a finished reply's rendering ahead of its view (a conversation just read, before the
 * page draws it): the blocks its `Markdown` will ask for, looked up in the rendering cache as one
 * saved message, or rendered and saved. Resolves once its rendering is in the page (a view drawn
 * then draws it rendered at once; one drawn before waits for this answer instead of asking
 * again). A reply with a block too large for the worker is left to its view.
 */
export function renderFinishedAhead(text: string, saved: SavedMessage): Promise<void> {
  const split = new MarkdownBlockSplitter().split(text);
  const sources = split.open.trim() === '' ? [...split.closed] : [...split.closed, split.open];
  if (sources.length === 0 || sources.some((source) => source.length > LARGE_BLOCK_CHARS)) return Promise.resolve();
  const client = renderClient();
  client.setLabels(labelsFor(currentWords()));
  return client.ahead(sources, saved);
}

/**
 * Past this many characters a block is not parsed while it grows, and a fenced code block is
 * never handed to the parser. Measured in Chromium (the popup's styles, a 420 px column, one
 * change a frame): the growing block parsed and drawn again costs about 0.2 ms per kB a frame,
 * 22 ms at 100 kB of code and 33 ms of prose (under the 50 ms of a long task), 51 ms at 200 kB,
 * 150 ms at 1 MB. Below this size a reply looks as it always did; above it a frame redraws one
 * 16 kB piece (3 ms), whatever the size.
 */
export const LARGE_BLOCK_CHARS = 100_000;

/**
 * One block (drawn by its `BlockView`: components/chat/render/block-view.ts). The same element
 * throughout; memoised on what it shows, so a finished block is set once and never drawn anew.
 * While the reply streams, a block tells `slot` where it is, so the frames that only change the
 * growing block, and the renderings of finished blocks, are drawn without React.
 */
const SmallBlock = memo(function SmallBlock({ source, block, slot, index, grows = false }: { source: string; block: RenderedBlock | undefined; slot?: StreamingPath; index?: number; grows?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const view = useMemo(() => new BlockView(), []);
  useLayoutEffect(() => {
    if (ref.current !== null) view.show(ref.current, source, block);
  }, [view, block, source]);
  useLayoutEffect(() => {
    if (slot !== undefined && index !== undefined && ref.current !== null) slot.place(index, ref.current, view, grows);
  }, [slot, index, view, grows]);
  return <div ref={ref} className="md-block md-plain" />;
}, (before, after) => before.block === after.block && (before.block !== undefined && before.block !== FAILED ? true : before.source === after.source));

const Piece = memo(function Piece({ text, lines }: { text: string; lines: number }) {
  return <span className="md-piece" style={{ '--lines': lines } as CSSProperties}>{text}</span>;
});

/** A long text as pieces (lib/render/pieces.ts): as it grows, only its last piece is drawn again. */
export function Pieces({ text }: { text: string }) {
  const cutter = useMemo(() => new TextPieces(), []);
  const { done, last } = cutter.cut(text);
  return (
    <>
      {done.map((piece, i) => <Piece key={i} text={piece.text} lines={piece.lines} />)}
      <span className="md-piece">{last}</span>
    </>
  );
}

/**
 * A long fenced code block, as the renderer draws one (label, Copy, the code as text), without
 * the parser: its code is already plain text, and one element of megabytes of it costs a second to lay out.
 */
function LargeFence({ info, code, labels }: { info: string; code: string; labels: RenderLabels }) {
  const lang = info.split(/\s/, 1)[0] ?? '';
  const label = lang === '' ? labels.code : lang;
  const w = useWords();
  // The head codeBlockHtml draws (lib/render/code-block.ts), so Copy and Wrap lines work the same;
  // not highlighted (megabytes of spans would cost what the pieces save) and not folded.
  return (
    <div className="md-block">
      <div className="code-block">
        <div className="code-head"><span className="code-lang">{label}</span><button type="button" data-wrap="" aria-pressed="false">{labels.wrapLines}</button><button type="button" data-copy-code="" aria-label={w.t('markdown.copyCode', { language: label })}>{labels.copy}</button></div>
        <pre><code className={lang === '' ? undefined : `language-${lang}`}><Pieces text={code} /></code></pre>
      </div>
    </div>
  );
}

/**
 * A long block that is not code, once final: laid out as markdown it would hold the page for as
 * long as its size says (1.8 s for a 2 MB list, measured), and again each time it is drawn anew.
 * It stays text, in pieces, until the reader asks for it formatted.
 */
function LargeText({ source }: { source: string }) {
  const w = useWords();
  const [formatted, setFormatted] = useState(false);
  const [, bump] = useReducer((n: number) => n + 1, 0);
  const client = renderClient();
  const block = formatted ? client.peek(source) : undefined;
  if (block !== undefined) return <SmallBlock block={block} source={source} />;
  return (
    <div className="md-block" aria-busy={formatted}>
      <p className="mb-1 text-2xs text-muted">
        {w.t('markdown.largeAsText', { kb: Math.round(source.length / 1024) })}{' '}
        <Button size="sm" variant="link" className="h-auto p-0 text-2xs" disabled={formatted} onClick={() => {
          setFormatted(true);
          client.request([source], bump);
        }}>{w.t('markdown.showFormatted')}</Button>
      </p>
      <div className="md-plain"><Pieces text={source} /></div>
    </div>
  );
}

/**
 * A block past `LARGE_BLOCK_CHARS`: a fenced code block is drawn as code in pieces (while it
 * streams and after); any other block is plain text in pieces, formatted only when asked.
 */
const LargeBlock = memo(function LargeBlock({ source, growing, labels }: { source: string; growing: boolean; labels: RenderLabels }) {
  const fence = fencedBlock(source);
  if (fence !== undefined) return <LargeFence info={fence.info} code={fence.code} labels={labels} />;
  if (growing) return <div className="md-block md-plain"><Pieces text={source} /></div>;
  return <LargeText source={source} />;
});

/**
 * A block of a reply waiting for its first renderings, unseen: prose as its text, a fenced code
 * block in a code block's frame (its lines at the code's size, folded as it will be), so it
 * takes about the room its rendering will, and the rows of a list opening stay where they go.
 */
function PendingBlock({ source }: { source: string }) {
  const fence = fencedBlock(source);
  if (fence === undefined) return source;
  return (
    <div className="code-block" data-folded={folds(fence.code) ? '' : undefined}>
      <div className="code-head" />
      <pre>{fence.code}</pre>
    </div>
  );
}

/** A remote image the user asked for: only now is it fetched. */
function loadImage(event: MouseEvent<HTMLDivElement>): void {
  const load = (event.target as Element).closest<HTMLButtonElement>('button[data-load-image]');
  if (load === null) return;
  const img = document.createElement('img');
  img.src = load.dataset.loadImage ?? '';
  img.alt = load.dataset.alt ?? '';
  img.referrerPolicy = 'no-referrer';
  load.replaceWith(img);
}

/**
 * The growing block's newest rendering `latest`, when it is of the `index`th block's text `open`
 * (or of an earlier text of it), to be drawn for it; undefined when it is not (of another block,
 * of a text since replaced) or failed: the block then shows its text.
 */
function renderingOf(latest: GrowingRendering | undefined, index: number, open: string): RenderedBlock | undefined {
  return latest !== undefined && latest.index === index && latest.block !== FAILED && open.startsWith(latest.source) ? latest.block : undefined;
}

/** The longest growing block whose rendering `StreamingPath.prepare` asks for ahead of its frame. */
const AHEAD_CHARS = 8 * 1024;

/** Blocks per group: a group out of view is skipped whole (see `.md-group` in components/styles.css). */
const GROUP = 16;

interface Growing {
  source: string;
  block: RenderedBlock | undefined;
  slot: StreamingPath;
}

/** What a group of a reply's blocks draws. */
interface GroupProps {
  /** This group's finished blocks (the `from`th of the reply and on). */
  sources: readonly string[];
  from: number;
  /** Changes when renderings of its finished blocks arrive; -1 once all have (drawn for good). */
  version: number;
  /** The growing block's newest rendering: shown for the block it was, until that one's own comes. */
  interim: GrowingRendering | undefined;
  /** The growing block, when it is in this group (its place: after `sources`). */
  growing: Growing | undefined;
  labels: RenderLabels;
  /** While the reply streams: where its blocks tell their places. */
  slot: StreamingPath | undefined;
}

/** A group's props that draw it the same. */
function sameGroup(a: GroupProps, b: GroupProps): boolean {
  return a.from === b.from && a.version === b.version && a.interim === b.interim && a.growing === b.growing && a.labels === b.labels && a.slot === b.slot
    && a.sources.length === b.sources.length && a.sources.every((source, j) => source === b.sources[j]);
}

/**
 * A run of a reply's blocks. Out of view it is neither laid out nor painted (the browser checks
 * a few groups each frame, not hundreds of blocks); drawn again only when a block is added, a
 * rendering of one arrives, or (the last group) its growing block changes, which stays the same
 * element once final.
 */
const BlockGroup = memo(function BlockGroup({ sources, from, version: _version, interim, growing, labels, slot }: GroupProps) {
  const client = renderClient();
  const blocks: ReactNode[] = [];
  sources.forEach((source, j) => {
    const i = from + j;
    if (source.length > LARGE_BLOCK_CHARS) blocks.push(<LargeBlock key={i} source={source} growing={false} labels={labels} />);
    else blocks.push(<SmallBlock key={i} source={source} block={client.peek(source) ?? (interim?.index === i ? interim.block : undefined)} slot={slot} index={i} />);
  });
  if (growing !== undefined) {
    const i = from + sources.length;
    // Keyed by its place: once it is final it stays the same element, so a long one is not drawn anew.
    if (growing.source.length > LARGE_BLOCK_CHARS) blocks.push(<LargeBlock key={i} source={growing.source} growing labels={labels} />);
    else blocks.push(<SmallBlock key={i} source={growing.source} block={growing.block} slot={growing.slot} index={i} grows />);
  }
  return <div className="md-group">{blocks}</div>;
}, sameGroup);

/**
 * A group none of whose blocks is past `LARGE_BLOCK_CHARS` (most groups): React renders its
 * element alone, and its blocks are drawn into it by its `GroupView`, so a streaming reply's
 * frame that finishes a block in it adds the next one without a React render (`StreamingPath`).
 * Drawn again (its blocks set where they changed) on the same occasions as a `BlockGroup`.
 */
const SmallGroup = memo(function SmallGroup({ sources, from, version: _version, interim, growing, slot }: GroupProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [view] = useState(() => new GroupView());
  const client = renderClient();
  useLayoutEffect(() => {
    const group = ref.current;
    if (group === null) return;
    sources.forEach((source, j) => {
      const i = from + j;
      const rendered = client.peek(source);
      const element = view.draw(group, j, source, rendered ?? (interim?.index === i ? interim.block : undefined));
      if (rendered === undefined) slot?.place(i, element, view.at(j), false);
    });
    if (growing !== undefined) {
      const j = sources.length;
      const element = view.draw(group, j, growing.source, growing.block);
      growing.slot.place(from + j, element, view.at(j), true);
      growing.slot.tailIs(from, group, view);
    }
    view.trim(group, sources.length + (growing === undefined ? 0 : 1));
  });
  return <div ref={ref} className="md-group" />;
}, sameGroup);

/**
 * How many of a reply's first blocks are drawn for good (rendered, or large: drawn without the
 * renderer), counted on from where it was, and their groups' elements, made once: a group drawn
 * for good is the same element every render after, so React passes over it at once, and a frame
 * of a long reply streaming draws its last groups, not all.
 */
class DrawnForGood {
  private count = 0;
  private sources: readonly string[] = [];
  private labels: RenderLabels | undefined;
  private readonly groups: ReactNode[] = [];

  of(sources: readonly string[], client: RenderClient, labels: RenderLabels): number {
    if (sources !== this.sources || labels !== this.labels) {
      // Blocks added keep what was counted; a block changed (the text replaced) keeps only what
      // comes before it, and other words nothing.
      let same = 0;
      if (labels === this.labels) {
        const limit = Math.min(this.count, sources.length);
        while (same < limit && sources[same] === this.sources[same]) same++;
      }
      this.count = same;
      this.groups.length = Math.min(this.groups.length, Math.floor(same / GROUP));
      this.sources = sources;
      this.labels = labels;
    }
    while (this.count < sources.length) {
      const source = sources[this.count]!;
      if (source.length <= LARGE_BLOCK_CHARS && client.peek(source) === undefined) break;
      this.count++;
    }
    return this.count;
  }

  /** The element of the group from block `from`, all of whose blocks are drawn for good. */
  group(from: number, make: () => ReactNode): ReactNode {
    const i = from / GROUP;
    this.groups[i] ??= make();
    return this.groups[i];
  }
}

/** A streaming reply's text, read where it is kept rather than passed down each frame. */
export interface LiveSource {
  /** The newest text; undefined while there is none yet. */
  text(): string | undefined;
  /**
   * How the text `text()` says now grew from the one it said before, when that is known: the
   * splitter then reads only what was added (`TextGrowth`).
   */
  growth?(): TextGrowth | undefined;
  /** Calls `onChange` when the text may have changed; returns how to stop. */
  subscribe(onChange: () => void): () => void;
  /**
   * Calls `onText` with the text each time more of it comes, before the frame that publishes it
   * (`text()` says it from that frame on); returns how to stop.
   */
  hear?(onText: (text: string, grew?: TextGrowth) => void): () => void;
}

/** What the reply's last React render drew, for the streaming path to go on from. */
interface Drawn {
  text: string;
  /** The growing block's text as drawn last (React's, or this path's since). */
  open: string;
  /** Finished blocks drawn. */
  closed: number;
  /** Whether a growing block (of at most `LARGE_BLOCK_CHARS`) was drawn after them. */
  growing: boolean;
  /** The finished blocks React drew. */
  sources: readonly string[];
}

/**
 * A streaming reply's frames that only change its growing block (most of them), drawn without a
 * React render: the newest text is read from its `LiveSource`, the growing block's rendering is
 * asked for (this object is its slot at the render client) and drawn into the block's element by
 * the block's `BlockView`. Anything else (a block finished, the growing block one React draws: a
 * large one, or none) has React draw the reply (`redraw`).
 */
class StreamingPath {
  private index = -1;
  private element: HTMLElement | undefined;
  private view: BlockView | undefined;
  private drawn: Drawn = { text: '', open: '', closed: 0, growing: false, sources: [] };
  private redraw: () => void = () => undefined;
  private redrawFinished: () => void = () => undefined;
  /** The blocks drawn while the reply streams, by place, until their final rendering is drawn (a block that grew stays the same element once finished). */
  private readonly placed = new Map<number, { element: HTMLElement; view: BlockView }>();
  /** The growing block's group, when it is a `SmallGroup`. */
  private tail: { from: number; element: HTMLElement; view: GroupView } | undefined;
  /** Finished blocks asked for whose places are not known here. */
  private readonly unseen = new Set<number>();
  /** Splits the text that came ahead of its frame (`prepare`); React's splitter splits the text drawn. */
  private readonly ahead = new MarkdownBlockSplitter();

  constructor(private readonly client: RenderClient, private readonly splitter: MarkdownBlockSplitter) {}

  /**
   * Text that came, ahead of the frame that draws it: the renderings of the blocks it finished
   * and of its growing block are asked for now, so that they are usually here when that frame
   * draws the text, and drawn in it, instead of the text in one frame and its renderings in the
   * next (each frame a style, layout and paint). Nothing is drawn here.
   */
  readonly prepare = (now: string, grew?: TextGrowth): void => {
    const next = this.ahead.split(now, grew);
    const { closed } = next;
    const missing: string[] = [];
    for (let i = Math.min(this.drawn.closed, closed.length); i < closed.length; i++) {
      const source = closed[i]!;
      if (source.length <= LARGE_BLOCK_CHARS && this.client.peek(source) === undefined) missing.push(source);
    }
    if (missing.length > 0) this.client.request(missing, this.finishedArrived);
    // A long growing block keeps to one render a frame: asked for ahead as well, its renderings
    // came more often, each drawn (a 2 MB code block's 100 kB of highlighted code: tasks of
    // 50-100 ms, measured), where a short one's is a paragraph's.
    if (next.open.length <= AHEAD_CHARS && next.open.trim() !== '') this.client.requestGrowing(this, closed.length, ownCopy(next.open), this.arrived);
  };

  /** The `index`th block is `element`, drawn by `view`; the growing one when it `grows`. */
  place(index: number, element: HTMLElement, view: BlockView, grows: boolean): void {
    if (grows) {
      this.index = index;
      this.element = element;
      this.view = view;
    }
    this.placed.set(index, { element, view });
  }

  /**
   * What React drew last, and how to have it draw again: the whole reply, or (`redrawFinished`)
   * its finished blocks whose renderings arrived.
   */
  drew(drawn: Drawn, redraw: () => void, redrawFinished: () => void): void {
    this.drawn = drawn;
    this.redraw = redraw;
    this.redrawFinished = redrawFinished;
  }

  /**
   * Renderings of finished blocks arrived (a block finishes most frames of a long reply, and its
   * final rendering comes a frame or two later): each block that grew here is drawn by its view,
   * without a React render; the later renders of the reply find it drawn already. A block whose
   * place is not known here (drawn for good before) has React draw them.
   */
  readonly finishedArrived = (): void => {
    const { sources } = this.drawn;
    for (const [i, place] of this.placed) {
      const source = sources[i];
      if (source === undefined) continue;
      const block = this.client.peek(source);
      if (block === undefined && place.element.isConnected) continue;
      // (An element gone was drawn anew by React: a block past `LARGE_BLOCK_CHARS`, say.)
      if (block !== undefined && place.element.isConnected) place.view.show(place.element, source, block);
      this.placed.delete(i);
    }
    let missed = false;
    for (const i of this.unseen) {
      if (this.client.peek(sources[i] ?? '') === undefined) continue;
      this.unseen.delete(i);
      missed = true;
    }
    if (missed) this.redrawFinished();
  };

  /** The finished blocks from `from` on are asked for: those whose places are not known here are drawn by React once rendered. */
  asked(from: number): void {
    this.unseen.clear();
    const { sources } = this.drawn;
    for (let i = from; i < sources.length; i++) {
      const source = sources[i]!;
      if (!this.placed.has(i) && source.length <= LARGE_BLOCK_CHARS && this.client.peek(source) === undefined) this.unseen.add(i);
    }
  }

  /** The growing block's element and view, while it is the block React drew last. */
  private growing(): { element: HTMLElement; view: BlockView } | undefined {
    const { element, view } = this;
    if (!this.drawn.growing || this.index !== this.drawn.closed || element === undefined || view === undefined || !element.isConnected) return undefined;
    return { element, view };
  }

  /** A rendering of the growing block arrived: drawn into it, when it is the block there. */
  readonly arrived = (): void => {
    const now = this.client.latest(this);
    // A block the drawn text has not reached yet (asked for by `prepare`): the frame that draws
    // that text draws it with this rendering.
    if (now !== undefined && now.index > this.drawn.closed) return;
    const block = this.growing();
    if (now === undefined || block === undefined || now.index !== this.index) {
      this.redraw();
      return;
    }
    // A rendering that failed shows the newest text, never the older text it was asked for.
    if (now.block === FAILED) block.view.show(block.element, this.drawn.open, undefined);
    else block.view.show(block.element, now.source, now.block);
  };

  /** The group that holds the growing block, drawn by `view` (a `SmallGroup`). */
  tailIs(from: number, element: HTMLElement, view: GroupView): void {
    this.tail = { from, element, view };
  }

  /**
   * Blocks finished in this frame (a block finishes most frames of a long reply): drawn here,
   * without a React render, when they and the new growing block are added to the growing
   * block's group (a `SmallGroup` with room for them) and none is past `LARGE_BLOCK_CHARS`. The
   * block that grew keeps its newest rendering until its own arrives (`finishedArrived`), and
   * the new growing block shows its text until its first rendering comes. False (React draws
   * them) otherwise.
   */
  private finishHere(now: string, next: BlockSplit): boolean {
    const before = this.drawn;
    const { tail } = this;
    const count = next.closed.length;
    if (tail === undefined || !tail.element.isConnected || count <= before.closed || count >= tail.from + GROUP || before.closed < tail.from) return false;
    if (next.open.length > LARGE_BLOCK_CHARS || next.open.trim() === '') return false;
    // The text went on from what was drawn (the splitter starts anew on a text that does not; its
    // blocks are then other strings, else the same ones, so this costs a comparison each).
    for (let i = 0; i < before.closed; i++) if (next.closed[i] !== before.sources[i]) return false;
    const added = next.closed.slice(before.closed);
    if (added.some((source) => source.length > LARGE_BLOCK_CHARS)) return false;
    const sources = [...before.sources, ...added];
    // The growing block's newest rendering, when it is of its final text, is its rendering.
    const latest = this.client.latest(this);
    const interim = latest !== undefined && latest.block !== FAILED && latest.index === before.closed ? latest : undefined;
    if (interim !== undefined && sources[interim.index] === interim.source) this.client.adopt(interim.source, interim.block);
    for (let i = before.closed; i < count; i++) {
      const source = sources[i]!;
      const rendered = this.client.peek(source);
      const element = tail.view.draw(tail.element, i - tail.from, source, rendered ?? (interim?.index === i ? interim.block : undefined));
      if (rendered === undefined) this.placed.set(i, { element, view: tail.view.at(i - tail.from) });
    }
    const open = ownCopy(next.open);
    const j = count - tail.from;
    // Its newest rendering, when one of its text came already (`prepare`), else its text.
    const ahead = this.client.latest(this);
    const element = tail.view.draw(tail.element, j, open, renderingOf(ahead, count, open));
    this.place(count, element, tail.view.at(j), true);
    this.drawn = { text: now, open, closed: count, growing: true, sources };
    this.client.request(added.filter((source) => this.client.peek(source) === undefined), this.finishedArrived);
    this.client.requestGrowing(this, count, open, this.arrived);
    return true;
  }

  /** Follows `live` until the returned function is called. */
  follow(live: LiveSource): () => void {
    const stopHearing = live.hear?.(this.prepare);
    const stop = live.subscribe(() => {
      const now = live.text();
      const before = this.drawn;
      if (now === undefined || now === before.text) return;
      const next = this.splitter.split(now, live.growth?.());
      const block = this.growing();
      if (block !== undefined && next.closed.length !== before.closed && this.finishHere(now, next)) return;
      if (block === undefined || next.closed.length !== before.closed || next.open.length > LARGE_BLOCK_CHARS || next.open.trim() === '') {
        // React draws the reply (and until it has, every frame asks it to).
        this.drawn = { ...before, text: '', growing: false };
        this.redraw();
        return;
      }
      const open = ownCopy(next.open);
      this.drawn = { ...before, text: now, open };
      // Its text shows until its first rendering comes (or while its renderings fail); after that,
      // its newest rendering until the next.
      const rendered = this.client.latest(this);
      const shown = renderingOf(rendered, before.closed, open);
      // (Of this text, or of one newer than the one drawn when it was asked for ahead: `prepare`.)
      if (shown !== undefined && rendered !== undefined) block.view.show(block.element, rendered.source, shown);
      else block.view.show(block.element, open, undefined);
      this.client.requestGrowing(this, before.closed, open, this.arrived);
    });
    return () => {
      stop();
      stopHearing?.();
    };
  }
}

/**
 * Streamed markdown, split into blocks and rendered by the page's render worker: finished blocks
 * once each (kept by source), the growing last block again as it grows, with at most one render
 * of it on its way. Until a block's rendering arrives it shows as its text, so a reply's first
 * words appear at once; a finished reply opened anew waits for its renderings instead (looked up
 * in the rendering cache when `saved` names it), so its first paint is rendered markdown, never
 * raw markers. Blocks past `LARGE_BLOCK_CHARS` are drawn without the worker (see `LargeBlock`).
 *
 * While it streams with `live`, the frames that only change the growing block (most of them) are
 * drawn without a React render: the text is read from `live`, the growing block's new rendering
 * is asked for and drawn into its element by its `BlockView`. React renders the reply again when
 * a block is finished, a rendering of a finished block arrives, or the growing block is one React
 * draws (a large one, or none).
 */
export function Markdown({ text: given, streaming = false, saved, live }: { text: string; streaming?: boolean; saved?: SavedMessage; live?: LiveSource }) {
  const client = renderClient();
  const words = useWords();
  const labels = labelsFor(words);
  client.setLabels(labels);
  const [finishedVersion, finishedArrived] = useReducer((n: number) => n + 1, 0);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const actions = useBlockActions();
  // Once drawn, a reply never goes blank again (while a rendering of its last block comes, say).
  const [shown, setShown] = useState(false);
  // One splitter per message view; it reads only what was appended since the last render.
  const splitter = useMemo(() => new MarkdownBlockSplitter(), []);
  // This reply's growing block, to the client (one render of it on its way at most), and the frames that draw it alone.
  const [slot] = useState(() => new StreamingPath(client, splitter));
  const [prefix] = useState(() => new DrawnForGood());
  const liveText = streaming ? live?.text() : undefined;
  const text = liveText ?? given;
  const split = useMemo(() => splitter.split(text), [splitter, text]);
  // A copy of its own: a slice of the streamed text would keep that frame's whole text alive in
  // whatever still holds it (a block's last props, the client's latest render): 11 MB after a
  // 100 kB reply, measured. Copying costs the growing block's size a frame, not the reply's; a
  // block past the size is drawn in pieces that copy themselves (lib/render/pieces.ts).
  const open = useMemo(() => (split.open.length <= LARGE_BLOCK_CHARS ? ownCopy(split.open) : split.open), [split]);
  const hasOpen = open.trim() !== '';
  const growing = streaming && hasOpen;
  // The finished blocks as a new array only when one is added: the growing block's frames leave them be.
  const finishedCount = split.closed.length + (hasOpen && !streaming ? 1 : 0);
  // While it streams, a new list exactly when a block is added; once finished, whenever its text
  // changes (edited, say: any block may then differ).
  const sourcesKey = streaming ? finishedCount : text;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  const sources = useMemo(() => (hasOpen && !streaming ? [...split.closed, open] : [...split.closed]), [sourcesKey, splitter]);
  const small = useMemo(() => sources.filter((source) => source.length <= LARGE_BLOCK_CHARS), [sources]);
  const latest = client.latest(slot);
  const interim = latest !== undefined && latest.index < sources.length ? latest : undefined;

  // The first blocks drawn for good (while it streams, the others alone are asked for).
  const done = prefix.of(sources, client, labels);
  // Some drawn without their rendering (the reply says it is busy; see also the layout effect).
  const unseen = !streaming && small.some((source) => client.peek(source) === undefined);

  useLayoutEffect(() => {
    slot.drew({ text, open, closed: sources.length, growing: growing && open.length <= LARGE_BLOCK_CHARS, sources }, redraw, finishedArrived);
    // The growing block's last text, now final, is already rendered: kept as its rendering. While
    // the reply streams this render drew it already (as the block's interim rendering), so nothing
    // is drawn again (a block finishes most frames of a long reply); once finished, the reply is
    // drawn again to say it is no longer busy.
    if (interim !== undefined && sources[interim.index] === interim.source && client.adopt(interim.source, interim.block) && !streaming) finishedArrived();
    if (streaming) {
      // Drawn as they arrive by the blocks' views (`StreamingPath.finishedArrived`), not by a React render.
      slot.asked(done);
      client.request(sources.slice(done).filter((source) => source.length <= LARGE_BLOCK_CHARS), slot.finishedArrived);
    }
    else {
      client.request(small, finishedArrived, small.length !== sources.length ? undefined : saved);
      // Renderings that arrived between this render and its commit (a render that yielded, a
      // conversation's replies asked for ahead of it) are here now, and no answer will tell of
      // them: drawn again.
      if (unseen && small.every((source) => client.peek(source) !== undefined)) finishedArrived();
    }
    if (growing && open.length <= LARGE_BLOCK_CHARS) client.requestGrowing(slot, sources.length, open, slot.arrived);
  });

  // The frames that only change the growing block are drawn without React.
  useLayoutEffect(() => (streaming && live !== undefined ? slot.follow(live) : undefined), [streaming, live, slot]);

  // Waits only while none of it is rendered: a reply this page has shown before (it just streamed
  // here, and is now read back from storage) is drawn at once, the rest following.
  if (!shown && !streaming && small.length > 0 && small.every((source) => client.peek(source) === undefined)) {
    // Its text, unseen, holds about the room its rendering will take (so a list of replies opening
    // does not lay out more of them than fit, each then asking for its rendering).
    return <div className="markdown" aria-busy="true"><div className="md-pending">{sources.map((source, i) => <PendingBlock key={i} source={source} />)}</div></div>;
  }
  if (!shown) setShown(true);
  const all = sources.length + (growing ? 1 : 0);
  const groups: ReactNode[] = [];
  for (let from = 0; from < all; from += GROUP) {
    const to = Math.min(from + GROUP, sources.length);
    const holdsGrowing = growing && sources.length >= from && sources.length < from + GROUP;
    const part = sources.slice(from, to);
    // Most groups draw their blocks without React; one with a block React draws (a large one) has React draw them all.
    const Group = part.some((source) => source.length > LARGE_BLOCK_CHARS) || (holdsGrowing && open.length > LARGE_BLOCK_CHARS) ? BlockGroup : SmallGroup;
    // A whole group drawn for good (a group not yet full gets more blocks).
    if (from + GROUP <= done) {
      groups.push(prefix.group(from, () => <Group key={from} sources={part} from={from} version={-1} interim={undefined} labels={labels} growing={undefined} slot={undefined} />));
      continue;
    }
    groups.push(
      <Group key={from} sources={part} from={from} version={finishedVersion} slot={streaming ? slot : undefined}
        interim={interim !== undefined && interim.index >= from && interim.index < to ? interim : undefined} labels={labels}
        growing={holdsGrowing ? { source: open, block: latest?.index === sources.length ? latest.block : undefined, slot } : undefined} />,
    );
  }
  // A finished reply whose last renderings are still coming says so: what is on screen may be an
  // earlier text of a block for a frame or two (assistive technology and tests wait for it).
  return (
    <div className="markdown" aria-busy={unseen || undefined} onClick={(event) => {
      if (handlePreviewClick(event, words)) return;
      if (!actions.onClick(event)) loadImage(event);
    }} onKeyDown={actions.onKeyDown} onContextMenu={actions.onContextMenu}>
      {groups}
      {actions.menu}
    </div>
  );
}

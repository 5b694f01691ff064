import { memo, useEffect, useMemo, useState, type CSSProperties, type MouseEvent } from 'react';
import { Button } from '@/components/ui/Button';
import { toast } from '@/components/ui/Toast';
import { fencedBlock, MarkdownBlockSplitter } from '@/lib/render/blocks';
import { TextPieces } from '@/lib/render/pieces';
import type { MarkdownLabels } from '@/lib/render/markdown';
import { currentWords } from '@/components/i18n/words';
import { labelsFor } from '@/components/i18n/markdown-labels';
import { useWords } from '@/components/i18n/words';


type Renderer = (source: string, labels?: MarkdownLabels) => string;

/**
 * The markdown renderer (markdown-it + DOMPurify, about a third of the popup's JS) is loaded
 * after the popup is up, so the composer is ready first; until it arrives, blocks show as
 * plain text.
 */
let renderer: Renderer | undefined;
const WARM_UP = '# A *b* **c** `d` [e](https://example.com)\n\n- f\n\n> g';
let loading: Promise<Renderer> | undefined;

export function loadMarkdownRenderer(): Promise<Renderer> {
  loading ??= import('@/lib/render/markdown').then((m) => {
    renderer = m.renderMarkdownBlock;
    // One small render now, while the page is idle, so a reply's first words do not wait for
    // the parser and sanitiser to set themselves up (several milliseconds, once).
    renderer(WARM_UP);
    return renderer;
  });
  return loading;
}

function useRenderer(): Renderer | undefined {
  const [loaded, setLoaded] = useState<Renderer | undefined>(() => renderer);
  useEffect(() => {
    if (loaded !== undefined) return;
    let live = true;
    void loadMarkdownRenderer().then((r) => {
      if (live) setLoaded(() => r);
    });
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
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

/** One block, parsed once: a finished block's source never changes, so it never re-renders. */
const MarkdownBlock = memo(function MarkdownBlock({ source, render, labels }: { source: string; render: Renderer | undefined; labels: MarkdownLabels }) {
  const html = useMemo(() => render?.(source, labels), [render, source, labels]);
  if (html === undefined) return <div className="md-block md-plain">{source}</div>;
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

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
function LargeFence({ info, code, labels }: { info: string; code: string; labels: MarkdownLabels }) {
  const lang = info.split(/\s/, 1)[0] ?? '';
  const label = lang === '' ? labels.code : lang;
  return (
    <div className="md-block">
      <div className="code-block">
        <div className="code-head"><span>{label}</span><button type="button" data-copy-code="" aria-label={labels.copyCode(label)}>{labels.copy}</button></div>
        <pre><code className={lang === '' ? undefined : `language-${lang}`}><Pieces text={code} /></code></pre>
      </div>
    </div>
  );
}

/**
 * A long block that is not code, once final: parsed and laid out as markdown it would hold the
 * page for as long as its size says (1.8 s for a 2 MB list, measured), and again each time it is
 * drawn anew. It stays text, in pieces, until the reader asks for it formatted.
 */
function LargeText({ source, render, labels }: { source: string; render: Renderer | undefined; labels: MarkdownLabels }) {
  const w = useWords();
  const [formatted, setFormatted] = useState(false);
  if (formatted) return <MarkdownBlock source={source} render={render} labels={labels} />;
  return (
    <div className="md-block">
      <p className="mb-1 text-2xs text-muted">
        {w.t('markdown.largeAsText', { kb: Math.round(source.length / 1024) })}{' '}
        <Button size="sm" variant="link" className="h-auto p-0 text-2xs" onClick={() => setFormatted(true)}>{w.t('markdown.showFormatted')}</Button>
      </p>
      <div className="md-plain"><Pieces text={source} /></div>
    </div>
  );
}

/**
 * A block past `LARGE_BLOCK_CHARS`: a fenced code block is drawn as code in pieces (while it
 * streams and after); any other block is plain text in pieces, formatted only when asked.
 */
const Block = memo(function Block({ source, growing, render, labels }: { source: string; growing: boolean; render: Renderer | undefined; labels: MarkdownLabels }) {
  if (source.length > LARGE_BLOCK_CHARS) {
    const fence = fencedBlock(source);
    if (fence !== undefined) return <LargeFence info={fence.info} code={fence.code} labels={labels} />;
    if (growing) return <div className="md-block md-plain"><Pieces text={source} /></div>;
    return <LargeText source={source} render={render} labels={labels} />;
  }
  return <MarkdownBlock source={source} render={render} labels={labels} />;
});

function handleClick(event: MouseEvent<HTMLDivElement>): void {
  const target = event.target as HTMLElement;
  const copy = target.closest<HTMLButtonElement>('button[data-copy-code]');
  if (copy !== null) {
    const code = copy.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    const w = currentWords();
    void navigator.clipboard.writeText(code).then(() => {
      toast(w.t('common.copied'));
      copy.textContent = w.t('common.copied');
      setTimeout(() => {
        copy.textContent = w.t('common.copy');
      }, 1500);
    }, () => toast(w.t('common.copyFailed'), 'error'));
    return;
  }
  const load = target.closest<HTMLButtonElement>('button[data-load-image]');
  if (load !== null) {
    // The user asked for this image: only now is it fetched.
    const img = document.createElement('img');
    img.src = load.dataset.loadImage ?? '';
    img.alt = load.dataset.alt ?? '';
    img.referrerPolicy = 'no-referrer';
    load.replaceWith(img);
  }
}

/**
 * Streamed markdown, split into blocks; only the last, growing block is parsed again (past
 * `LARGE_BLOCK_CHARS`, not even that, nor once it is final). While
 * the renderer loads, a streaming reply shows as plain text (its words matter most) and a
 * finished one waits for it: its first paint is rendered markdown, never raw markers.
 */
export function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const render = useRenderer();
  const labels = labelsFor(useWords());
  // One splitter per message view; it reads only what was appended since the last render.
  const splitter = useMemo(() => new MarkdownBlockSplitter(), []);
  const { closed, open } = useMemo(() => {
    const split = splitter.split(text);
    return { closed: [...split.closed], open: split.open };
  }, [splitter, text]);
  if (render === undefined && !streaming) return <div className="markdown" aria-busy="true" />;
  return (
    <div className="markdown" onClick={handleClick}>
      {closed.map((source, i) => <Block key={i} source={source} growing={false} render={render} labels={labels} />)}
      {/* Keyed by its place: once it is final it stays the same element, so a long one is not drawn anew. */}
      {open.trim() !== '' && <Block key={closed.length} source={open} growing={streaming} render={render} labels={labels} />}
    </div>
  );
}

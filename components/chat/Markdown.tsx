import { memo, useEffect, useMemo, useState, type MouseEvent } from 'react';
import { toast } from '@/components/ui/Toast';
import { MarkdownBlockSplitter } from '@/lib/render/blocks';
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

/** One block, parsed once: a finished block's source never changes, so it never re-renders. */
const MarkdownBlock = memo(function MarkdownBlock({ source, render, labels }: { source: string; render: Renderer | undefined; labels: MarkdownLabels }) {
  const html = useMemo(() => render?.(source, labels), [render, source, labels]);
  if (html === undefined) return <div className="md-block md-plain">{source}</div>;
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
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
 * Streamed markdown, split into blocks; only the last, growing block is parsed again. While
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
      {closed.map((source, i) => <MarkdownBlock key={i} source={source} render={render} labels={labels} />)}
      {open.trim() !== '' && <MarkdownBlock key="open" source={open} render={render} labels={labels} />}
    </div>
  );
}

import { memo, useMemo, type MouseEvent } from 'react';
import { MarkdownBlockSplitter } from '@/lib/render/blocks';
import { renderMarkdownBlock } from '@/lib/render/markdown';

/** One block, parsed once: a finished block's source never changes, so it never re-renders. */
const MarkdownBlock = memo(function MarkdownBlock({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdownBlock(source), [source]);
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: html }} />;
});

function handleClick(event: MouseEvent<HTMLDivElement>): void {
  const target = event.target as HTMLElement;
  const copy = target.closest<HTMLButtonElement>('button[data-copy-code]');
  if (copy !== null) {
    const code = copy.closest('.code-block')?.querySelector('code')?.textContent ?? '';
    void navigator.clipboard.writeText(code).then(() => {
      copy.textContent = 'Copied';
      setTimeout(() => {
        copy.textContent = 'Copy';
      }, 1500);
    });
    return;
  }
  const load = target.closest<HTMLButtonElement>('button[data-load-image]');
  if (load !== null) {
    // The user asked for this image: only now is it fetched.
    const img = document.createElement('img');
    img.src = load.dataset.loadImage ?? '';
    img.alt = load.getAttribute('aria-label')?.replace(/^Load image\s*/, '') ?? '';
    img.referrerPolicy = 'no-referrer';
    load.replaceWith(img);
  }
}

/** Streamed markdown, split into blocks; only the last, growing block is parsed again. */
export function Markdown({ text }: { text: string }) {
  // One splitter per message view; it reads only what was appended since the last render.
  const splitter = useMemo(() => new MarkdownBlockSplitter(), []);
  const { closed, open } = useMemo(() => {
    const split = splitter.split(text);
    return { closed: [...split.closed], open: split.open };
  }, [splitter, text]);
  return (
    <div className="markdown" onClick={handleClick}>
      {closed.map((source, i) => <MarkdownBlock key={i} source={source} />)}
      {open.trim() !== '' && <MarkdownBlock key="open" source={open} />}
    </div>
  );
}

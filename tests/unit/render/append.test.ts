// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { appendedText } from '@/lib/render/append';
import { MarkdownBlockSplitter } from '@/lib/render/blocks';
import { BARE_LABELS } from '@/lib/render/labels';
import { createRenderService } from '@/lib/render/worker/handler';
import { appendText } from '@/components/chat/render/append-text';
import { longMarkdown } from '../../gateway/models';

/** The block's DOM as the page builds it from a rendering. */
function shown(html: string): HTMLDivElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  return element;
}

describe('a growing block\'s text added in place', () => {
  it('finds the text added before the closing tags, unescaped, and the elements it goes in', () => {
    expect(appendedText('<p>Hello wor</p>\n', '<p>Hello world &amp; &lt;more&gt;</p>\n')).toEqual({ tags: ['p'], text: 'ld & <more>' });
    expect(appendedText('<ul>\n<li>a</li>\n<li>b c</li>\n</ul>\n', '<ul>\n<li>a</li>\n<li>b cd</li>\n</ul>\n')).toEqual({ tags: ['ul', 'li'], text: 'd' });
    expect(appendedText('plain', 'plain text')).toEqual({ tags: [], text: ' text' });
    // Code keeps its newlines: they are the text's, not the markup's.
    expect(appendedText('<pre><code>a\n</code></pre>', '<pre><code>a\nb</code></pre>')).toEqual({ tags: ['pre', 'code'], text: 'b' });
  });

  it('says no when more than text changed: a new element, an attribute, markup in the added part, text after an element', () => {
    expect(appendedText('<p>Hello **wor</p>\n', '<p>Hello <strong>wor</strong></p>\n')).toBeUndefined();
    expect(appendedText('<p>a</p>\n', '<p>a</p>\n<p>b</p>\n')).toBeUndefined();
    expect(appendedText('<div data-lines="1"><code>a</code></div>', '<div data-lines="2"><code>a\nb</code></div>')).toBeUndefined();
    expect(appendedText('<p><em>a</em></p>', '<p><em>a</em>b</p>')).toBeUndefined();
    expect(appendedText('<p>a</p>', '<p>a &copy;</p>')).toBeUndefined();
    expect(appendedText('<p>ab</p>', '<p>ab</p>')).toBeUndefined();
  });

  it('leaves the block as a fresh parse of the new rendering would, on every frame of a long reply (prose, lists, tables, code, formulas)', async () => {
    const service = createRenderService();
    await service.handle({ type: 'labels', key: 'bare', labels: { ...BARE_LABELS } });
    const render = async (source: string): Promise<string> => {
      const reply = await service.handle({ type: 'render', id: 1, sources: [source], growing: true });
      if (reply?.type !== 'rendered') throw new Error('not rendered');
      return reply.blocks[0]!.html;
    };
    const text = longMarkdown(12 * 1024);
    const splitter = new MarkdownBlockSplitter();
    const blocks = splitter.split(text);
    let frames = 0;
    let appended = 0;
    for (const block of [...blocks.closed, blocks.open].filter((b) => b.trim() !== '')) {
      let previous: string | undefined;
      let element: HTMLDivElement | undefined;
      for (let end = 1; end <= block.length; end += 7) {
        const html = await render(block.slice(0, end));
        frames++;
        if (previous !== undefined && element !== undefined) {
          const append = appendedText(previous, html);
          if (append !== undefined) {
            expect(appendText(element, append)).toBe(true);
            expect(element.innerHTML).toBe(shown(html).innerHTML);
            appended++;
          }
        }
        if (element === undefined || element.innerHTML !== shown(html).innerHTML) element = shown(html);
        previous = html;
      }
    }
    // Most frames of this reply are text added to text.
    expect(appended / frames).toBeGreaterThan(0.4);
  });

  it('changes nothing when the block is not as its rendering says (an enhancer added to it)', () => {
    const element = shown('<p>Hello</p>\n');
    element.append(document.createElement('button'));
    const append = appendedText('<p>Hello</p>\n', '<p>Hello there</p>\n')!;
    expect(appendText(element, append)).toBe(false);
    expect(element.querySelector('p')!.textContent).toBe('Hello');
  });
});

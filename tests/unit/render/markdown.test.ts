// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { MarkdownBlockSplitter } from '@/lib/render/blocks';
import { renderMarkdownBlock } from '@/lib/render/markdown';
import { labelsFor } from '@/components/i18n/markdown-labels';
import { wordsFor } from '@/lib/i18n/messages';

function render(source: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = renderMarkdownBlock(source, labelsFor(wordsFor('en')));
  return div;
}

describe('renderMarkdownBlock: model output is untrusted', () => {
  it('raw HTML is shown as text, never as elements', () => {
    const el = render('Hello <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>');
    expect(el.querySelector('script')).toBeNull();
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('b')).toBeNull();
    expect(el.textContent).toContain('<script>alert(1)</script>');
  });

  it('javascript:, vbscript:, data: and file: links are not links', () => {
    for (const href of ['javascript:alert(1)', 'JavaScript:alert(1)', 'vbscript:x', 'data:text/html,<b>x</b>', 'file:///etc/passwd']) {
      const el = render(`[click](${href})`);
      const a = el.querySelector('a');
      expect(a?.getAttribute('href') ?? null, href).toBeNull();
    }
  });

  it('links open in a new tab with noopener', () => {
    const a = render('[docs](https://example.com/docs)').querySelector('a')!;
    expect(a.getAttribute('href')).toBe('https://example.com/docs');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toContain('noopener');
  });

  it('remote images become a button that loads nothing until clicked', () => {
    const el = render('![a cat](https://sentinel.example/cat.png)');
    expect(el.querySelector('img')).toBeNull();
    const button = el.querySelector('button')!;
    expect(button.getAttribute('data-load-image')).toBe('https://sentinel.example/cat.png');
    expect(button.getAttribute('aria-label')).toBe('Load image “a cat” from sentinel.example');
  });

  it('inline data: images (which fetch nothing) are shown', () => {
    expect(render('![dot](data:image/png;base64,iVBORw0KGgo=)').querySelector('img')?.getAttribute('src')).toMatch(/^data:image\/png/);
  });

  it('code blocks get a language label and a copy button; their content is escaped', () => {
    const el = render('```html\n<script>alert(1)</script>\n```');
    expect(el.querySelector('script')).toBeNull();
    expect(el.querySelector('code')?.textContent).toBe('<script>alert(1)</script>\n');
    expect(el.querySelector('button[data-copy-code]')?.getAttribute('aria-label')).toBe('Copy html code');
  });

  it('tables, lists and emphasis render', () => {
    const el = render('| a | b |\n| - | - |\n| 1 | 2 |');
    expect(el.querySelectorAll('td')).toHaveLength(2);
    expect(render('- one\n- two').querySelectorAll('li')).toHaveLength(2);
    expect(render('**bold** and *it*').querySelector('strong')?.textContent).toBe('bold');
  });
});

describe('MarkdownBlockSplitter', () => {
  it('closes blocks at blank lines, keeps the last open', () => {
    const s = new MarkdownBlockSplitter();
    expect(s.split('# Title\n\nPara one\n\nPara t')).toEqual({ closed: ['# Title\n', 'Para one\n'], open: 'Para t' });
  });

  it('a blank line inside a fenced code block does not split it', () => {
    const s = new MarkdownBlockSplitter();
    const r = s.split('```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nafter');
    expect(r.closed).toEqual(['```ts\nconst a = 1;\n\nconst b = 2;\n```\n']);
    expect(r.open).toBe('after');
  });

  it('an indented line after a blank line continues the list item', () => {
    const r = new MarkdownBlockSplitter().split('1. item\n\n   more of the item\n\nnext\n');
    expect(r.closed).toEqual(['1. item\n\n   more of the item\n']);
  });

  it('gives the same blocks however the text arrives', () => {
    const text = '# T\n\nA para\nstill\n\n```py\nx = 1\n\ny = 2\n```\n\n- a\n- b\n\n| h |\n| - |\n| c |\n\nend';
    const whole = new MarkdownBlockSplitter().split(text);
    const wholeCopy = { closed: [...whole.closed], open: whole.open };
    for (const step of [1, 2, 3, 7]) {
      const s = new MarkdownBlockSplitter();
      let r = s.split('');
      for (let i = step; i < text.length + step; i += step) r = s.split(text.slice(0, i));
      expect({ closed: [...r.closed], open: r.open }, `step ${step}`).toEqual(wholeCopy);
    }
  });

  it('starts over when the text is replaced (retry, reasoning moved)', () => {
    const s = new MarkdownBlockSplitter();
    s.split('old para\n\nold two');
    expect(s.split('new')).toEqual({ closed: [], open: 'new' });
  });
});

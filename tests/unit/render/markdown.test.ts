// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fencedBlock, MarkdownBlockSplitter } from '@/lib/render/blocks';
import { TextPieces } from '@/lib/render/pieces';
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

  it('told how the text grew, it reads only what was added, and gives the same blocks', () => {
    const text = '# T\n\nA para\nstill\n\n```py\nx = 1\n\ny = 2\n```\n\n- a\n- b\n\n| h |\n| - |\n| c |\n\nend';
    const whole = new MarkdownBlockSplitter().split(text);
    const wholeCopy = { closed: [...whole.closed], open: whole.open };
    for (const step of [1, 2, 5]) {
      const s = new MarkdownBlockSplitter();
      let from = '';
      let r = s.split(from);
      for (let i = step; i < text.length + step; i += step) {
        const added = text.slice(from.length, i);
        const now = from + added;
        r = s.split(now, { from, added });
        from = now;
      }
      expect({ closed: [...r.closed], open: r.open }, `step ${step}`).toEqual(wholeCopy);
    }
    // (Shown by a text that does not say what the growth does: the growth is what is split.)
    const s = new MarkdownBlockSplitter();
    const first = 'one\n\ntw';
    s.split(first);
    expect(s.split('not read at all', { from: first, added: 'o\n\nthree' })).toEqual({ closed: ['one\n', 'two\n'], open: 'three' });
  });

  it('a growth from another text than the one split last is not taken: the text is read', () => {
    const s = new MarkdownBlockSplitter();
    s.split('one\n\ntwo');
    expect(s.split('new\n\nthing', { from: 'some other text', added: 'zzz' })).toEqual({ closed: ['new\n'], open: 'thing' });
  });

  it('starts over when the text is replaced (retry, reasoning moved)', () => {
    const s = new MarkdownBlockSplitter();
    s.split('old para\n\nold two');
    expect(s.split('new')).toEqual({ closed: [], open: 'new' });
  });
});

describe('a fence opened at the margin is a block of its own (issue 28, item 5)', () => {
  const blocks = (text: string) => {
    const r = new MarkdownBlockSplitter().split(text);
    return [...r.closed, r.open];
  };

  it('it ends the paragraph before it and its closing line ends it, blank lines or not', () => {
    expect(blocks('Here is the file:\n```ts\nconst a = 1;\n\nconst b = 2;\n```\nThat is all.')).toEqual([
      'Here is the file:\n', '```ts\nconst a = 1;\n\nconst b = 2;\n```\n', 'That is all.',
    ]);
  });

  it('an indented fence stays inside its list item; a backtick line with a backtick after it opens none', () => {
    expect(blocks('- item\n  ```\n  code\n  ```\n  more of the item\n\nnext')).toEqual(['- item\n  ```\n  code\n  ```\n  more of the item\n', 'next']);
    expect(blocks('see\n``` inline `code` ```\nstill the paragraph')).toEqual(['see\n``` inline `code` ```\nstill the paragraph']);
  });

  it('the blocks render as the whole text does', () => {
    const text = 'Here:\n```js\nlet x = 1;\n```\nThen **this**.\n\n- a\n- b\n~~~\nraw\n~~~\n> quote\n```\nafter a quote\n```';
    const whole = render(text).innerHTML.replace(/\n/g, '');
    const parts = blocks(text).map((b) => render(b).innerHTML).join('').replace(/\n/g, '');
    expect(parts).toBe(whole);
  });

  it('gives the same blocks however the text arrives', () => {
    const text = 'Intro\n```py\nx = 1\n\n```\nafter\n````md\n```\ninner\n```\n````\n\nend';
    const whole = blocks(text);
    for (const step of [1, 3, 5]) {
      const s = new MarkdownBlockSplitter();
      let r = s.split('');
      for (let i = step; i < text.length + step; i += step) r = s.split(text.slice(0, i));
      expect([...r.closed, r.open], `step ${step}`).toEqual(whole);
    }
  });
});

describe('fencedBlock', () => {
  it('a closed fence: its info and its code, as markdown-it gives them', () => {
    expect(fencedBlock('```ts title="a"\nconst a = 1;\n\nconst b = 2;\n```\n')).toEqual({ info: 'ts title="a"', code: 'const a = 1;\n\nconst b = 2;\n', closed: true });
    expect(fencedBlock('~~~~\n~~~\n~~~~')).toEqual({ info: '', code: '~~~\n', closed: true });
  });

  it('a fence still streaming: everything after its first line, a half-written closing line too', () => {
    expect(fencedBlock('```py\nx = 1\n``')).toEqual({ info: 'py', code: 'x = 1\n``', closed: false });
    expect(fencedBlock('```py')).toEqual({ info: 'py', code: '', closed: false });
  });

  it('anything else is not one', () => {
    for (const block of ['text\n```\ncode\n```', '  ```\nindented\n```', '``\nnot a fence', '```a`b\nx\n```']) expect(fencedBlock(block), block).toBeUndefined();
  });
});

describe('TextPieces', () => {
  const code = Array.from({ length: 5000 }, (_, i) => `line ${i} of the text`).join('\n');

  it('cuts at line ends; the pieces put together are the text', () => {
    const { done, last } = new TextPieces(1000).cut(code);
    expect(done.length).toBeGreaterThan(50);
    expect(done.every((p) => p.text.endsWith('\n') && p.text.length <= 1000)).toBe(true);
    expect(done.map((p) => p.text).join('') + last).toBe(code);
    expect(done[0]!.lines).toBe(done[0]!.text.split('\n').length - 1);
  });

  it('as the text grows, the final pieces are the same strings and only the rest is cut', () => {
    const pieces = new TextPieces(1000);
    const first = [...pieces.cut(code.slice(0, 30_000)).done];
    const next = pieces.cut(code);
    expect(next.done.slice(0, first.length).every((p, i) => p === first[i])).toBe(true);
    expect(next.done.map((p) => p.text).join('') + next.last).toBe(code);
  });

  it('a line longer than a piece is cut, never inside a character', () => {
    const long = `${'a'.repeat(999)}😀${'b'.repeat(3000)}`;
    const { done, last } = new TextPieces(1000).cut(long);
    expect(done[0]!.text).toBe(`${'a'.repeat(999)}😀`);
    expect(done.map((p) => p.text).join('') + last).toBe(long);
  });

  it('starts over when the text is replaced', () => {
    const pieces = new TextPieces(1000);
    pieces.cut(code);
    expect(pieces.cut('new text')).toEqual({ done: [], last: 'new text' });
  });
});

// @vitest-environment jsdom
import { within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { codeBlockHtml } from '@/lib/render/code-block';
import { ensureLanguages, highlightCode } from '@/lib/render/highlight';
import { offTheAllowList, renderLabels } from './render-labels';

const labels = renderLabels();

afterEach(() => document.body.replaceChildren());

function block(info: string, code: string, highlighted = highlightCode(code, info)): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = codeBlockHtml({ info, code, highlighted, labels });
  document.body.append(div);
  return div;
}

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `print(${i})`).join('\n') + '\n';
const TRICKY = 'if a < b && c > d:\n\tprint("<b>&amp;</b>")   \n    s = "中文，日本語、한국어"\t\n\n';

describe('codeBlockHtml', () => {
  it('a 45-line block is folded with "Show all 45 lines"; a 30-line one is not', async () => {
    await ensureLanguages(['python']);
    const long = block('python', lines(45));
    const el = long.querySelector('.code-block')!;
    expect(el.getAttribute('data-lines')).toBe('45');
    expect(el.hasAttribute('data-folded')).toBe(true);
    expect(within(long).getByRole('button', { name: 'Show all 45 lines' })).toHaveAttribute('data-show-all');
    const short = block('python', lines(30));
    expect(short.querySelector('.code-block')!.hasAttribute('data-folded')).toBe(false);
    expect(short.querySelector('.code-block')!.getAttribute('data-lines')).toBe('30');
    expect(within(short).queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('names its language, and has Wrap lines (not pressed) and Copy … code', async () => {
    await ensureLanguages(['python']);
    const el = block('python', 'x = 1\n');
    expect(el.querySelector('.code-block')!.getAttribute('data-lang')).toBe('python');
    expect(el.querySelector('.code-lang')!.textContent).toBe('python');
    expect(within(el).getByRole('button', { name: 'Wrap lines' })).toHaveAttribute('aria-pressed', 'false');
    expect(within(el).getByRole('button', { name: 'Copy python code' })).toHaveTextContent('Copy');
    expect(el.querySelector('code')!.className).toBe('hljs language-python');
    expect(el.querySelector('code .hljs-number')!.textContent).toBe('1');
    expect(within(el).queryByRole('button', { name: 'Preview' })).toBeNull();
  });

  it('HTML and SVG blocks get Preview and Open preview in a new tab; others do not', () => {
    for (const info of ['html', 'svg', 'HTML']) {
      const el = block(info, '<p>hi</p>\n', undefined);
      const language = info.toLowerCase();
      expect(within(el).getByRole('button', { name: 'Preview' })).toHaveAttribute('data-preview', language);
      expect(within(el).getByRole('button', { name: 'Open preview in a new tab' })).toHaveAttribute('data-preview-tab', language);
    }
    for (const info of ['xml', 'js', '', 'htmlx']) expect(within(block(info, '<p>hi</p>\n', undefined)).queryByRole('button', { name: 'Preview' }), info).toBeNull();
  });

  it('the code is exactly the code, highlighted or not (<, &, tabs, trailing spaces, CJK)', async () => {
    await ensureLanguages(['python']);
    expect(block('python', TRICKY).querySelector('code')!.querySelector('span')).not.toBeNull();
    expect(block('python', TRICKY).querySelector('code')!.textContent).toBe(TRICKY);
    expect(block('', TRICKY).querySelector('code')!.textContent).toBe(TRICKY);
    expect(block('nosuchlanguage', TRICKY).querySelector('code')!.textContent).toBe(TRICKY);
  });

  it('an unknown language is named as written, shown plain, and claims no language', () => {
    const el = block('Haskell', 'main = putStrLn "hi"\n', undefined);
    expect(el.querySelector('.code-block')!.hasAttribute('data-lang')).toBe(false);
    expect(el.querySelector('.code-lang')!.textContent).toBe('Haskell');
    expect(el.querySelector('code')!.hasAttribute('class')).toBe(false);
    expect(el.querySelector('code span')).toBeNull();
    expect(within(el).getByRole('button', { name: 'Copy Haskell code' })).toBeInTheDocument();
    const none = block('', 'x\n', undefined);
    expect(none.querySelector('.code-lang')!.textContent).toBe('code');
  });

  it('a hostile info string is text, and the block passes the sanitiser’s allow-list', async () => {
    await ensureLanguages(['html']);
    const el = block('"><img src=x onerror=alert(1)>', '<script>alert(1)</script>\n', undefined);
    expect(el.querySelector('img')).toBeNull();
    expect(el.querySelector('.code-lang')!.textContent).toBe('"><img');
    expect(offTheAllowList(el)).toEqual([]);
    const html = block('html', `<a href="javascript:x" onclick="y()">&amp;</a>\n${'<p>line</p>\n'.repeat(40)}`);
    expect(html.querySelector('code span')).not.toBeNull();
    expect(offTheAllowList(html)).toEqual([]);
  });

  it('speaks the page’s language', () => {
    const el = document.createElement('div');
    el.innerHTML = codeBlockHtml({ info: 'go', code: lines(31), highlighted: undefined, labels: renderLabels('zh-CN') });
    document.body.append(el);
    expect(within(el).getByRole('button', { name: '显示全部 31 行' })).toBeInTheDocument();
    expect(within(el).getByRole('button', { name: '复制 go 代码' })).toBeInTheDocument();
    expect(within(el).getByRole('button', { name: '自动换行' })).toBeInTheDocument();
  });
});

// @vitest-environment jsdom
import { within } from '@testing-library/react';
import MarkdownIt from 'markdown-it';
import { afterEach, describe, expect, it } from 'vitest';
import { tableAsCsv, tableAsMarkdown, tablePlugin } from '@/lib/render/tables';
import { offTheAllowList, renderLabels } from './render-labels';

const md = new MarkdownIt({ html: false });
md.use(tablePlugin);

function render(source: string): HTMLElement {
  const div = document.createElement('div');
  div.innerHTML = md.render(source, { labels: renderLabels() });
  document.body.append(div);
  return div;
}

afterEach(() => document.body.replaceChildren());

const TABLE = '| Name | Price | Note |\n| :--- | ---: | :---: |\n| Tea | 5 | hot |\n| Cake | 10 | sweet |\n';

describe('tablePlugin', () => {
  it('wraps each table to scroll inside the reply, under its menu button', () => {
    const el = render(`Before\n\n${TABLE}\nBetween\n\n${TABLE}`);
    const blocks = el.querySelectorAll('.table-block');
    expect(blocks).toHaveLength(2);
    for (const block of blocks) {
      expect(block.querySelector(':scope > .table-scroll > table')).not.toBeNull();
      const button = within(block as HTMLElement).getByRole('button', { name: 'Table options' });
      expect(button).toHaveAttribute('aria-haspopup', 'menu');
      expect(button).toHaveAttribute('data-table-menu');
      expect(button.closest('.table-head')?.parentElement).toBe(block);
    }
    expect(el.querySelectorAll('th')[1]).toHaveAttribute('style', 'text-align:right');
    expect(offTheAllowList(el)).toEqual([]);
  });

  it('its button speaks the page’s language', () => {
    const div = document.createElement('div');
    div.innerHTML = md.render(TABLE, { labels: renderLabels('zh-CN') });
    document.body.append(div);
    expect(within(div).getByRole('button', { name: '表格选项' })).toBeInTheDocument();
  });
});

const ROWS = [
  ['City', 'Note', 'Pipe'],
  ['Paris, France', 'said "bonjour"', 'a | b'],
  ['Tokyo', 'line one\nline two', ''],
  ['北京', 'plain'],
];

describe('tableAsMarkdown', () => {
  it('a GFM table with its alignment; pipes escaped, line breaks as <br>, short rows filled', () => {
    expect(tableAsMarkdown(ROWS, ['left', 'right', 'center'])).toBe(
      [
        '| City | Note | Pipe |',
        '| :--- | ---: | :---: |',
        '| Paris, France | said "bonjour" | a \\| b |',
        '| Tokyo | line one<br>line two |  |',
        '| 北京 | plain |  |',
      ].join('\n'),
    );
  });

  it('reads back as the same table', () => {
    const el = render(tableAsMarkdown(ROWS));
    const cells = [...el.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => c.innerHTML));
    expect(cells).toEqual([
      ['City', 'Note', 'Pipe'],
      ['Paris, France', 'said "bonjour"', 'a | b'],
      ['Tokyo', 'line one&lt;br&gt;line two', ''],
      ['北京', 'plain', ''],
    ]);
  });

  it('nothing for no rows', () => {
    expect(tableAsMarkdown([])).toBe('');
  });
});

describe('tableAsCsv', () => {
  it('RFC 4180: commas, quotes and line breaks quoted, quotes doubled, CRLF between records', () => {
    expect(tableAsCsv(ROWS)).toBe('City,Note,Pipe\r\n"Paris, France","said ""bonjour""",a | b\r\nTokyo,"line one\nline two",\r\n北京,plain,');
  });
});

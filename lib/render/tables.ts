/**
 * Tables in replies: each is wrapped so a wide one scrolls inside the reply, under a menu button
 * (the page opens its menu: components/chat/render/block-actions.tsx), and can be copied as
 * Markdown or CSV from its cells' text.
 */
import type { MarkdownIt } from 'markdown-it';
import type { RenderLabels } from './labels';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * Wraps every table as `div.table-block > (div.table-head > button[data-table-menu]) + div.table-scroll > table`.
 * The button's name comes from the render's environment, `{ labels: RenderLabels }`.
 */
export function tablePlugin(md: MarkdownIt): void {
  md.renderer.rules.table_open = (tokens, idx, options, env, self) => {
    const name = escapeHtml((env as { labels: RenderLabels }).labels.tableMenu);
    const head = `<div class="table-head"><button type="button" data-table-menu aria-haspopup="menu" aria-expanded="false" aria-label="${name}" title="${name}"></button></div>`;
    return `<div class="table-block">${head}<div class="table-scroll">${self.renderToken(tokens, idx, options)}`;
  };
  md.renderer.rules.table_close = (tokens, idx, options, _env, self) => `${self.renderToken(tokens, idx, options)}</div></div>\n`;
}

/** A column's alignment, as its header cell says (`text-align`); undefined is the default. */
export type ColumnAlign = 'left' | 'right' | 'center' | undefined;

/** Every row as long as the longest, missing cells empty. */
function squared(rows: readonly (readonly string[])[]): string[][] {
  const width = Math.max(0, ...rows.map((row) => row.length));
  return rows.map((row) => Array.from({ length: width }, (_, i) => row[i] ?? ''));
}

function markdownCell(text: string): string {
  // A pipe would end the cell and a newline the row; `<br>` is how GFM writes a line break in a cell.
  return text.trim().replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, '<br>');
}

const RULE: Record<Exclude<ColumnAlign, undefined> | 'none', string> = { left: ':---', right: '---:', center: ':---:', none: '---' };

/** A table (its first row the header) as a GFM Markdown table. */
export function tableAsMarkdown(rows: readonly (readonly string[])[], align: readonly ColumnAlign[] = []): string {
  const [header, ...body] = squared(rows);
  if (header === undefined) return '';
  const line = (cells: readonly string[]): string => `| ${cells.map(markdownCell).join(' | ')} |`;
  const rule = `| ${header.map((_, i) => RULE[align[i] ?? 'none']).join(' | ')} |`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as CSV (RFC 4180: fields with commas, quotes or line breaks quoted, quotes doubled, CRLF between records). */
export function tableAsCsv(rows: readonly (readonly string[])[]): string {
  return squared(rows).map((row) => row.map(csvField).join(',')).join('\r\n');
}

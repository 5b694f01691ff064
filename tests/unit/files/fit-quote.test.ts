import { describe, expect, it } from 'vitest';
import { estimateTokens } from '@/lib/actions/tokens';
import { fitFile } from '@/lib/files/fit';
import { quoteFile, withFiles } from '@/lib/files/quote';
import type { AttachedFile } from '@/lib/files/types';

const pdf = (pages: number, linesPerPage = 20): AttachedFile => {
  const text = Array.from({ length: pages }, (_, i) => `[Page ${i + 1}]\n${Array.from({ length: linesPerPage }, (_, j) => `Line ${j + 1} of page ${i + 1}, with some words to count.`).join('\n')}`).join('\n\n');
  return { id: 'f', name: 'book.pdf', kind: 'pdf', type: 'application/pdf', size: 1000, pages, lines: text.split('\n').length, tokens: estimateTokens(text), text };
};

describe('fitFile', () => {
  it('leaves a file that fits as it is', () => {
    const file = pdf(2);
    expect(fitFile(file, file.tokens)).toBe(file);
  });

  it('cuts a PDF after the last whole page that fits, and says where', () => {
    const file = pdf(10);
    const fitted = fitFile(file, Math.floor(file.tokens * 0.45));
    expect(fitted.cut).toEqual({ reason: 'tokens', page: 4, tokens: file.tokens });
    expect(fitted.text.endsWith('Line 20 of page 4, with some words to count.')).toBe(true);
    expect(fitted.text).not.toContain('[Page 5]');
    expect(fitted.tokens).toBeLessThanOrEqual(Math.floor(file.tokens * 0.45));
    expect(fitted.pages).toBe(10);
  });

  it('cuts inside the first page when not even it fits', () => {
    const file = pdf(2, 200);
    const fitted = fitFile(file, 100);
    expect(fitted.cut).toMatchObject({ reason: 'tokens', page: 1 });
    // The page's own lines: its `[Page 1]` marker is not one of them.
    expect(fitted.cut?.line).toBe(fitted.lines - 1);
    expect(fitted.text.split('\n').at(-1)).toBe(`Line ${fitted.cut?.line} of page 1, with some words to count.`);
    expect(fitted.tokens).toBeLessThanOrEqual(100);
  });

  it('a file of one long line (minified JSON) keeps its head, cut inside the line, never nothing', () => {
    const text = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}` })));
    const file: AttachedFile = { id: 'j', name: 'data.min.json', kind: 'text', type: 'application/json', size: text.length, lines: 1, tokens: estimateTokens(text), text, language: 'json' };
    const fitted = fitFile(file, 1_000);
    expect(fitted.text.length).toBeGreaterThan(2_000);
    expect(text.startsWith(fitted.text)).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(1_000);
    expect(fitted.cut).toEqual({ reason: 'tokens', line: 1, tokens: file.tokens });
  });

  it('a line inside a page that only looks like a marker stays in its page', () => {
    const text = '[Page 1]\nSee [Page 7] below:\n[Page 7]\nquoted\n\n[Page 2]\nsecond page ' + 'x'.repeat(4000);
    const file: AttachedFile = { id: 'p', name: 'cites.pdf', kind: 'pdf', type: '', size: 1, pages: 2, lines: 7, tokens: estimateTokens(text), text };
    const fitted = fitFile(file, 200);
    expect(fitted.cut).toEqual({ reason: 'tokens', page: 1, tokens: file.tokens });
    expect(fitted.text).toBe('[Page 1]\nSee [Page 7] below:\n[Page 7]\nquoted');
  });

  it('cuts a text file at a line', () => {
    const text = Array.from({ length: 100 }, (_, i) => `row ${i + 1},a,b,c`).join('\n');
    const file: AttachedFile = { id: 't', name: 'rows.csv', kind: 'text', type: 'text/csv', size: text.length, lines: 100, tokens: estimateTokens(text), text, language: 'csv' };
    const fitted = fitFile(file, 50);
    expect(fitted.cut).toEqual({ reason: 'tokens', line: fitted.lines, tokens: file.tokens });
    expect(fitted.text.split('\n').at(-1)).toBe(`row ${fitted.lines},a,b,c`);
  });
});

describe('quoteFile', () => {
  it('names the file and fences its text so nothing inside can close the fence', () => {
    const file: AttachedFile = { id: 'q', name: 'notes.md', kind: 'text', type: '', size: 20, lines: 3, tokens: 8, text: 'a\n````\nb', language: 'markdown' };
    expect(quoteFile(file)).toBe('Attached file "notes.md" (3 lines):\n`````markdown\na\n````\nb\n`````');
  });

  it('says where a cut file was cut', () => {
    const file = { ...pdf(10), cut: { reason: 'tokens' as const, page: 4, tokens: 999 } };
    expect(quoteFile(file).split('\n').at(-1)).toBe('(The file was cut after page 4 of 10 to fit the message; the rest was not sent.)');
    expect(quoteFile(file).split('\n')[0]).toBe('Attached file "book.pdf" (10 pages):');
  });

  it('puts the files after the question, or alone when there is none', () => {
    const file: AttachedFile = { id: 'q', name: 'a.txt', kind: 'text', type: '', size: 2, lines: 1, tokens: 1, text: 'hi' };
    expect(withFiles('Summarise', [file])).toBe('Summarise\n\nAttached file "a.txt" (1 line):\n```text\nhi\n```');
    expect(withFiles('', [file])).toBe('Attached file "a.txt" (1 line):\n```text\nhi\n```');
    expect(withFiles('Just text', undefined)).toBe('Just text');
  });
});

import { describe, expect, it } from 'vitest';
import { estimateTokens } from '@/lib/actions/large-selection';
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
    expect(fitted.cut?.line).toBe(fitted.lines);
    expect(fitted.tokens).toBeLessThanOrEqual(100);
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

import { describe, expect, it } from 'vitest';
import { extractFile } from '@/lib/files/extract';
import { makeTextPdf } from '../../fixtures/files/make-pdf';
import { fixture, nodeReaders } from './node-readers';

const ok = async (name: string, type = '') => {
  const result = await extractFile(fixture(name, type), nodeReaders);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.refusal)}`);
  return result.file;
};

describe('extractFile on the sample files', () => {
  it('reads a multi-page PDF page by page, each page marked', async () => {
    const file = await ok('report.pdf', 'application/pdf');
    expect(file).toMatchObject({ kind: 'pdf', pages: 3, name: 'report.pdf' });
    expect(file.cut).toBeUndefined();
    const page2 = file.text.indexOf('[Page 2]');
    expect(file.text.startsWith('[Page 1]\nQuarterly report, page 1\nMARKER-PAGE-1')).toBe(true);
    expect(page2).toBeGreaterThan(0);
    expect(file.text.indexOf('MARKER-PAGE-2')).toBeGreaterThan(page2);
    expect(file.text.indexOf('MARKER-PAGE-2')).toBeLessThan(file.text.indexOf('[Page 3]'));
    expect(file.text).toContain('2.3 The support queue shrank after the keys page explained the base URL with its /v1 suffix.');
    expect(file.tokens).toBeGreaterThan(100);
    expect(file.lines).toBe(file.text.split('\n').length);
  });

  it('hears each page as it is read', async () => {
    const seen: string[] = [];
    await extractFile(fixture('report.pdf'), nodeReaders, { onPage: (n, of) => seen.push(`${n}/${of}`) });
    expect(seen).toEqual(['1/3', '2/3', '3/3']);
  });

  it('refuses a password-protected PDF as protected, asking for nothing', async () => {
    expect(await extractFile(fixture('protected.pdf'), nodeReaders)).toEqual({ ok: false, refusal: { name: 'protected.pdf', code: 'protected' } });
  });

  it('refuses a scanned PDF (a picture, no text layer) as having no text', async () => {
    expect(await extractFile(fixture('scanned.pdf'), nodeReaders)).toEqual({ ok: false, refusal: { name: 'scanned.pdf', code: 'no_text' } });
  });

  it('refuses a PDF cut short as corrupt', async () => {
    expect(await extractFile(fixture('truncated.pdf'), nodeReaders)).toEqual({ ok: false, refusal: { name: 'truncated.pdf', code: 'corrupt' } });
  });

  it('reads a Word document with its table as a Markdown table', async () => {
    const file = await ok('comparison.docx');
    expect(file.kind).toBe('docx');
    expect(file.text).toContain('# Model comparison');
    expect(file.text).toContain('| Model | Context | Price (USD) |');
    expect(file.text).toContain('| deepseek-chat | 64k | 0.27 |');
    expect(file.text.indexOf('DOCX-MARKER')).toBeGreaterThan(file.text.indexOf('| qwen-plus |'));
  });

  it('reads a CSV as csv, Chinese included', async () => {
    const file = await ok('prices.csv', 'text/csv');
    expect(file).toMatchObject({ kind: 'text', language: 'csv', lines: 4 });
    expect(file.text).toContain('deepseek-chat,0.27,1.10,深度求索');
    expect(file.text).toContain('"fast, cheap"');
  });

  it('refuses a picture saved with a text file\'s name as binary', async () => {
    expect(await extractFile(fixture('notes.txt', 'text/plain'), nodeReaders)).toEqual({ ok: false, refusal: { name: 'notes.txt', code: 'binary' } });
  });

  it('refuses a Word document that is not one, and a file named .pdf that is not a PDF', async () => {
    const png = fixture('notes.txt').bytes;
    expect(await extractFile({ id: 'a', name: 'letter.docx', type: '', bytes: png }, nodeReaders)).toMatchObject({ ok: false, refusal: { code: 'corrupt' } });
    expect(await extractFile({ id: 'b', name: 'paper.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('hello') }, nodeReaders)).toMatchObject({ ok: false, refusal: { code: 'corrupt' } });
    // A zip that is not a Word document, named .docx: mammoth cannot find its document.
    const zip = fixture('comparison.docx').bytes.slice(0, 200);
    expect(await extractFile({ id: 'c', name: 'broken.docx', type: '', bytes: zip }, nodeReaders)).toMatchObject({ ok: false, refusal: { name: 'broken.docx', code: 'corrupt' } });
  });

  it('refuses a file over the size limit before reading it, saying both sizes', async () => {
    const result = await extractFile(fixture('report.pdf'), nodeReaders, { maxBytes: 1000 });
    expect(result).toEqual({ ok: false, refusal: { name: 'report.pdf', code: 'too_large', params: { size: fixture('report.pdf').bytes.byteLength, limit: 1000 } } });
  });

  it('refuses kinds it does not read by their extension, and empty files', async () => {
    const zip = fixture('comparison.docx').bytes;
    expect(await extractFile({ id: 'x', name: 'sheet.xlsx', type: '', bytes: zip }, nodeReaders)).toEqual({ ok: false, refusal: { name: 'sheet.xlsx', code: 'unsupported', params: { ext: 'xlsx' } } });
    expect(await extractFile({ id: 'e', name: 'empty.txt', type: '', bytes: new Uint8Array() }, nodeReaders)).toEqual({ ok: false, refusal: { name: 'empty.txt', code: 'empty' } });
    expect(await extractFile({ id: 'w', name: 'blank.md', type: '', bytes: new TextEncoder().encode('  \n\n ') }, nodeReaders)).toMatchObject({ ok: false, refusal: { code: 'empty' } });
  });

  it('reads code by its extension, and text files in GB18030 or UTF-16', async () => {
    const py = await extractFile({ id: 'p', name: 'main.py', type: '', bytes: new TextEncoder().encode('def main():\r\n    print("hi")\r\n') }, nodeReaders);
    expect(py).toMatchObject({ ok: true, file: { kind: 'text', language: 'python', lines: 2, text: 'def main():\n    print("hi")\n' } });
    // "中文笔记" in GB18030.
    const gb = new Uint8Array([0xd6, 0xd0, 0xce, 0xc4, 0xb1, 0xca, 0xbc, 0xc7]);
    expect(await extractFile({ id: 'g', name: 'notes.txt', type: '', bytes: gb }, nodeReaders)).toMatchObject({ ok: true, file: { text: '中文笔记' } });
    const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]);
    expect(await extractFile({ id: 'u', name: 'u.txt', type: '', bytes: utf16 }, nodeReaders)).toMatchObject({ ok: true, file: { text: 'hi' } });
    // A README without an extension is text, in no language.
    const readme = await extractFile({ id: 'r', name: 'README', type: '', bytes: new TextEncoder().encode('# Title') }, nodeReaders);
    expect(readme.ok && readme.file.language).toBeUndefined();
  });

  it('text that begins like a signature, or quotes a PDF header, is still text; Windows-1252 text is read', async () => {
    const enc = (t: string) => new TextEncoder().encode(t);
    expect(await extractFile({ id: 'b', name: 'bmi.csv', type: 'text/csv', bytes: enc('BMI,height\n22,180\n') }, nodeReaders)).toMatchObject({ ok: true, file: { kind: 'text', language: 'csv' } });
    expect(await extractFile({ id: 'm', name: 'MZ.txt', type: '', bytes: enc('MZ is how a Windows program begins.') }, nodeReaders)).toMatchObject({ ok: true });
    expect(await extractFile({ id: 'q', name: 'pdf.md', type: '', bytes: enc('# PDF\nA PDF begins with %PDF-1.7 and ends with %%EOF.') }, nodeReaders)).toMatchObject({ ok: true, file: { kind: 'text', language: 'markdown' } });
    // "René,Zürich" as Excel writes it on Western Windows.
    const latin = new Uint8Array([0x52, 0x65, 0x6e, 0xe9, 0x2c, 0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68, 0x0a]);
    expect(await extractFile({ id: 'l', name: 'people.csv', type: '', bytes: latin }, nodeReaders)).toMatchObject({ ok: true, file: { text: 'René,Zürich\n' } });
  });

  it('cuts a PDF over the page limit after the last page read, saying so', async () => {
    const bytes = await makeTextPdf(6);
    const result = await extractFile({ id: 'l', name: 'long.pdf', type: '', bytes }, nodeReaders, { maxPages: 4 });
    expect(result).toMatchObject({ ok: true, file: { pages: 6, cut: { reason: 'pages', page: 4 } } });
    if (result.ok) {
      expect(result.file.text).toContain('MARKER-PAGE-4');
      expect(result.file.text).not.toContain('[Page 5]');
    }
  });
});

describe('htmlToMarkdown (a Word document\'s HTML)', () => {
  it('a table inside a cell reads as that cell\'s text; the outer table keeps every row', async () => {
    const { htmlToMarkdown } = await import('@/lib/files/docx');
    const html = '<table><tr><td><p>A</p><table><tr><td>inner 1</td><td>inner 2</td></tr></table></td><td><p>B</p></td></tr><tr><td><ul><li>C1</li><li>C2</li></ul></td><td>D</td></tr></table><ul><li>after</li></ul>';
    expect(htmlToMarkdown(html)).toBe('| A inner 1 inner 2 | B |\n| --- | --- |\n| C1 C2 | D |\n\n- after');
  });
});

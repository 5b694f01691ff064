/**
 * Diagrams and previews in Firefox (the firefox-mv2 e2e build's render lab, puppeteer over
 * WebDriver BiDi): Firefox has no sandboxed extension pages, so a reply's Preview buttons give way
 * to a note saying why and the code stays as source; diagrams draw as in Chromium.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIREFOX_EXTENSION_DIR, launchFirefoxExtension, until, type FirefoxExtension } from './firefox-harness';

let ff: FirefoxExtension;

beforeAll(async () => {
  ff = await launchFirefoxExtension();
});
afterAll(async () => {
  await ff?.close();
});

const REPLY = '<div class="md-block"><div class="code-block" data-lang="html"><div class="code-head"><span class="code-lang">html</span>'
  + '<button type="button" data-preview="html">Preview</button><button type="button" data-preview-tab="html">Open preview in a new tab</button>'
  + '<button type="button" data-copy-code aria-label="Copy html code">Copy</button></div><pre><code class="hljs language-html">&lt;h1&gt;Hi&lt;/h1&gt;&lt;script&gt;fetch("http://127.0.0.1:9/")&lt;/script&gt;</code></pre></div></div>'
  + '<div class="md-block"><div class="diagram-block" data-diagram><div class="code-block" data-lang="mermaid"><div class="code-head"><span class="code-lang">mermaid</span></div>'
  + '<pre><code class="hljs language-mermaid">flowchart LR\n  A[Ask] --&gt; B[Answer]</code></pre></div></div></div>';

describe('Firefox: previews and diagrams', () => {
  it('the build has no preview page, the Preview buttons give way to a note saying why, the code stays; a diagram draws', async () => {
    expect(existsSync(resolve(FIREFOX_EXTENSION_DIR, 'preview.html'))).toBe(false);
    const page = await ff.open('render-lab.html');
    await until('the render lab', () => page.evaluate(() => '__renderLab' in globalThis));
    await page.evaluate((html) => (globalThis as unknown as { __renderLab: { mount(h: string): Promise<void> } }).__renderLab.mount(html), REPLY);
    // The image has a size once decoded (a valid SVG document).
    await page.evaluate(() => (document.querySelector('img[alt="Diagram"]') as HTMLImageElement | null)?.decode());
    const state = await page.evaluate(() => ({
      previewButtons: document.querySelectorAll('button[data-preview], button[data-preview-tab]').length,
      frames: document.querySelectorAll('iframe').length,
      note: document.querySelector('[role="note"]')?.textContent ?? '',
      code: document.querySelector('.code-block code')?.textContent ?? '',
      diagram: document.querySelector('img[alt="Diagram"]')?.getAttribute('src')?.slice(0, 32) ?? '',
      diagramWidth: (document.querySelector('img[alt="Diagram"]') as HTMLImageElement | null)?.naturalWidth ?? 0,
    }));
    expect(state.previewButtons).toBe(0);
    expect(state.frames).toBe(0);
    expect(state.note).toMatch(/^No preview in Firefox: it has no sandboxed extension pages/);
    expect(state.code).toBe('<h1>Hi</h1><script>fetch("http://127.0.0.1:9/")</script>');
    expect(state.diagram).toBe('data:image/svg+xml;charset=utf-8');
    expect(state.diagramWidth).toBeGreaterThan(50);
    await page.screenshot({ path: 'test-results/screens/firefox-light-preview-note.png' });
    await page.close();
  });
});

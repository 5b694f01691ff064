// @vitest-environment jsdom
/**
 * The diagram enhancer on reply HTML as the worker emits it, with the real Mermaid. jsdom has no
 * layout: SVG text is measured by a stand-in (8 px a character), so shapes have sizes; what is
 * checked here is the page's behaviour and what the sanitiser lets through, not the drawing
 * (the browser test looks at that).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { enhanceDiagrams } from '@/components/chat/render/diagrams';
import { wordsFor } from '@/lib/i18n/messages';

const en = wordsFor('en');

beforeAll(() => {
  const svg = window.SVGElement.prototype as unknown as Record<string, unknown>;
  svg.getBBox = function getBBox(this: Element) {
    return { x: 0, y: 0, width: (this.textContent ?? '').length * 8, height: 16 };
  };
  svg.getComputedTextLength = function getComputedTextLength(this: Element) {
    return (this.textContent ?? '').length * 8;
  };
});

afterEach(() => {
  document.body.innerHTML = '';
  delete document.documentElement.dataset.theme;
});

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A closed ```mermaid fence as the worker wraps it (the issue's HTML contract). */
function reply(...sources: string[]): HTMLElement {
  const root = document.createElement('div');
  root.className = 'markdown';
  root.innerHTML = sources.map((source) => `<div class="md-block"><div class="diagram-block" data-diagram><div class="code-block" data-lang="mermaid"><div class="code-head"><span class="code-lang">mermaid</span><button type="button" data-copy-code aria-label="Copy mermaid code">Copy</button></div><pre><code class="hljs language-mermaid">${escapeHtml(source)}</code></pre></div></div></div>`).join('');
  document.body.append(root);
  return root;
}

function svgOf(img: HTMLElement): string {
  const src = img.getAttribute('src') ?? '';
  expect(src.startsWith('data:image/svg+xml;charset=utf-8,')).toBe(true);
  return decodeURIComponent(src.slice(src.indexOf(',') + 1));
}

/** Parses the shown SVG and checks what it holds, element by element and attribute by attribute. */
function expectInert(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  expect(doc.querySelector('parsererror')).toBeNull();
  expect(doc.documentElement.localName).toBe('svg');
  for (const el of doc.querySelectorAll('*')) {
    expect(['foreignobject', 'script', 'a', 'image', 'use', 'iframe', 'animate', 'set', 'img']).not.toContain(el.localName.toLowerCase());
    for (const attr of el.attributes) {
      expect(attr.name).not.toMatch(/^on/i);
      if (/href$/i.test(attr.name)) expect(attr.value).toMatch(/^#/);
      expect(attr.value).not.toMatch(/javascript:|url\(\s*['"]?(?!#)/i);
    }
    if (el.localName === 'style') expect(el.textContent).not.toMatch(/@import|url\(\s*['"]?(?!#)/i);
  }
  return doc;
}

const FLOWCHART = 'flowchart TD\n  A[Write the reply] --> B{Has a diagram?}\n  B -->|yes| C[Draw it]';

describe('enhanceDiagrams', () => {
  it('draws a mermaid block as an image named Diagram, hides the source behind "Show diagram source", once', async () => {
    const root = reply(FLOWCHART);
    await enhanceDiagrams(root, en);
    const img = screen.getByRole('img', { name: 'Diagram' });
    const doc = expectInert(svgOf(img));
    expect(doc.documentElement.textContent).toContain('Has a diagram?');
    // The drawing's own size, from its viewBox (an image needs one).
    expect(Number(doc.documentElement.getAttribute('width'))).toBeGreaterThan(0);

    const code = root.querySelector('code')!;
    expect(code).not.toBeVisible();
    const toggle = screen.getByRole('button', { name: 'Show diagram source' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', root.querySelector('.code-block')!.id);
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(code).toBeVisible();
    expect(code.textContent).toBe(FLOWCHART);
    await userEvent.click(toggle);
    expect(code).not.toBeVisible();

    // Enhancing the same reply again (each new block's HTML is followed by a call) draws nothing twice.
    await enhanceDiagrams(root, en);
    expect(screen.getAllByRole('img', { name: 'Diagram' })).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Show diagram source' })).toHaveLength(1);
  });

  it('Download SVG saves the sanitised SVG as diagram.svg', async () => {
    const root = reply(FLOWCHART);
    await enhanceDiagrams(root, en);
    const blobs: Blob[] = [];
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:diagram';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function click(this: HTMLAnchorElement) {
      names.push(`${this.download} ${this.href}`);
    });
    await userEvent.click(screen.getByRole('button', { name: 'Download SVG' }));
    expect(names).toEqual(['diagram.svg blob:diagram']);
    expect(blobs[0]!.type).toBe('image/svg+xml');
    expect(await blobs[0]!.text()).toBe(svgOf(screen.getByRole('img', { name: 'Diagram' })));
    create.mockRestore();
    click.mockRestore();
  });

  it('a diagram that does not parse keeps its source shown, with the parser\'s message', async () => {
    const root = reply('flowchart TD\n  A --> ');
    await enhanceDiagrams(root, en);
    const note = screen.getByRole('note');
    expect(within(note).getByText('This diagram could not be drawn')).toBeInTheDocument();
    expect(note.textContent).toMatch(/Parse error on line \d+/);
    expect(screen.queryByRole('img', { name: 'Diagram' })).toBeNull();
    expect(root.querySelector('code')).toBeVisible();
    // Nothing of Mermaid's is left on the page (its scratch element, its error picture).
    expect(document.body.children).toHaveLength(1);
  });

  it('a diagram whose styles would fetch something (classDef, style, init) is not drawn: no live style ever holds the address', async () => {
    const styles: string[] = [];
    const watcher = new MutationObserver(() => {
      for (const style of document.querySelectorAll('style')) styles.push(style.textContent ?? '');
    });
    watcher.observe(document, { subtree: true, childList: true, characterData: true });
    const root = reply(
      'stateDiagram-v2\n  classDef x background-image:url(https://evil.example/s.png)\n  A --> B\n  class A x',
      'classDiagram\n  class A\n  style A background:url(https://evil.example/u.png)',
      'flowchart TD\n  A --> B\n  style A fill:#f00,background:image-set("https://evil.example/i.png" 1x)',
      'flowchart TD\n  A --> B\n  classDef y background:u\\72l(https://evil.example/e.png)',
    );
    await enhanceDiagrams(root, en);
    await new Promise((resolve) => setTimeout(resolve, 0));
    watcher.disconnect();
    expect(styles.join('\n')).not.toContain('evil.example');
    expect(screen.queryByRole('img', { name: 'Diagram' })).toBeNull();
    const notes = screen.getAllByRole('note');
    expect(notes).toHaveLength(4);
    for (const note of notes) expect(note).toHaveTextContent('Its styles ask for something from an address');
  });

  it('in Chinese, the image and its controls are named in Chinese', async () => {
    const root = reply(FLOWCHART);
    await enhanceDiagrams(root, wordsFor('zh-CN'));
    expect(screen.getByRole('img', { name: '图表' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '显示图表源代码' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '下载 SVG' })).toBeInTheDocument();
  });

  it('escape attempts (click callbacks, javascript: and remote links, HTML labels, a loose init, CSS imports) leave an inert SVG', async () => {
    const remote = 'http://127.0.0.1:9/x';
    const root = reply(
      `flowchart TD\n  A[Click me] --> B[Or me]\n  click A callback "Tooltip"\n  click B href "javascript:alert(1)"`,
      `flowchart LR\n  A --> B\n  click A "${remote}" _blank\n  click B href "${remote}" "tip" _self`,
      `%%{init: {"securityLevel": "loose", "htmlLabels": true, "flowchart": {"htmlLabels": true}}}%%\nflowchart TD\n  A["<img src='${remote}' onerror='alert(2)'>"] --> B["<foreignObject><iframe src='${remote}'></iframe></foreignObject>"]`,
      `%%{init: {"themeCSS": "@import url(${remote}); .node rect { fill: url(${remote}) }", "fontFamily": "x;} @import url(${remote});"}}%%\nflowchart TD\n  A --> B`,
      `sequenceDiagram\n  participant A as Alice\n  link A: Dashboard @ javascript:alert(4)\n  A->>A: <script>alert(5)</script>`,
    );
    await enhanceDiagrams(root, en);
    const images = screen.getAllByRole('img', { name: 'Diagram' });
    // The init that imports CSS from an address is not drawn at all (its styles would fetch: see below).
    expect(images).toHaveLength(4);
    for (const img of images) expectInert(svgOf(img));
    expect(screen.getByRole('note')).toHaveTextContent('Its styles ask for something from an address');
  });

  it('redraws in the dark theme when the page turns dark', async () => {
    const root = reply(FLOWCHART);
    await enhanceDiagrams(root, en);
    const img = screen.getByRole('img', { name: 'Diagram' });
    const light = svgOf(img);
    document.documentElement.dataset.theme = 'dark';
    await waitFor(() => expect(svgOf(img)).not.toBe(light));
    expect(root.querySelector<HTMLElement>('[data-diagram]')!.dataset.diagramTheme).toBe('dark');
  });
});

/**
 * Mermaid diagrams in replies (issue 29, item 3). The worker wraps a closed ```mermaid fence as
 * `<div class="diagram-block" data-diagram>` + its code block; once that HTML is on the page,
 * `enhanceDiagrams` draws each such block once: Mermaid is loaded on the first diagram (a chunk
 * of its own, about 1 MB, never in a page's first chunk), draws in strict mode without HTML
 * labels, and its SVG is sanitised (./diagram-svg.ts) and shown as an image named "Diagram". The
 * source stays one click away; a diagram that does not parse shows its source and the message.
 */
import type MermaidModule from 'mermaid';
import type { Words } from '@/lib/i18n/messages';
import { sanitizeDiagramSvg, svgDataUrl } from './diagram-svg';

type DiagramWords = Pick<Words, 't'>;
type Mermaid = typeof MermaidModule;
type Theme = 'light' | 'dark';

/** Set on each diagram block by its first enhancement, so a block is drawn once. */
const STATE = 'diagramState';

let loading: Promise<Mermaid> | undefined;
let configuredFor: Theme | undefined;
let serial = 0;
/** Each drawn block's sanitised SVG (for Download SVG), until the block leaves the page. */
const drawn = new WeakMap<HTMLElement, string>();

function loadMermaid(): Promise<Mermaid> {
  loading ??= import('mermaid').then((m) => m.default);
  return loading;
}

/** The theme the page shows: the user's choice (data-theme), else the system's. */
function pageTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches === true ? 'dark' : 'light';
}

function configure(mermaid: Mermaid, theme: Theme): void {
  if (configuredFor === theme) return;
  mermaid.initialize({
    startOnLoad: false,
    // Strict: no click callbacks, links and labels escaped by Mermaid itself.
    securityLevel: 'strict',
    // Labels as SVG text: HTML labels would be <foreignObject>, which the sanitiser removes.
    htmlLabels: false,
    flowchart: { htmlLabels: false },
    theme: theme === 'dark' ? 'dark' : 'default',
    darkMode: theme === 'dark',
    // A failed parse throws (we show its message) instead of drawing Mermaid's error picture.
    suppressErrorRendering: true,
    // What a diagram's own `%%{init: …}%%` may not change (Mermaid's defaults, plus the
    // labels' kind and anything that writes CSS or HTML into the SVG).
    secure: ['secure', 'securityLevel', 'startOnLoad', 'maxTextSize', 'suppressErrorRendering', 'maxEdges', 'htmlLabels', 'dompurifyConfig', 'themeCSS', 'fontFamily', 'altFontFamily', 'arrowMarkerAbsolute'],
  });
  configuredFor = theme;
}

/**
 * Styles a diagram gives its shapes (`classDef`, `style`, `linkStyle`, an `%%{init}%%`
 * directive) that could fetch something: Mermaid puts them in a live `<style>` of the page while
 * it draws, before anything is sanitised, and a background image there would be fetched with no
 * click. Such a diagram is not drawn.
 */
const STYLE_LINE = /^\s*(?:classDef|style|linkStyle|%%\{)/i;
const FETCHES = /url\s*\(|image-set\s*\(|@import|\\|expression\s*\(/i;

export class RemoteStyleError extends Error {
  override name = 'RemoteStyleError';
}

export function fetchingStyle(source: string): boolean {
  return source.split('\n').some((line) => STYLE_LINE.test(line) && FETCHES.test(line));
}

/** Draws one diagram; throws with the parser's message when it is not a diagram. */
async function draw(source: string, theme: Theme): Promise<string> {
  if (fetchingStyle(source)) throw new RemoteStyleError('a style that loads from an address');
  const mermaid = await loadMermaid();
  configure(mermaid, theme);
  await mermaid.parse(source);
  const id = `gc-diagram-${++serial}`;
  try {
    const { svg } = await mermaid.render(id, source);
    const clean = sanitizeDiagramSvg(svg);
    if (clean === undefined) throw new Error('no SVG');
    return clean;
  } finally {
    // Mermaid draws in a scratch element of the page's body, left behind when it throws.
    document.getElementById(`d${id}`)?.remove();
  }
}

function button(label: string, className: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = className;
  b.textContent = label;
  return b;
}

function download(svg: string): void {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'diagram.svg';
  link.click();
  // The download has taken the file by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

function showDiagram(block: HTMLElement, code: HTMLElement, svg: string, theme: Theme, words: DiagramWords): void {
  drawn.set(block, svg);
  const figure = document.createElement('figure');
  figure.className = 'diagram-figure';
  const img = document.createElement('img');
  img.alt = words.t('markdown.diagram');
  img.src = svgDataUrl(svg);
  figure.append(img);

  const bar = document.createElement('div');
  bar.className = 'diagram-bar';
  const toggle = button(words.t('markdown.showDiagramSource'), 'diagram-toggle');
  code.id ||= `gc-diagram-source-${++serial}`;
  toggle.setAttribute('aria-controls', code.id);
  toggle.setAttribute('aria-expanded', 'false');
  toggle.addEventListener('click', () => {
    const open = toggle.getAttribute('aria-expanded') !== 'true';
    toggle.setAttribute('aria-expanded', String(open));
    code.hidden = !open;
  });
  const save = button(words.t('markdown.downloadSvg'), 'diagram-download');
  save.addEventListener('click', () => download(drawn.get(block) ?? svg));
  bar.append(toggle, save);

  code.hidden = true;
  block.prepend(figure, bar);
  block.dataset.diagramTheme = theme;
  block.dataset[STATE] = 'drawn';
}

function showFailure(block: HTMLElement, message: string, words: DiagramWords): void {
  const note = document.createElement('div');
  note.className = 'diagram-error';
  note.setAttribute('role', 'note');
  const title = document.createElement('p');
  title.className = 'diagram-error-title';
  title.textContent = words.t('markdown.diagramFailed');
  const detail = document.createElement('pre');
  detail.className = 'diagram-error-message';
  detail.textContent = message;
  note.append(title, detail);
  block.append(note);
  block.dataset[STATE] = 'failed';
}

async function enhance(block: HTMLElement, words: DiagramWords): Promise<void> {
  const code = block.querySelector<HTMLElement>('.code-block');
  const source = code?.querySelector('code')?.textContent ?? '';
  if (code === null || source.trim() === '') {
    block.dataset[STATE] = 'empty';
    return;
  }
  const theme = pageTheme();
  let svg: string;
  try {
    svg = await draw(source, theme);
  } catch (error) {
    showFailure(block, error instanceof RemoteStyleError ? words.t('markdown.diagramRemoteStyle') : error instanceof Error ? error.message : String(error), words);
    return;
  }
  // The reply may have been replaced while Mermaid drew.
  if (block.isConnected) showDiagram(block, code, svg, theme, words);
}

let queue: Promise<void> = Promise.resolve();

/**
 * Draws the diagrams under `root` that are not drawn yet (call it after setting a block's HTML;
 * a block is drawn once). Diagrams are drawn one after the other, so typing waits for at most
 * one at a time. Resolves when they are all on the page.
 */
export function enhanceDiagrams(root: HTMLElement, words: DiagramWords): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('[data-diagram]')].filter((b) => b.dataset[STATE] === undefined);
  if (blocks.length === 0) return Promise.resolve();
  watchTheme();
  for (const block of blocks) {
    block.dataset[STATE] = 'drawing';
    queue = queue.then(() => enhance(block, words)).catch((error: unknown) => showFailure(block, String(error), words));
  }
  return queue;
}

/** A drawn diagram again in the theme the page now shows (its figure is replaced in place). */
async function redraw(block: HTMLElement, theme: Theme): Promise<void> {
  const source = block.querySelector('.code-block code')?.textContent ?? '';
  const img = block.querySelector<HTMLImageElement>('.diagram-figure img');
  if (!block.isConnected || img === null || block.dataset.diagramTheme === theme) return;
  try {
    const svg = await draw(source, theme);
    drawn.set(block, svg);
    img.src = svgDataUrl(svg);
    block.dataset.diagramTheme = theme;
  } catch {
    // It drew before; the picture in the other theme stays.
  }
}

let watching = false;

/** Mermaid bakes colours into the SVG: a theme change redraws the diagrams on the page. */
function watchTheme(): void {
  if (watching) return;
  watching = true;
  const retheme = (): void => {
    const theme = pageTheme();
    for (const block of document.querySelectorAll<HTMLElement>('[data-diagram][data-diagram-state="drawn"]')) {
      queue = queue.then(() => redraw(block, theme));
    }
  };
  new MutationObserver(retheme).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', retheme);
}

/**
 * Mermaid's SVG → an SVG that can do nothing but draw. Mermaid runs on model output, so its SVG
 * is untrusted even with `securityLevel: 'strict'`: this is the allow-list it must pass before it
 * is shown (as an <img>, which runs no script and loads nothing, so this is the second wall) or
 * offered as a download (opened later in a browser tab, where it is the only wall).
 */
import createDOMPurify, { type DOMPurify } from 'dompurify';

/** A reference inside the document itself (`#id`, `url(#id)`): the only kind an SVG keeps. */
const FRAGMENT = /^\s*#[\w:.-]*\s*$/;
/** A `url(…)` whose target is not a fragment of this document. */
const REMOTE_URL = /url\(\s*(?!['"]?\s*#)/i;
/** What CSS may not say in a diagram: other files, script, old IE expressions, escapes that hide either. */
const BAD_CSS = /@import|expression\s*\(|javascript:|behavior\s*:|-moz-binding|\\/i;

/** Elements that can run script, load something (images: only remote ones reach Mermaid's output) or hold HTML: never kept. */
const FORBID_TAGS = ['foreignObject', 'script', 'a', 'image', 'iframe', 'use', 'animate', 'animateMotion', 'animateTransform', 'set', 'discard', 'handler', 'listener', 'feImage'];
const LINK_ATTRS = new Set(['href', 'xlink:href']);

const SVG_NS = 'http://www.w3.org/2000/svg';

let purifier: DOMPurify | undefined;

function unsafeCss(css: string): boolean {
  return BAD_CSS.test(css) || REMOTE_URL.test(css);
}

function configured(): DOMPurify {
  if (purifier !== undefined) return purifier;
  // An instance of its own: the markdown renderer's hooks and settings are for HTML, not this.
  const p = createDOMPurify(window);
  p.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    const value = data.attrValue;
    // Links: only to a fragment of this SVG (markers, gradients, clip paths).
    if (LINK_ATTRS.has(name) && !FRAGMENT.test(value)) data.keepAttr = false;
    // Presentation attributes (fill, filter, marker-end…) may point only inside the SVG too.
    else if (name === 'style' ? unsafeCss(value) : REMOTE_URL.test(value)) data.keepAttr = false;
  });
  p.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style' && unsafeCss(node.textContent ?? '')) node.textContent = '';
  });
  purifier = p;
  return p;
}

/**
 * The sanitised SVG as an XML document (what an <img> and a saved .svg file need), with its
 * size written out so the image has one, or undefined when nothing drawable is left.
 */
export function sanitizeDiagramSvg(svg: string): string | undefined {
  const fragment = configured().sanitize(svg, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS,
    // Mermaid's text placement; its styles select on its (inert) data-* attributes.
    ADD_ATTR: ['dominant-baseline', 'alignment-baseline'],
    ADD_TAGS: ['style'],
    RETURN_DOM_FRAGMENT: true,
  });
  const root = fragment.firstElementChild;
  if (root === null || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) return undefined;
  // Mermaid sizes its SVG to its container (width="100%" and a max-width): an image needs the
  // drawing's own size, which its viewBox holds.
  const box = (root.getAttribute('viewBox') ?? '').trim().split(/[\s,]+/).map(Number);
  if (box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0) {
    root.setAttribute('width', String(Math.ceil(box[2]!)));
    root.setAttribute('height', String(Math.ceil(box[3]!)));
    root.removeAttribute('style');
  }
  // An element in the SVG namespace: the serialiser declares it (an <img> needs the declaration).
  return new XMLSerializer().serializeToString(root);
}

/** The sanitised SVG as an address an <img> can show. */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The last gate between rendered model output and the page's innerHTML: an allow-list over an
 * htmlparser2 parse, re-serialised from scratch. It runs in the render worker, which has no DOM
 * (so no DOMPurify), on every frame of a streaming block, so it is one pass over the parser's
 * events with no tree built.
 *
 * Each renderer's markup is allowed only where that renderer puts it:
 * - markdown (everywhere): prose, lists, tables, links, inline `data:` pictures, code blocks and
 *   their buttons; no style (but a table cell's text-align), no id, no event handler;
 * - highlighting (inside `<code>`): only `<span>` with highlight.js classes;
 * - KaTeX (inside `<span class="katex">`): its spans with checked styles, its MathML, and the few
 *   SVG shapes it draws (roots, arrows, braces), nothing that carries an address.
 *
 * Safety does not hang on the browser rebuilding the same tree: the output holds only allowed
 * elements and attributes, every text and attribute value escaped, and none of the elements
 * whose text the HTML parser reads as markup or raw text (script, style, textarea, title, …), so
 * no text can turn into markup however the page parses it. Comments, CDATA and processing
 * instructions are dropped. Beyond that, the few rules that make an HTML parser move elements
 * (a block inside a `<p>`, a link in a link, a button in a button, table parts out of place, an
 * HTML element inside MathML) are applied here, so the page's parse gives exactly this tree.
 */
import { Parser } from 'htmlparser2';

// Where an element sits, which decides what is allowed in it.
const HTML = 0;
const CODE = 1;
const KATEX = 2;
const MATHML = 3;
const SVG = 4;
const DROP = 5;
type Scope = typeof HTML | typeof CODE | typeof KATEX | typeof MATHML | typeof SVG | typeof DROP;

// Ancestors that make an HTML parser close or move an element (see `openHtml`).
const IN_P = 1;
const IN_A = 2;
const IN_BUTTON = 4;
const IN_HEADING = 8;

interface Frame {
  /** The end tag to write when this element closes ('' when its start tag was not written). */
  close: string;
  /** What the element's children may be. */
  scope: Scope;
  flags: number;
  /** The nearest written ancestor of the children (the element itself when written). */
  parent: string;
}

/** Elements whose content goes with them: code, raw text, or foreign markup that embeds HTML. */
const DROP_WHOLE = new Set([
  'script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'textarea', 'title', 'xmp',
  'noembed', 'noframes', 'plaintext', 'select', 'head', 'frameset', 'applet',
  'foreignObject', 'foreignobject', 'desc', 'annotation-xml', 'mglyph', 'malignmark',
]);

const MARKDOWN_ELEMENTS = new Set([
  'p', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'em', 'strong', 'del', 's', 'blockquote', 'ul', 'ol', 'li',
  'a', 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'pre', 'code', 'span', 'div', 'button', 'figure',
]);
const VOID = new Set(['br', 'hr', 'img']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Start tags that close an open `<p>` (HTML's "close a p element"), among the allowed ones. */
const CLOSES_P = new Set(['p', 'div', 'ul', 'ol', 'li', 'table', 'pre', 'blockquote', 'figure', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Where non-blank text would be moved out of the table by the parser ("foster parenting"). */
const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tr']);

/**
 * KaTeX's MathML. In mi/mo/mn/ms/mtext the page's parser makes child elements HTML ones (KaTeX
 * puts an <mover> in an <mo> for \stackrel): none of these names means anything in HTML, so they
 * are inert in either namespace.
 */
const MATHML_ELEMENTS = new Set([
  'math', 'semantics', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub', 'msubsup', 'mfrac', 'msqrt',
  'mroot', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd', 'mstyle', 'mpadded', 'mphantom', 'menclose', 'annotation',
]);
/** KaTeX's MathML attributes: layout only (MathML's `href` is left out on purpose). */
const MATHML_ATTRIBUTES = new Set([
  'display', 'encoding', 'fence', 'lspace', 'rspace', 'maxsize', 'minsize', 'separator', 'stretchy', 'largeop', 'movablelimits',
  'symmetric', 'accent', 'accentunder', 'mathvariant', 'depth', 'height', 'width', 'voffset', 'mathbackground', 'mathcolor',
  'mathsize', 'displaystyle', 'scriptlevel', 'linebreak', 'columnalign', 'columnlines', 'columnspacing', 'rowalign', 'rowlines',
  'rowspacing', 'linethickness', 'notation',
]);
/** KaTeX's SVG (square roots, stretchy arrows and braces): element → attribute (parsed lower case) → as written. */
const SVG_ELEMENTS = new Map<string, Map<string, string>>([
  ['svg', new Map([['width', 'width'], ['height', 'height'], ['viewbox', 'viewBox'], ['preserveaspectratio', 'preserveAspectRatio']])],
  ['path', new Map([['d', 'd']])],
  ['line', new Map([['x1', 'x1'], ['y1', 'y1'], ['x2', 'x2'], ['y2', 'y2'], ['stroke-width', 'stroke-width']])],
]);
/** The CSS properties KaTeX sets inline (its layout: struts, shifts, rules, colours). */
const KATEX_STYLE = new Set([
  'background-color', 'border', 'border-bottom-width', 'border-color', 'border-right-style', 'border-right-width', 'border-style',
  'border-top-width', 'border-width', 'bottom', 'color', 'height', 'left', 'margin', 'margin-left', 'margin-right', 'margin-top',
  'min-width', 'padding-left', 'position', 'text-shadow', 'top', 'vertical-align', 'width',
]);

/**
 * KaTeX caps a formula's own sizes (maxSize, 20 em) but not negative ones (`\kern-500em`,
 * `\raisebox{-500em}`), which could shift text far over the rest of the reply: a margin beyond
 * 20 em, or any length beyond 200 em (taller than the tallest matrix a reply would hold), is dropped.
 */
const MAX_MARGIN_EM = 20;
const MAX_LENGTH_EM = 200;
/** Every number in a value, whole (with its exponent, if any) and with its unit. */
const NUMBER = /([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)([a-z%]*)/gi;
/** Units KaTeX writes lengths in; a length in any other (vw, px, …) did not come from it. */
const KATEX_UNITS = new Set(['em', 'px', '%', '']);

/**
 * Lengths within bounds, read whole: `-1e+21em` is a length of 10²¹ em, not 21 (KaTeX writes
 * what a formula asks for, `\raisebox{-1000000000000000000000em}` included).
 */
function withinBounds(property: string, value: string): boolean {
  // A colour is no length (`#1e90ff` would read as one).
  if (property.endsWith('color')) return true;
  const bound = property.startsWith('margin') ? MAX_MARGIN_EM : MAX_LENGTH_EM;
  for (const [, n, unit] of value.matchAll(NUMBER)) {
    const u = unit!.toLowerCase();
    // A pixel is about a sixteenth of an em (KaTeX writes px only in a bold fallback's shadow).
    if (/e/i.test(n!) || !KATEX_UNITS.has(u) || Math.abs(Number(n)) > (u === '%' ? 100 : u === 'px' ? bound * 16 : bound)) return false;
  }
  return true;
}

/** Lengths, numbers, keywords and colours: no `(` (url(), expression()), `\`, `:`, `/`, `@`, quotes. */
const PLAIN_VALUE = /^[-+#.%\w\s]*$/;
/** The same, with `/` for MathML's `encoding="application/x-tex"`. */
const MATHML_VALUE = /^[-+#.%/\w\s]*$/;
const PATH_DATA = /^[-+.,\w\s]*$/;
const CLASS_TOKEN = /^[\w-]+$/;
/** highlight.js's classes: `hljs-keyword`, a sub-scope's `class_`, an embedded `language-css`. */
const HLJS_TOKEN = /^(?:hljs-[\w-]+|[a-z]+_+|language-[\w+#.-]+)$/;
const DATA_ATTRIBUTE = /^data-[a-z0-9_-]+$/;
const TEXT_ALIGN = /^\s*text-align\s*:\s*(left|right|center)\s*;?\s*$/i;
const SAFE_HREF = /^(?:https?:|mailto:|#)/i;
const INLINE_IMAGE = /^data:image\/(?:png|jpeg|gif|webp);/i;
/** What a browser strips from an address before reading its scheme: C0 controls and spaces at the ends, tabs and newlines anywhere. */
// eslint-disable-next-line no-control-regex -- control characters are what it strips
const URL_TRIM = /^[\u0000-\u0020]+|[\u0000-\u0020]+$|[\t\n\r]/g;

/** Attributes every markdown element may carry: inert strings the page's code reads. */
const GLOBAL_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-pressed', 'aria-expanded', 'aria-haspopup', 'aria-hidden', 'role']);

const TEXT_SPECIAL = /[&<>\u0000]/g; // eslint-disable-line no-control-regex
const ATTRIBUTE_SPECIAL = /[&<>"\u0000]/g; // eslint-disable-line no-control-regex
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\u0000': '\uFFFD' };
const entity = (c: string): string => ENTITIES[c]!;

// NUL becomes U+FFFD, as the page's parser would make it (or drop it) anyway.
function escapeText(text: string): string {
  TEXT_SPECIAL.lastIndex = 0;
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIAL, entity) : text;
}

function escapeAttribute(value: string): string {
  ATTRIBUTE_SPECIAL.lastIndex = 0;
  return ATTRIBUTE_SPECIAL.test(value) ? value.replace(ATTRIBUTE_SPECIAL, entity) : value;
}

function attribute(name: string, value: string): string {
  return ` ${name}="${escapeAttribute(value)}"`;
}

function classes(value: string, allowed: RegExp): string {
  let kept = '';
  for (const token of value.split(/[\t\n\f\r ]+/)) if (token !== '' && allowed.test(token)) kept += kept === '' ? token : ` ${token}`;
  return kept;
}

function hasClass(value: string | undefined, name: string): boolean {
  return value !== undefined && value.split(/[\t\n\f\r ]+/).includes(name);
}

/** KaTeX's inline style, declaration by declaration: known properties with plain values only (as written when all are). */
function katexStyle(value: string): string {
  let kept = '';
  let all = true;
  for (const declaration of value.split(';')) {
    const colon = declaration.indexOf(':');
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const val = declaration.slice(colon + 1).trim();
    if (colon === -1 || !KATEX_STYLE.has(property) || val === '' || !PLAIN_VALUE.test(val) || (property === 'position' && val !== 'relative') || !withinBounds(property, val)) {
      all &&= declaration.trim() === '';
      continue;
    }
    kept += `${property}:${val};`;
  }
  return all ? value : kept;
}

function htmlAttributes(name: string, attributes: Record<string, string>): string {
  let out = '';
  for (const key in attributes) {
    const value = attributes[key]!;
    if (key === 'class') {
      const kept = classes(value, CLASS_TOKEN);
      if (kept !== '') out += attribute('class', kept);
    } else if (GLOBAL_ATTRIBUTES.has(key) || DATA_ATTRIBUTE.test(key)) {
      out += attribute(key, value);
    } else if (key === 'hidden') {
      out += attribute(key, value);
    } else if (key === 'tabindex') {
      if (/^-?\d{1,3}$/.test(value.trim())) out += attribute(key, value.trim());
    } else if (name === 'a' && key === 'href') {
      const href = value.replace(URL_TRIM, '');
      if (SAFE_HREF.test(href)) out += attribute('href', href);
    } else if (name === 'img' && key === 'alt') {
      out += attribute(key, value);
    } else if (name === 'ol' && key === 'start') {
      if (/^\d{1,9}$/.test(value.trim())) out += attribute(key, value.trim());
    } else if ((name === 'td' || name === 'th') && key === 'style') {
      const align = TEXT_ALIGN.exec(value)?.[1];
      if (align !== undefined) out += attribute('style', `text-align:${align.toLowerCase()}`);
    }
  }
  if (name === 'a') out += ' target="_blank" rel="noopener noreferrer nofollow"';
  if (name === 'button') out += ' type="button"';
  return out;
}

/**
 * KaTeX's attributes on its HTML spans and its MathML: classes and checked styles, and what
 * `other` allows besides (`aria-hidden` on a span; MathML's own attributes).
 */
function katexAttributes(attributes: Record<string, string>, other: (key: string, value: string) => boolean): string {
  let out = '';
  for (const key in attributes) {
    const value = attributes[key]!;
    if (key === 'class') {
      const kept = classes(value, CLASS_TOKEN);
      if (kept !== '') out += attribute('class', kept);
    } else if (key === 'style') {
      const kept = katexStyle(value);
      if (kept !== '') out += attribute('style', kept);
    } else if (other(key, value)) {
      out += attribute(key, value);
    }
  }
  return out;
}

const spanAttribute = (key: string): boolean => key === 'aria-hidden';
const mathmlAttribute = (key: string, value: string): boolean => MATHML_ATTRIBUTES.has(key) && MATHML_VALUE.test(value);

function svgAttributes(allowed: Map<string, string>, attributes: Record<string, string>): string {
  let out = '';
  for (const key in attributes) {
    const value = attributes[key]!;
    if (key === 'style') {
      const kept = katexStyle(value);
      if (kept !== '') out += attribute('style', kept);
      continue;
    }
    const written = allowed.get(key);
    if (written !== undefined && (key === 'd' ? PATH_DATA : PLAIN_VALUE).test(value)) out += attribute(written, value);
  }
  return out;
}

class Sanitizer {
  private out: string[] = [];
  private readonly stack: Frame[] = [];
  private readonly root: Frame = { close: '', scope: HTML, flags: 0, parent: '' };

  private top(): Frame {
    return this.stack[this.stack.length - 1] ?? this.root;
  }

  run(html: string): string {
    this.out = [];
    this.stack.length = 0;
    const parser = new Parser(
      {
        onopentag: (name, attributes) => this.open(name, attributes),
        onclosetag: () => this.close(),
        ontext: (text) => this.text(text),
        // Comments, CDATA outside foreign content and processing instructions are not listened to: dropped.
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
    parser.end(html);
    const result = this.out.join('');
    this.out = [];
    return result;
  }

  /** The element is left out but its children are looked at where it stood. */
  private unwrap(from: Frame): void {
    this.stack.push({ close: '', scope: from.scope, flags: from.flags, parent: from.parent });
  }

  private write(name: string, attributes: string, scope: Scope, flags: number, isVoid = false): void {
    this.out.push(`<${name}${attributes}>`);
    this.stack.push({ close: isVoid ? '' : `</${name}>`, scope, flags, parent: name });
  }

  private open(name: string, attributes: Record<string, string>): void {
    const top = this.top();
    if (top.scope === DROP || DROP_WHOLE.has(name)) {
      this.stack.push({ close: '', scope: DROP, flags: 0, parent: top.parent });
      return;
    }
    switch (top.scope) {
      case HTML:
        return this.openHtml(name, attributes, top);
      case CODE: {
        const kept = name === 'span' && attributes.class !== undefined ? classes(attributes.class, HLJS_TOKEN) : '';
        if (kept === '') return this.unwrap(top);
        return this.write('span', attribute('class', kept), CODE, top.flags);
      }
      case KATEX:
        if (name === 'span') return this.write(name, katexAttributes(attributes, spanAttribute), KATEX, top.flags);
        if (name === 'math') return this.write(name, katexAttributes(attributes, mathmlAttribute), MATHML, top.flags);
        if (name === 'svg') return this.write(name, svgAttributes(SVG_ELEMENTS.get('svg')!, attributes), SVG, top.flags);
        return this.unwrap(top);
      case MATHML:
        if (name !== 'math' && MATHML_ELEMENTS.has(name)) return this.write(name, katexAttributes(attributes, mathmlAttribute), MATHML, top.flags);
        return this.unwrap(top);
      case SVG: {
        const allowed = name === 'svg' ? undefined : SVG_ELEMENTS.get(name);
        if (allowed === undefined) return this.unwrap(top);
        return this.write(name, svgAttributes(allowed, attributes), SVG, top.flags);
      }
    }
  }

  private openHtml(name: string, attributes: Record<string, string>, top: Frame): void {
    const parent = top.parent;
    // Table parts only in their places: anything else inside a table would be moved out of it
    // by the page's parser (so it goes whole), and a table part elsewhere is ignored by it.
    if (TABLE_PARTS.has(parent)) {
      const fits = parent === 'table' ? name === 'thead' || name === 'tbody' : parent === 'tr' ? name === 'td' || name === 'th' : name === 'tr';
      if (!fits) {
        this.stack.push({ close: '', scope: DROP, flags: 0, parent });
        return;
      }
    } else if (name === 'thead' || name === 'tbody' || name === 'tr' || name === 'td' || name === 'th') {
      return this.unwrap(top);
    }
    if (!MARKDOWN_ELEMENTS.has(name)) return this.unwrap(top);
    if (
      (name === 'li' && parent !== 'ul' && parent !== 'ol') ||
      (top.flags & IN_P && CLOSES_P.has(name)) ||
      (top.flags & IN_A && name === 'a') ||
      (top.flags & IN_BUTTON && name === 'button') ||
      (top.flags & IN_HEADING && HEADINGS.has(name))
    ) {
      return this.unwrap(top);
    }
    if (name === 'img') {
      const src = (attributes.src ?? '').replace(URL_TRIM, '');
      if (!INLINE_IMAGE.test(src)) return this.unwrap(top);
      return this.write(name, attribute('src', src) + htmlAttributes(name, attributes), HTML, top.flags, true);
    }
    let flags = top.flags;
    if (name === 'p') flags |= IN_P;
    else if (name === 'a') flags |= IN_A;
    else if (name === 'button') flags = (flags & ~IN_P) | IN_BUTTON;
    else if (HEADINGS.has(name)) flags |= IN_HEADING;
    // Scope boundaries of the HTML parser's "has a p/button in scope" and of its link markers.
    if (name === 'table' || name === 'td' || name === 'th') flags &= ~(IN_P | IN_A | IN_BUTTON);
    const scope = name === 'code' ? CODE : name === 'span' && hasClass(attributes.class, 'katex') ? KATEX : HTML;
    this.write(name, htmlAttributes(name, attributes), scope, flags, VOID.has(name));
  }

  private close(): void {
    const frame = this.stack.pop();
    if (frame !== undefined && frame.close !== '') this.out.push(frame.close);
  }

  private text(text: string): void {
    const top = this.top();
    if (top.scope === DROP) return;
    if (TABLE_PARTS.has(top.parent) && /[^\t\n\f\r ]/.test(text)) return;
    this.out.push(escapeText(text));
  }
}

const sanitizer = new Sanitizer();

/** Rendered HTML (markdown, highlighting, KaTeX) → the same HTML with only what each renderer may output, safe for innerHTML. */
export function sanitizeRendered(html: string): string {
  return sanitizer.run(html);
}

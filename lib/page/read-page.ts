/**
 * A page's main content as text: Mozilla's Readability on a copy of the document (the page is
 * never changed), its article turned into plain text with paragraphs, headings and list items
 * kept apart; where Readability finds no article, the body's visible text. Runs in the page (the
 * `readability` script the background injects on the user's gesture) and in unit tests.
 */
import { Readability } from '@mozilla/readability';

export interface PageContent {
  title: string;
  url: string;
  text: string;
  /** How the text was found: Readability's article, or the body's visible text. */
  method: 'article' | 'body';
  /** The document's type (`application/pdf` in a browser's PDF viewer). */
  contentType: string;
  /** Set when the page held more text than was read (`maxChars`): about how much it held. */
  totalChars?: number;
}

export interface ReadOptions {
  /** The body's text as the browser lays it out (`innerText`, which leaves hidden things out); without layout (tests), its structure. */
  visibleText?: () => string;
  /**
   * Read no more than about this many characters: more than a request may carry is never
   * analysed (a 2 MB page would keep Readability busy for most of a second, for text that
   * would be cut anyway). The rest of the page is dropped from the copy Readability reads.
   */
  maxChars?: number;
}

/** Below this many characters an "article" is a fragment (a cookie banner, a caption): the body is read instead. */
const MIN_ARTICLE_CHARS = 200;
/** Readability gives up on documents with more elements than this (the body's text is read instead). */
const MAX_ELEMENTS = 60_000;

/** Blocks set apart by a blank line, and those that only start a new line. */
const PARAGRAPHS = new Set(['P', 'PRE', 'BLOCKQUOTE', 'TABLE', 'UL', 'OL', 'DL', 'FIGURE', 'HR']);
const BLOCKS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'DT', 'DD', 'TR', 'FIGCAPTION', 'FORM', 'FIELDSET', 'DETAILS', 'SUMMARY', 'ADDRESS']);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'BUTTON', 'SELECT', 'TEXTAREA', 'INPUT']);

/** An element's text with its structure as line breaks: blocks apart, headings marked, list items dashed, cells tabbed. One pass, linear in the page's size. */
export function blockText(root: Element): string {
  const parts: string[] = [];
  let started = false;
  let newlines = 0;
  let space = false;
  const words = (text: string): void => {
    const body = text.replace(/\s+/g, ' ');
    if (body === '') return;
    if (body.startsWith(' ')) space = true;
    const trimmed = body.trim();
    if (trimmed === '') return;
    if (space && started && newlines === 0) parts.push(' ');
    parts.push(trimmed);
    started = true;
    newlines = 0;
    space = body.endsWith(' ');
  };
  const raw = (text: string): void => {
    if (text === '') return;
    parts.push(text);
    started = true;
    const tail = /\n*$/.exec(text)![0].length;
    newlines = tail === text.length ? newlines + tail : tail;
    space = false;
  };
  const lineBreak = (count: 1 | 2): void => {
    space = false;
    if (!started || newlines >= count) return;
    parts.push('\n'.repeat(count - newlines));
    newlines = count;
  };
  const mark = (text: string): void => {
    if (started && newlines === 0 && space) parts.push(' ');
    parts.push(text);
    started = true;
    newlines = 0;
    space = false;
  };
  const walk = (node: Node, pre: boolean): void => {
    if (node.nodeType === 3) {
      if (pre) raw(node.nodeValue ?? '');
      else words(node.nodeValue ?? '');
      return;
    }
    if (node.nodeType !== 1) return;
    const el = node as Element;
    const tag = el.tagName.toUpperCase();
    if (SKIP.has(tag) || el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true') return;
    if (tag === 'BR') return raw('\n');
    const heading = /^H([1-6])$/.exec(tag);
    const paragraph = heading !== null || PARAGRAPHS.has(tag);
    if (paragraph) lineBreak(2);
    else if (BLOCKS.has(tag) || tag === 'LI') lineBreak(1);
    if (heading !== null) mark(`${'#'.repeat(Number(heading[1]))} `);
    else if (tag === 'LI') mark('- ');
    else if ((tag === 'TD' || tag === 'TH') && el.previousElementSibling !== null) mark('\t');
    const inPre = pre || tag === 'PRE';
    for (let child = el.firstChild; child !== null; child = child.nextSibling) walk(child, inPre);
    if (paragraph) lineBreak(2);
    else if (BLOCKS.has(tag) || tag === 'LI') lineBreak(1);
  };
  walk(root, false);
  return parts.join('').trim();
}

/**
 * Reads `doc`'s main content. `visibleText` is the body's text as the browser lays it out
 * (`innerText`, which leaves hidden things out); without layout (tests), the body's structure.
 */
const NOT_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

/** The body's text nodes in document order (not scripts' or styles'). */
function textNodes(doc: Document, root: Node): TreeWalker {
  return doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */, {
    acceptNode: (node) => (NOT_TEXT.has(node.parentElement?.tagName.toUpperCase() ?? '') ? 2 /* FILTER_REJECT */ : 1 /* FILTER_ACCEPT */),
  });
}

/** About how many characters of text a part of the page holds (runs of spaces counted as one). */
export function textSize(doc: Document, root: Node): number {
  let size = 0;
  const walker = textNodes(doc, root);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const value = node.nodeValue ?? '';
    if (value.length < 80) size += value.trim() === '' ? 0 : value.trim().length + 1;
    else size += value.replace(/\s+/g, ' ').length;
  }
  return size;
}

/** Drops everything after the first `maxChars` characters of text from `root` (a copy). */
function cutAfter(doc: Document, root: Node, maxChars: number): void {
  let size = 0;
  const walker = textNodes(doc, root);
  let node = walker.nextNode();
  for (; node !== null; node = walker.nextNode()) {
    size += (node.nodeValue ?? '').replace(/\s+/g, ' ').length;
    if (size > maxChars) break;
  }
  for (let at: Node | null = node; at !== null && at !== root; at = at.parentNode) {
    while (at.nextSibling !== null) at.parentNode!.removeChild(at.nextSibling);
  }
}

/** Readability's article in a copy of the document (it takes apart what it is given), if it finds one. */
function articleOf(doc: Document, maxChars: number | undefined): { title: string; element: Element } | undefined {
  try {
    const copy = doc.cloneNode(true) as Document;
    if (maxChars !== undefined && copy.body !== null) cutAfter(copy, copy.body, maxChars);
    const article = new Readability<Node>(copy, { maxElemsToParse: MAX_ELEMENTS, serializer: (node) => node }).parse();
    const element = article?.content;
    if (element === null || element === undefined || element.nodeType !== 1) return undefined;
    return { title: (article?.title ?? '').trim(), element: element as Element };
  } catch {
    // Too many elements, or a document it cannot take: the body's text is read instead.
    return undefined;
  }
}

export function readPage(doc: Document, url: string, options: ReadOptions = {}): PageContent {
  const contentType = doc.contentType || 'text/html';
  const title = doc.title.trim();
  // Only a page with more text than a request may carry is cut (and measured to say so).
  const total = options.maxChars === undefined || doc.body === null ? undefined : textSize(doc, doc.body);
  const cut = total !== undefined && options.maxChars !== undefined && total > options.maxChars ? options.maxChars : undefined;
  const held = cut === undefined ? {} : { totalChars: total };
  const article = articleOf(doc, cut);
  const text = article === undefined ? '' : blockText(article.element);
  if (article !== undefined && text.length >= MIN_ARTICLE_CHARS) return { title: title || article.title, url, text, method: 'article', contentType, ...held };
  const body = (options.visibleText?.() ?? (doc.body === null ? '' : blockText(doc.body))).replace(/\n{3,}/g, '\n\n').trim();
  return { title, url, text: cut === undefined ? body : body.slice(0, cut), method: 'body', contentType, ...held };
}

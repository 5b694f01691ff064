/**
 * Two readings of one HTML string, to compare: htmlparser2's (what the sanitiser saw when it
 * wrote it) and jsdom's (the HTML standard's parser, as the page's innerHTML reads it). Each is
 * written out the same way: elements with their namespace and sorted attributes, text as JSON.
 */
import { parseDocument } from 'htmlparser2';

const NAMESPACES: Record<string, string> = {
  'http://www.w3.org/1999/xhtml': 'html',
  'http://www.w3.org/1998/Math/MathML': 'math',
  'http://www.w3.org/2000/svg': 'svg',
};

const TEXT_INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext']);

type HpNode = { type: string; name?: string; attribs?: Record<string, string>; data?: string; children?: HpNode[] };

function hpTree(nodes: HpNode[], ns: string, inPre = false): string {
  let out = '';
  for (const [index, node] of nodes.entries()) {
    // The HTML parser skips a newline right after <pre> (htmlparser2 keeps it).
    if (node.type === 'text') out += JSON.stringify(inPre && index === 0 ? node.data!.replace(/^\n/, '') : node.data);
    else if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const name = node.name!.toLowerCase();
      const own = name === 'math' ? 'math' : name === 'svg' ? 'svg' : ns;
      // In MathML's text elements the HTML parser makes child elements HTML ones (KaTeX's \stackrel puts an <mover> in an <mo>).
      const childNs = own === 'math' && TEXT_INTEGRATION.has(name) ? 'html' : own;
      const attributes = Object.entries(node.attribs ?? {})
        .map(([k, v]) => `${k.toLowerCase()}=${JSON.stringify(v)}`)
        .sort()
        .join(' ');
      out += `<${own}:${name}${attributes === '' ? '' : ` ${attributes}`}>${hpTree(node.children ?? [], childNs, own === 'html' && name === 'pre')}</>`;
    }
  }
  return out;
}

/** The tree the sanitiser meant: its output read back by htmlparser2 (math and svg give their namespace to what they hold). */
export function writtenTree(html: string): string {
  return hpTree(parseDocument(html, { decodeEntities: true }).children as unknown as HpNode[], 'html');
}

function domTree(parent: Node): string {
  let out = '';
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === 3) out += JSON.stringify(node.nodeValue);
    else if (node.nodeType === 1) {
      const el = node as Element;
      const attributes = Array.from(el.attributes)
        .map((a) => `${a.name.toLowerCase()}=${JSON.stringify(a.value)}`)
        .sort()
        .join(' ');
      out += `<${NAMESPACES[el.namespaceURI ?? ''] ?? '?'}:${el.localName.toLowerCase()}${attributes === '' ? '' : ` ${attributes}`}>${domTree(el)}</>`;
    } else out += `<!${node.nodeType}>`;
  }
  return out;
}

/** The tree a page gets from `innerHTML = html` inside a `<div>`. */
export function pageTree(html: string): string {
  const div = document.createElement('div');
  div.innerHTML = html;
  return domTree(div);
}

/** `html` set as a `<div>`'s innerHTML, as the page does. */
export function onPage(html: string): HTMLDivElement {
  const div = document.createElement('div');
  div.innerHTML = html;
  return div;
}

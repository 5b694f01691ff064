/**
 * The sentence being read aloud, highlighted in the reply (issue 32): found in the reply's
 * rendered text (whitespace made single spaces on both sides) and marked with the CSS Custom
 * Highlight API, so nothing in the reply's DOM changes. A piece that is not in the text as
 * written (a code block announced by its language, say) is left unmarked.
 */

const NAME = 'read-aloud';

interface HighlightRegistry {
  set(name: string, highlight: unknown): void;
  delete(name: string): void;
}

function registry(): { highlights: HighlightRegistry; Highlight: new (...ranges: Range[]) => unknown } | undefined {
  const highlights = (globalThis as { CSS?: { highlights?: HighlightRegistry } }).CSS?.highlights;
  const Highlight = (globalThis as { Highlight?: new (...ranges: Range[]) => unknown }).Highlight;
  return highlights === undefined || Highlight === undefined ? undefined : { highlights, Highlight };
}

const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Where the last piece marked ended: the next is looked for after it (a sentence said twice is marked where it is said). */
let previous: { root: Element; end: number } | undefined;

/** Marks `piece` in `root`'s text, after the piece before it unless `restart`; true when it was found. */
export function highlightSpoken(root: Element, piece: string, restart = false): boolean {
  const api = registry();
  if (api === undefined) return false;
  api.highlights.delete(NAME);
  const wanted = squeeze(piece);
  if (wanted === '') return false;
  // The text with single spaces, and where each of its characters is in the DOM.
  let flat = '';
  const at: { node: Text; offset: number }[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node !== null; node = walker.nextNode() as Text | null) {
    // Buttons' words (Copy, Wrap lines) are not the reply's.
    const button = node.parentElement?.closest('button');
    if (button !== null && button !== undefined) continue;
    const text = node.data;
    for (let i = 0; i < text.length; i++) {
      const space = /\s/.test(text[i]!);
      if (space && (flat === '' || flat.endsWith(' '))) continue;
      flat += space ? ' ' : text[i];
      at.push({ node, offset: i });
    }
  }
  const from = !restart && previous?.root === root ? previous.end : 0;
  const find = (text: string): number => {
    const after = flat.indexOf(text, from);
    return after >= 0 ? after : flat.indexOf(text);
  };
  let start = find(wanted);
  let end = start + wanted.length;
  if (start < 0) {
    // Its beginning and its end, where the middle was spoken differently.
    const head = wanted.slice(0, 24);
    const tail = wanted.slice(-24);
    start = find(head);
    const tailAt = start < 0 ? -1 : flat.indexOf(tail, start + head.length);
    if (start < 0 || tailAt < 0 || tailAt - start > wanted.length * 2) return false;
    end = tailAt + tail.length;
  }
  const first = at[start];
  const last = at[end - 1];
  if (first === undefined || last === undefined) return false;
  const range = document.createRange();
  range.setStart(first.node, first.offset);
  range.setEnd(last.node, last.offset + 1);
  api.highlights.set(NAME, new api.Highlight(range));
  previous = { root, end };
  return true;
}

/** Takes the mark away. */
export function clearSpoken(): void {
  registry()?.highlights.delete(NAME);
}

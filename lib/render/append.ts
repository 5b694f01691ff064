/**
 * A growing block's new rendering is, most frames, its last one with a few more characters of
 * text at the end (prose, a list item, a quote, a comment or string in code). Then the page need
 * not parse and compare the whole block again (morphdom: an HTML parse and a walk of every
 * node, each frame): it adds those characters to the last text node. This finds when that is so,
 * from the two renderings alone (the sanitiser's output: lib/render/sanitize.ts, whose text
 * escapes only `&`, `<` and `>`).
 */

/** Text added at the end of a rendering: inside the elements named (outermost first). */
export interface TextAppend {
  tags: string[];
  text: string;
}

const TAG_NAME = /^[a-z][a-z0-9-]*$/;
const ESCAPED = /&(amp|lt|gt);/g;
const UNESCAPED: Record<string, string> = { amp: '&', lt: '<', gt: '>' };

/**
 * When `next` is `previous` with text added just before its closing tags, that text (unescaped)
 * and the elements those closing tags close, outermost first; else undefined.
 */
export function appendedText(previous: string, next: string): TextAppend | undefined {
  if (next.length <= previous.length) return undefined;
  // The closing tags at the end of `previous` (and the newlines between them), from the last.
  const tags: string[] = [];
  let end = previous.length;
  for (;;) {
    let k = end;
    while (k > 0 && previous.charCodeAt(k - 1) === 10) k--;
    if (k === 0 || previous[k - 1] !== '>') break;
    const open = previous.lastIndexOf('<', k - 1);
    if (open < 0 || previous[open + 1] !== '/') break;
    const name = previous.slice(open + 2, k - 1);
    if (!TAG_NAME.test(name)) break;
    tags.push(name);
    end = open;
  }
  // The text before them ends a text node (not a tag: the new text would be a node of its own).
  if (end === 0 || previous[end - 1] === '>') return undefined;
  const closing = previous.slice(end);
  if (!next.endsWith(closing) || !next.startsWith(end === previous.length ? previous : previous.slice(0, end))) return undefined;
  const added = next.slice(end, next.length - closing.length);
  if (added === '' || added.includes('<') || added.includes('>')) return undefined;
  let text = added;
  if (added.includes('&')) {
    text = added.replace(ESCAPED, (_m, name: string) => UNESCAPED[name]!);
    // Every `&` was one of the sanitiser's escapes, or this is not its output.
    if (added.replace(ESCAPED, '').includes('&')) return undefined;
  }
  return { tags, text };
}

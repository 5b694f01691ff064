import type { TextAppend } from '@/lib/render/append';

/**
 * Adds `append`'s text to the last text node of `element` (which shows the rendering it was found
 * from: lib/render/append.ts), after checking that the elements it goes in are there, last, as
 * named; false (nothing changed) when they are not, as when an enhancer changed the block.
 */
export function appendText(element: Element, append: TextAppend): boolean {
  let node: Element = element;
  for (const tag of append.tags) {
    let child = node.lastChild;
    // The newlines between closing tags are text nodes of their own.
    while (child !== null && child.nodeType === Node.TEXT_NODE && /^\n*$/.test(child.textContent ?? '')) child = child.previousSibling;
    if (child === null || child.nodeType !== Node.ELEMENT_NODE || (child as Element).localName !== tag) return false;
    node = child as Element;
  }
  const last = node.lastChild;
  if (last === null || last.nodeType !== Node.TEXT_NODE) return false;
  (last as Text).appendData(append.text);
  return true;
}

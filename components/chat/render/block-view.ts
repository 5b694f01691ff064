import type Morph from 'morphdom';
import { appendedText } from '@/lib/render/append';
import { FAILED } from '@/lib/render/client';
import type { RenderedBlock } from '@/lib/render/worker/protocol';
import { currentWords, withMoreWords } from '@/components/i18n/words';
import { appendText } from './append-text';
import { makeFormulasFocusable } from './block-actions';
import { loadMathStyles } from './math-styles';
import { enhancePreviews } from './preview';

/**
 * morphdom updates a growing block in place; its code follows the page's first chunk (until it has
 * arrived, a growing block is set whole, as a finished one is).
 */
let morph: typeof Morph | undefined;
void import('morphdom').then((m) => {
  morph = m.default;
}, () => undefined);

/**
 * What one block's element shows: its text until its rendering arrives, then the rendering (or
 * its text again, if the worker could not render it). The element's content and class are set
 * here, never by React, so the same code draws a block whether React renders it (a finished
 * block, once) or the streaming path does (the growing block, each frame, without a React render:
 * components/chat/Markdown.tsx). A growing block's new rendering is morphed into what is there
 * (morphdom), so the parts that did not change (a formula, the lines of code above the last) stay
 * the same nodes and are neither laid out nor painted again; most frames only add text to its
 * last text node (lib/render/append.ts).
 */
export class BlockView {
  private shows: 'nothing' | 'text' | 'markup' = 'nothing';
  /** The rendering shown (while one is), or the text. */
  private applied = '';

  show(element: HTMLElement, source: string, block: RenderedBlock | undefined): void {
    if (block === undefined || block === FAILED) {
      if (this.shows === 'text' && this.applied === source) return;
      element.textContent = source;
      element.className = 'md-block md-plain';
      this.shows = 'text';
      this.applied = source;
      return;
    }
    if (this.shows === 'markup' && this.applied === block.html) return;
    const before = this.applied;
    const wasMarkup = this.shows === 'markup';
    this.applied = block.html;
    this.shows = 'markup';
    // Most frames of a growing block add text to its end: added to the last text node, nothing else is touched.
    if (wasMarkup) {
      const append = appendedText(before, block.html);
      if (append !== undefined && appendText(element, append)) return;
    }
    element.className = 'md-block';
    if (wasMarkup && morph !== undefined) {
      // Model output was sanitised in the worker (lib/render/sanitize.ts); morphdom parses it as innerHTML would.
      morph(element, `<div>${block.html}</div>`, { childrenOnly: true });
    } else {
      element.innerHTML = block.html;
    }
    if (block.math) {
      // KaTeX's styles and fonts come with the first formula (a file of the extension's own).
      void loadMathStyles();
      makeFormulasFocusable(element);
    }
    const words = currentWords();
    enhancePreviews(element, words);
    // Mermaid and its sanitiser load with the first diagram, never with the page (and its labels with the more words).
    if (block.diagram) void withMoreWords(() => import('./diagrams')).then((m) => m.enhanceDiagrams(element, words));
  }
}

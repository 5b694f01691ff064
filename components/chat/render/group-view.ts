import type { RenderedBlock } from '@/lib/render/worker/protocol';
import { BlockView } from './block-view';

/**
 * A run of a reply's blocks (a group: components/chat/Markdown.tsx), each its own element drawn
 * by its `BlockView`, in order, as the group element's children. The children are made and set
 * here, never by React (which renders the group element alone), so the same code adds a block
 * whether React draws the group or a streaming reply's frame does without a React render.
 */
export class GroupView {
  private readonly views: BlockView[] = [];

  /** Shows `source` (as `block`, once rendered) as the group's `j`th block; returns its element. */
  draw(group: HTMLElement, j: number, source: string, block: RenderedBlock | undefined): HTMLElement {
    let element = group.children[j] as HTMLElement | undefined;
    if (element === undefined) {
      element = document.createElement('div');
      element.className = 'md-block md-plain';
      group.append(element);
    }
    this.at(j).show(element, source, block);
    return element;
  }

  /** The view that draws the `j`th block. */
  at(j: number): BlockView {
    return (this.views[j] ??= new BlockView());
  }

  /** The group holds its first `count` blocks only (a reply's text replaced by a shorter one). */
  trim(group: HTMLElement, count: number): void {
    while (group.children.length > count) group.lastElementChild?.remove();
    this.views.length = Math.min(this.views.length, count);
  }
}

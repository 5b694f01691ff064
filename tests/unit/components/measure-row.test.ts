import { describe, expect, it } from 'vitest';
import type { Virtualizer } from '@tanstack/react-virtual';
import { measureRow } from '@/components/chat/VirtualMessages';

/** The little of a virtualiser that measuring a row reads: rows 0–2, row 1 already told 500 px. */
function virtualizer(): Virtualizer<HTMLDivElement, Element> {
  const keys = ['m0', 'm1', 'm2'];
  return {
    indexFromElement: (element: Element) => Number((element as HTMLElement).dataset.index),
    itemSizeCache: new Map([['m1', 500]]),
    options: { getItemKey: (index: number) => keys[index]!, estimateSize: (index: number) => 100 + index },
  } as unknown as Virtualizer<HTMLDivElement, Element>;
}

function row(index: number): HTMLElement {
  const element = { dataset: { index: String(index) } } as unknown as HTMLElement;
  // Read as it is inserted, a row would say whatever the browser has laid out so far: it must not be asked.
  Object.defineProperty(element, 'offsetHeight', { get: () => { throw new Error('read as inserted'); } });
  Object.defineProperty(element, 'getBoundingClientRect', { get: () => { throw new Error('read as inserted'); } });
  return element;
}

describe('a long conversation\'s row heights', () => {
  it('a row just drawn keeps its guess until its ResizeObserver tells its size; a size told is kept', () => {
    const v = virtualizer();
    expect(measureRow(row(0), undefined, v)).toBe(100);
    expect(measureRow(row(2), undefined, v)).toBe(102);
    expect(measureRow(row(1), undefined, v)).toBe(500);
    const entry = { borderBoxSize: [{ blockSize: 934.6, inlineSize: 800 }] } as unknown as ResizeObserverEntry;
    expect(measureRow(row(0), entry, v)).toBe(935);
  });
});

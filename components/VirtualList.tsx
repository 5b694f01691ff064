import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, type ReactNode } from 'react';

interface VirtualListProps<T> {
  /** The list's accessible name. */
  label: string;
  items: readonly T[];
  /** A first guess of a row's height; rows are measured once drawn. */
  estimateSize: number;
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  /**
   * Each row's height when rows are drawn to a known size: then they are not measured (with
   * thousands of rows, measuring the drawn ones as they change costs more than drawing them).
   */
  rowSize?(item: T): number;
}

/** A scrolling list that draws only the rows in view (thousands of models or conversations). */
export function VirtualList<T>({ label, items, estimateSize, itemKey, renderItem, rowSize }: VirtualListProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  // The key and size functions change with the items only: the virtualiser recomputes every
  // row's place when they change, which it must not do on each render.
  const latest = useRef({ itemKey, rowSize });
  useLayoutEffect(() => {
    latest.current = { itemKey, rowSize };
  });
  const getItemKey = useCallback((index: number) => latest.current.itemKey(items[index]!), [items]);
  const sized = rowSize !== undefined;
  const estimate = useCallback((index: number) => latest.current.rowSize?.(items[index]!) ?? estimateSize, [items, estimateSize]);
  const virtualizer = useVirtualizer({
    count: items.length, getScrollElement: () => scroller.current, overscan: 6, estimateSize: estimate, getItemKey,
    // Rows are drawn in the first frame, before the list's own size is measured: as many as the
    // window's height holds (a list is never taller), the rest once it is measured.
    initialRect: { width: 0, height: globalThis.innerHeight ?? 0 },
  });
  return (
    <div className="virtual-scroller min-h-0 flex-1 overflow-y-auto [contain:strict]" ref={scroller}>
      <div role="list" aria-label={label} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index]!;
          return (
            <div
              key={row.key} role="presentation" data-index={row.index} ref={sized ? undefined : virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)`, ...(sized ? { height: row.size, overflow: 'hidden' } : {}) }}
            >
              {renderItem(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

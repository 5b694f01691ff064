import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

interface VirtualListProps<T> {
  /** The list's accessible name. */
  label: string;
  items: readonly T[];
  /** A first guess of a row's height; rows are measured once drawn. */
  estimateSize: number;
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
}

/** A scrolling list that draws only the rows in view (thousands of models or conversations). */
export function VirtualList<T>({ label, items, estimateSize, itemKey, renderItem }: VirtualListProps<T>) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length, getScrollElement: () => scroller.current, estimateSize: () => estimateSize, overscan: 6,
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
            <div key={itemKey(item)} role="presentation" data-index={row.index} ref={virtualizer.measureElement} style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${row.start}px)` }}>
              {renderItem(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}

import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { Popover } from 'radix-ui';
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

interface ComboboxListProps<T> {
  anchor: RefObject<HTMLDivElement | null>;
  label: string;
  items: readonly T[];
  active: number;
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  itemLabel(item: T): string;
  emptyText: string;
  footer?: ReactNode;
  onActive(index: number): void;
  /** The listbox's id and the highlighted option's id, for the input's aria-controls and aria-activedescendant. */
  onIds(list: string | undefined, active: string | undefined): void;
  onPick(index: number): void;
  onDismiss(): void;
}

const ROW = 40;

/**
 * The open list of a Combobox: cmdk's listbox and options (no filtering of its own: the
 * caller ranks), virtualised so thousands of rows cost what the visible ones do, in a Radix
 * popover anchored under the input.
 */
export default function ComboboxList<T>({ anchor, label, items, active, itemKey, renderItem, itemLabel, emptyText, footer, onActive, onIds, onPick, onDismiss }: ComboboxListProps<T>) {
  const scroller = useRef<HTMLDivElement | null>(null);
  // The list mounts in a portal a moment after this component: its arrival renders again,
  // so the input learns the list's id at once.
  const [, setMounted] = useState(false);
  const listRef = useCallback((el: HTMLDivElement | null) => {
    scroller.current = el;
    setMounted(el !== null);
  }, []);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 8, initialRect: { width: 320, height: 320 } });
  const activeKey = items[active] === undefined ? '' : itemKey(items[active]);

  // Keep the highlighted row in view, and tell the input which option it is.
  useLayoutEffect(() => {
    if (items.length > 0) virtualizer.scrollToIndex(active, { align: 'auto' });
  }, [active, items.length, virtualizer]);
  useLayoutEffect(() => {
    const list = scroller.current;
    const active = activeKey === '' ? null : list?.querySelector(`[data-key="${CSS.escape(activeKey)}"]`);
    onIds(list?.id, active?.id);
  });

  return (
    <Popover.Root open onOpenChange={(open) => { if (!open) onDismiss(); }}>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLDivElement>} />
      <Popover.Portal>
        <Popover.Content
          aria-label={label}
          align="start"
          sideOffset={4}
          collisionPadding={8}
          // Focus stays in the input: typing goes on filtering while the list is open.
          onOpenAutoFocus={(e) => e.preventDefault()}
          onCloseAutoFocus={(e) => e.preventDefault()}
          onInteractOutside={(e) => { if (anchor.current?.contains(e.target as Node)) e.preventDefault(); }}
          // A click on a row must not take focus from the input first.
          onMouseDown={(e) => e.preventDefault()}
          className="animate-pop z-50 flex w-[max(var(--radix-popover-trigger-width),300px)] max-w-[calc(100vw-16px)] flex-col overflow-hidden rounded-md border border-line bg-raised shadow-pop"
        >
          <Command shouldFilter={false} loop={false} value={activeKey} onValueChange={(v) => { const i = items.findIndex((it) => itemKey(it) === v); if (i >= 0) onActive(i); }} label={label}>
            <Command.List ref={listRef} label={label} className="max-h-[min(340px,55vh)] overflow-y-auto overscroll-contain p-1">
              {items.length === 0
                ? <p role="status" className="px-3 py-6 text-center text-sm text-muted">{emptyText}</p>
                : (
                    <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                      {virtualizer.getVirtualItems().map((row) => {
                        const item = items[row.index]!;
                        const key = itemKey(item);
                        return (
                          <Command.Item
                            key={key}
                            value={key}
                            data-key={key}
                            aria-label={itemLabel(item)}
                            onSelect={() => onPick(row.index)}
                            aria-setsize={items.length}
                            aria-posinset={row.index + 1}
                            className="absolute inset-x-0 flex cursor-pointer items-center gap-2 rounded-sm px-2 text-sm text-fg data-[selected=true]:bg-accent-soft data-[selected=true]:text-accent-soft-fg"
                            style={{ top: 0, height: ROW, transform: `translateY(${row.start}px)` }}
                          >
                            {renderItem(item)}
                          </Command.Item>
                        );
                      })}
                    </div>
                  )}
            </Command.List>
          </Command>
          {footer !== undefined && <div className="border-t border-line bg-surface px-3 py-1.5 text-2xs text-muted">{footer}</div>}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

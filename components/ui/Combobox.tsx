import { ChevronDown } from 'lucide-react';
import { Suspense, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { lazyWithWords } from '@/components/i18n/words';
import { cx } from './cx';
import { fieldClass } from './Input';
import { isComposing } from './keys';

/** The list (cmdk, a Radix popover, a virtualiser) loads on first use or when the page is idle. */
const loadList = () => import('./ComboboxList');
const ComboboxList = lazyWithWords(loadList);
export const preloadComboboxList = (): void => void loadList();

export interface ComboboxProps<T> {
  /** The accessible name ("Model"). */
  label: string;
  /** The chosen item's text, shown while the list is closed. */
  display: string;
  placeholder?: string;
  /** The rows for what the user typed (called on every keystroke: keep it one pass). */
  search(query: string): readonly T[];
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  /** The option's accessible name (its text, and its state in words). */
  itemLabel(item: T): string;
  onSelect(item: T): void;
  /** Keys the caller handles while an item is highlighted (star it: Ctrl+S). */
  onItemKey?: (event: KeyboardEvent<HTMLInputElement>, item: T) => boolean;
  emptyText: string;
  /** A line under the list (how many, what keys do). */
  footer?: ReactNode;
  className?: string;
  inputRef?: React.Ref<HTMLInputElement>;
}

/**
 * An editable combobox (ARIA 1.2): the input shows the chosen item; typing filters the list
 * under it; arrows move, Enter chooses, Escape closes and keeps the choice. Focus never
 * leaves the input, so it works the same with a mouse, a keyboard or a screen reader.
 */
export function Combobox<T>({ label, display, placeholder, search, itemKey, renderItem, itemLabel, onSelect, onItemKey, emptyText, footer, className, inputRef }: ComboboxProps<T>) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [ids, setIds] = useState<{ list?: string; active?: string }>({});
  const anchor = useRef<HTMLDivElement>(null);
  // Ranked once per query: moving the highlight (arrows, hover) does not search again.
  const items = useMemo(() => (open ? search(query) : []), [open, query, search]);
  const index = Math.min(active, Math.max(0, items.length - 1));

  const show = (): void => {
    if (open) return;
    setQuery('');
    setActive(0);
    setOpen(true);
  };
  const close = (): void => {
    setOpen(false);
    setQuery('');
  };
  const choose = (item: T | undefined): void => {
    if (item === undefined) return;
    close();
    onSelect(item);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    // Keys of an input method's composition (a model name typed in pinyin, say) are the IME's.
    if (isComposing(event)) return;
    const move = (to: number): void => {
      event.preventDefault();
      if (!open) return show();
      setActive(Math.max(0, Math.min(items.length - 1, to)));
    };
    const item = items[index];
    if (open && item !== undefined && onItemKey?.(event, item) === true) {
      event.preventDefault();
      return;
    }
    switch (event.key) {
      case 'ArrowDown': return move(index + 1);
      case 'ArrowUp': return move(index - 1);
      case 'PageDown': return move(index + 8);
      case 'PageUp': return move(index - 8);
      case 'Enter':
        if (open) {
          event.preventDefault();
          choose(item);
        }
        return;
      case 'Escape':
        if (open) {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
        return;
      case 'Tab':
        close();
        return;
    }
  };

  return (
    <div ref={anchor} className={cx('relative min-w-0', className)}>
      <input
        ref={inputRef}
        role="combobox"
        aria-label={label}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open ? ids.list : undefined}
        aria-activedescendant={open ? ids.active : undefined}
        autoComplete="off"
        spellCheck={false}
        className={cx(fieldClass, 'h-8 pr-7 text-sm font-medium text-ellipsis')}
        placeholder={open ? display || placeholder : placeholder}
        value={open ? query : display}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={show}
        onFocus={preloadComboboxList}
        onBlur={close}
        onKeyDown={onKeyDown}
      />
      <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-2 size-4 -translate-y-1/2 text-muted" />
      {open && (
        <Suspense fallback={null}>
          <ComboboxList
            anchor={anchor}
            label={label}
            items={items}
            active={index}
            itemKey={itemKey}
            renderItem={renderItem}
            itemLabel={itemLabel}
            emptyText={emptyText}
            footer={footer}
            onActive={setActive}
            onIds={(list, active) => setIds((now) => (now.list === list && now.active === active ? now : { list, active }))}
            onPick={(i) => choose(items[i])}
            onDismiss={close}
          />
        </Suspense>
      )}
    </div>
  );
}

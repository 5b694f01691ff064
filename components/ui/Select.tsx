import { Check, ChevronDown } from 'lucide-react';
import { Select as S } from 'radix-ui';
import { cx } from './cx';
import { fieldClass } from './Input';

interface SelectProps<V extends string> {
  /** The accessible name (when no visible label names it). */
  label?: string;
  id?: string;
  value: V;
  options: readonly { value: V; label: string }[];
  onValueChange(value: V): void;
  className?: string;
  'aria-describedby'?: string;
}

/** A short list of choices (a theme, an interface): Radix's listbox, in our look. */
export function Select<V extends string>({ label, id, value, options, onValueChange, className, ...aria }: SelectProps<V>) {
  return (
    <S.Root value={value} onValueChange={(v) => onValueChange(v as V)}>
      <S.Trigger id={id} aria-label={label} className={cx(fieldClass, 'inline-flex h-9 cursor-pointer items-center justify-between gap-2 text-left', className)} {...aria}>
        <S.Value />
        <S.Icon><ChevronDown aria-hidden className="size-4 text-muted" /></S.Icon>
      </S.Trigger>
      <S.Portal>
        <S.Content position="popper" sideOffset={4} collisionPadding={8} className="animate-pop z-50 min-w-[var(--radix-select-trigger-width)] rounded-md border border-line bg-raised p-1 shadow-pop">
          <S.Viewport>
            {options.map((o) => (
              <S.Item key={o.value} value={o.value} className="relative flex h-8 cursor-pointer select-none items-center rounded-sm pr-2 pl-7 text-sm text-fg outline-none data-[highlighted]:bg-surface-2">
                <S.ItemIndicator className="absolute left-2 inline-flex"><Check aria-hidden className="size-3.5" /></S.ItemIndicator>
                <S.ItemText>{o.label}</S.ItemText>
              </S.Item>
            ))}
          </S.Viewport>
        </S.Content>
      </S.Portal>
    </S.Root>
  );
}

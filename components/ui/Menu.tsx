import { DropdownMenu as M } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cx } from './cx';

const item = cx(
  'relative flex h-8 cursor-pointer select-none items-center gap-2 rounded-sm px-2 text-sm text-fg outline-none',
  'data-[highlighted]:bg-surface-2 data-[disabled]:opacity-50 data-[disabled]:pointer-events-none [&_svg]:size-4 [&_svg]:text-muted',
);

/** A dropdown menu: Radix handles focus, arrow keys, typeahead and Escape. */
export function Menu({ trigger, children, align = 'end', label, defaultOpen }: { trigger: ReactNode; children: ReactNode; align?: 'start' | 'end'; label?: string; defaultOpen?: boolean }) {
  return (
    <M.Root defaultOpen={defaultOpen}>
      <M.Trigger asChild>{trigger}</M.Trigger>
      <M.Portal>
        <M.Content align={align} sideOffset={6} collisionPadding={8} aria-label={label} className="animate-pop z-50 min-w-48 rounded-md border border-line bg-raised p-1 shadow-pop">
          {children}
        </M.Content>
      </M.Portal>
    </M.Root>
  );
}

export function MenuItem({ className, ...rest }: ComponentProps<typeof M.Item>) {
  return <M.Item className={cx(item, className)} {...rest} />;
}

export function MenuLabel({ className, ...rest }: ComponentProps<typeof M.Label>) {
  return <M.Label className={cx('px-2 pt-1.5 pb-1 text-2xs font-semibold tracking-wide text-muted uppercase', className)} {...rest} />;
}

export function MenuSeparator() {
  return <M.Separator className="my-1 h-px bg-line" />;
}

/** A group of choices, one of them chosen (the theme). */
export function MenuRadioGroup({ label, value, onValueChange, options }: { label: string; value: string; onValueChange(value: string): void; options: { value: string; label: string }[] }) {
  return (
    <M.RadioGroup aria-label={label} value={value} onValueChange={onValueChange}>
      {options.map((o) => (
        <M.RadioItem key={o.value} value={o.value} className={cx(item, 'pl-7')}>
          <M.ItemIndicator className="absolute left-2 inline-flex size-3.5 items-center justify-center">
            <span className="size-1.5 rounded-full bg-accent" />
          </M.ItemIndicator>
          {o.label}
        </M.RadioItem>
      ))}
    </M.RadioGroup>
  );
}

/** A choice that is on or off (a tool in the composer's "Tools" menu); the menu stays open. */
export function MenuCheckboxItem({ className, children, ...rest }: ComponentProps<typeof M.CheckboxItem>) {
  return (
    <M.CheckboxItem className={cx(item, 'pl-7', className)} onSelect={(e) => e.preventDefault()} {...rest}>
      <M.ItemIndicator className="absolute left-2 inline-flex size-3.5 items-center justify-center text-accent [&_svg]:!size-3.5 [&_svg]:!text-accent">
        <svg viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round"><path d="M3 8.5l3.2 3L13 4.5" /></svg>
      </M.ItemIndicator>
      {children}
    </M.CheckboxItem>
  );
}

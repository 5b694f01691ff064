import { Tabs as T } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cx } from './cx';

/** Radix tabs (arrow keys between tabs, one panel shown), in our look. */
export const TabsRoot = T.Root;

export function TabsList({ className, ...rest }: ComponentProps<typeof T.List>) {
  return <T.List className={cx('flex shrink-0 gap-1 border-b border-line px-1', className)} {...rest} />;
}

export function TabsTrigger({ className, ...rest }: ComponentProps<typeof T.Trigger>) {
  return (
    <T.Trigger
      className={cx(
        '-mb-px inline-flex h-9 cursor-pointer items-center gap-1.5 border-b-2 border-transparent px-2.5 text-sm font-medium text-muted transition-colors',
        'hover:text-fg data-[state=active]:border-accent data-[state=active]:text-fg [&_svg]:size-4',
        'focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring rounded-t-sm',
        className,
      )}
      {...rest}
    />
  );
}

export function TabsContent({ className, ...rest }: ComponentProps<typeof T.Content>) {
  return <T.Content className={cx('flex min-h-0 flex-1 flex-col focus-visible:outline-none', className)} {...rest} />;
}

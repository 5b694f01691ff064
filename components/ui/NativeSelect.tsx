import { ChevronDown } from 'lucide-react';
import type { Ref, SelectHTMLAttributes } from 'react';
import { cx } from './cx';
import { fieldClass } from './Input';

/**
 * The browser's own select, in our look: for plain choices inside forms (an API style, a sort
 * order), where the platform's picker is what keyboard and screen-reader users know best.
 */
export function NativeSelect({ className, ref, ...rest }: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return (
    <div className="relative min-w-0">
      <select ref={ref} className={cx(fieldClass, 'h-9 w-full cursor-pointer appearance-none pr-8', className)} {...rest} />
      <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted" />
    </div>
  );
}

import type { ReactNode } from 'react';
import { buttonClass, type ButtonProps } from './Button';
import { cx } from './cx';
import { Tooltip } from './Tooltip';

interface IconButtonProps extends Omit<ButtonProps, 'children'> {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  icon: ReactNode;
  /** A longer tooltip than the name (a reason the button is off, a shortcut). */
  tip?: ReactNode;
  tooltipSide?: 'top' | 'bottom' | 'left' | 'right';
}

/** A square button showing only an icon: named for screen readers, labelled by a tooltip. */
export function IconButton({ label, icon, tip, tooltipSide, variant = 'ghost', size = 'md', className, type = 'button', ref, ...rest }: IconButtonProps) {
  const button = (
    <button ref={ref} type={type} aria-label={label} className={buttonClass(variant, size, cx(size === 'sm' ? '!w-7 !px-0' : '!w-9 !px-0', className))} {...rest}>
      {icon}
    </button>
  );
  // A disabled button gets no pointer events: its tooltip hangs on a wrapper instead.
  if (rest.disabled === true) {
    return <Tooltip content={tip ?? label} side={tooltipSide}><span className="inline-flex" tabIndex={-1}>{button}</span></Tooltip>;
  }
  return <Tooltip content={tip ?? label} side={tooltipSide}>{button}</Tooltip>;
}

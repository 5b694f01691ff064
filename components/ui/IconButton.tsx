import type { ReactNode } from 'react';
import { buttonClass, type ButtonProps } from './Button';
import { cx } from './cx';
import { tipProps } from './Tooltip';
import type { TipSide } from './tooltip-layer';

interface IconButtonProps extends Omit<ButtonProps, 'children'> {
  /** The accessible name, also shown as the tooltip. */
  label: string;
  icon: ReactNode;
  /** A longer tooltip than the name (a reason the button is off, a shortcut). */
  tip?: string;
  tooltipSide?: TipSide;
}

/** A square button showing only an icon: named for screen readers, labelled by a tooltip. */
export function IconButton({ label, icon, tip, tooltipSide, variant = 'ghost', size = 'md', className, type = 'button', ref, ...rest }: IconButtonProps) {
  const tooltip = tipProps(tip ?? label, tooltipSide);
  // A disabled button gets no pointer events: its tooltip hangs on a wrapper instead.
  const off = rest.disabled === true;
  const button = (
    <button ref={ref} type={type} aria-label={label} className={buttonClass(variant, size, cx(size === 'sm' ? '!w-7 !px-0' : '!w-9 !px-0', className))} {...(off ? {} : tooltip)} {...rest}>
      {icon}
    </button>
  );
  return off ? <span className="inline-flex" tabIndex={-1} {...tooltip}>{button}</span> : button;
}

import { useId, type ReactNode } from 'react';
import { cx } from './cx';

/** What a control inside a Field gets: its id, and the hint and error it is described by. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** Label beside the control (checkboxes, switches) instead of above it. */
  inline?: boolean;
  /** A control of its own at the end of the label's line (a switch that changes what the field holds). */
  aside?: ReactNode;
  className?: string;
  children(control: FieldControlProps): ReactNode;
}

/** A label, its control, a hint and an inline error, aligned the same way on every form. */
export function Field({ label, hint, error, inline = false, aside, className, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint !== undefined ? hintId : '', error !== undefined ? errorId : ''].filter(Boolean).join(' ');
  const control = children({ id, ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }), ...(error !== undefined ? { 'aria-invalid': true as const } : {}) });
  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      {inline
        ? <div className="flex items-center gap-2">{control}<label htmlFor={id} className="text-sm text-fg">{label}</label></div>
        : (
          <>
            {aside === undefined
              ? <label htmlFor={id} className="text-sm font-medium text-fg">{label}</label>
              : <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1"><label htmlFor={id} className="text-sm font-medium text-fg">{label}</label>{aside}</div>}
            {control}
          </>
        )}
      {hint !== undefined && <p id={hintId} className="text-xs text-muted">{hint}</p>}
      {error !== undefined && <p id={errorId} role="alert" className="text-xs font-medium text-danger">{error}</p>}
    </div>
  );
}

import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cx } from './cx';

export type Tone = 'danger' | 'warning' | 'success' | 'info';

const TONES: Record<Tone, { box: string; icon: ReactNode }> = {
  danger: { box: 'border-danger/40 bg-danger-soft', icon: <CircleAlert aria-hidden className="text-danger" /> },
  warning: { box: 'border-warning/40 bg-warning-soft', icon: <TriangleAlert aria-hidden className="text-warning" /> },
  success: { box: 'border-success/40 bg-success-soft', icon: <CircleCheck aria-hidden className="text-success" /> },
  info: { box: 'border-line bg-surface', icon: <Info aria-hidden className="text-muted" /> },
};

interface CalloutProps {
  tone?: Tone;
  title?: ReactNode;
  /** `alert` for problems that just happened; `status` for news; `note` for standing advice. */
  role?: 'alert' | 'status' | 'note';
  label?: string;
  className?: string;
  children?: ReactNode;
  /** Extra attributes for tests and styling (data-error-kind). */
  data?: Record<`data-${string}`, string>;
}

/** A boxed message with an icon and a title: errors, warnings, confirmations. */
export function Callout({ tone = 'info', title, role, label, className, children, data }: CalloutProps) {
  const t = TONES[tone];
  return (
    <div role={role} aria-label={label} className={cx('callout flex gap-2.5 rounded-md border px-3 py-2.5 text-sm', t.box, className)} {...data}>
      <span className="mt-0.5 [&_svg]:size-4">{t.icon}</span>
      <div className="flex min-w-0 flex-1 flex-col gap-1 [overflow-wrap:anywhere]">
        {title !== undefined && <p className="callout-title font-semibold text-fg">{title}</p>}
        {children}
      </div>
    </div>
  );
}

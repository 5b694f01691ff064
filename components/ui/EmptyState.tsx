import type { ReactNode } from 'react';
import { cx } from './cx';

/** What an empty list or a fresh conversation shows: an icon, a line, what to do next. */
export function EmptyState({ icon, title, children, action, className }: { icon?: ReactNode; title: ReactNode; children?: ReactNode; action?: ReactNode; className?: string }) {
  return (
    <div className={cx('empty flex flex-col items-center justify-center gap-2 px-6 py-8 text-center', className)}>
      {icon !== undefined && <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-soft-fg [&_svg]:size-5">{icon}</div>}
      <p className="text-base font-semibold text-fg">{title}</p>
      {children !== undefined && <div className="max-w-80 text-sm text-muted">{children}</div>}
      {action}
    </div>
  );
}

import { Dialog as D } from 'radix-ui';
import type { ReactNode } from 'react';

export interface DialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** The buttons at the bottom, right-aligned. */
  footer?: ReactNode;
}

/** A modal dialog: Radix traps focus inside and returns it to where it was on close. */
export function DialogFrame({ open, onOpenChange, title, description, children, footer }: DialogProps) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <D.Content
          className="animate-pop fixed top-1/2 left-1/2 z-50 flex max-h-[85vh] w-[min(92vw,440px)] -translate-x-1/2 -translate-y-1/2 flex-col gap-3 overflow-y-auto rounded-lg border border-line bg-raised p-5 text-fg shadow-pop"
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <D.Title className="text-lg font-semibold">{title}</D.Title>
          {description !== undefined && <D.Description className="text-sm text-muted">{description}</D.Description>}
          {children}
          {footer !== undefined && <div className="mt-1 flex flex-wrap justify-end gap-2">{footer}</div>}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

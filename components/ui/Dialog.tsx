import type { ReactNode } from 'react';
import { deferred } from './deferred';
import type { DialogProps } from './DialogFrame';
import { Button } from './Button';
import { useWords } from '@/components/i18n/words';

const frame = deferred<DialogProps>(() => import('./DialogFrame').then((m) => m.DialogFrame), (props) => props.open);

/**
 * A modal dialog: Radix traps focus inside and returns it to where it was on close. Its code
 * (Radix's dialog, focus trap and scroll lock) arrives when it first opens, or with `preloadDialogs`.
 */
export const Dialog = frame.View;
export const preloadDialogs = frame.preload;

interface ConfirmProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  description: ReactNode;
  confirm: string;
  cancel?: string;
  danger?: boolean;
  onConfirm(): void;
}

/** "Are you sure?" with the consequence spelt out; Cancel is the safe default. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirm, cancel, danger = false, onConfirm }: ConfirmProps) {
  const w = useWords();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      footer={
        <>
          <Button onClick={() => onOpenChange(false)}>{cancel ?? w.t('common.cancel')}</Button>
          <Button variant={danger ? 'danger' : 'primary'} onClick={() => { onOpenChange(false); onConfirm(); }}>{confirm}</Button>
        </>
      }
    />
  );
}

import { Suspense } from 'react';
import { lazyWithWords } from '@/components/i18n/words';

/**
 * Toasts ("Copied", "Saved") by sonner. Its code loads after the page is up, so it never
 * delays a surface's first paint; a toast asked for before then waits for it.
 */
const LazyToaster = lazyWithWords(() => import('./ToasterImpl'));

export function Toaster() {
  return <Suspense fallback={null}><LazyToaster /></Suspense>;
}

export type ToastKind = 'success' | 'error' | 'info';

/** A short, polite confirmation that goes away by itself. */
export function toast(message: string, kind: ToastKind = 'success'): void {
  void import('sonner').then(({ toast: show }) => {
    show[kind](message);
  });
}

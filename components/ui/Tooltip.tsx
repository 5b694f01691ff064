import { Suspense, type ReactNode } from 'react';
import { lazyWithWords } from '@/components/i18n/words';

const load = () => import('./TooltipImpl');
const TooltipImpl = lazyWithWords(load);

/** Fetches the tooltips' code once the page has drawn (UiRoot does, right after mounting). */
export const preloadTooltips = (): Promise<unknown> => load();

/**
 * A short label shown on hover and keyboard focus (Radix); the control keeps its own
 * accessible name. Until the tooltip code has arrived, the control is shown alone.
 */
export function Tooltip({ content, children, side = 'bottom' }: { content: ReactNode; children: ReactNode; side?: 'top' | 'bottom' | 'left' | 'right' }) {
  return (
    <Suspense fallback={children}>
      <TooltipImpl content={content} side={side}>{children}</TooltipImpl>
    </Suspense>
  );
}

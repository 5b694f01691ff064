import { Tooltip as T } from 'radix-ui';
import type { ReactNode } from 'react';

/** Radix's tooltip (loaded after the page is up: nobody hovers in the first frame). */
export default function TooltipImpl({ content, children, side }: { content: ReactNode; children: ReactNode; side: 'top' | 'bottom' | 'left' | 'right' }) {
  return (
    <T.Provider delayDuration={400} skipDelayDuration={200}>
      <T.Root>
        <T.Trigger asChild>{children}</T.Trigger>
        <T.Portal>
          <T.Content side={side} sideOffset={6} collisionPadding={8} className="animate-pop z-50 max-w-64 rounded-sm bg-fg px-2 py-1 text-xs text-bg shadow-pop">
            {content}
          </T.Content>
        </T.Portal>
      </T.Root>
    </T.Provider>
  );
}

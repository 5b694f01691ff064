import { useEffect, type ReactNode } from 'react';
import { preloadSurfaceMenu } from '@/components/surface/SurfaceMenu';
import { Toaster } from './Toast';
import { preloadTooltips } from './Tooltip';

/**
 * What every surface's root needs once: the toast region, and the code of tooltips and menus
 * fetched right after the first paint (they are not needed to draw it).
 */
export function UiRoot({ children }: { children: ReactNode }) {
  useEffect(() => {
    void preloadTooltips();
    void preloadSurfaceMenu();
  }, []);
  return (
    <>
      {children}
      <Toaster />
    </>
  );
}

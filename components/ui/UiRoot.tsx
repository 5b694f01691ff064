import { useEffect, type ReactNode } from 'react';
import { preloadSurfaceMenu } from '@/components/surface/SurfaceMenu';
import { Toaster } from './Toast';

/**
 * What every surface's root needs once: the toast region, and the code of menus fetched right
 * after the first paint (they are not needed to draw it).
 */
export function UiRoot({ children }: { children: ReactNode }) {
  useEffect(() => {
    void preloadSurfaceMenu();
  }, []);
  return (
    <>
      {children}
      <Toaster />
    </>
  );
}

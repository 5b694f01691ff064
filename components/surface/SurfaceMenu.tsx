import { EllipsisVertical } from 'lucide-react';
import { cloneElement, Suspense, useState } from 'react';
import { IconButton } from '@/components/ui/IconButton';
import type { Settings } from '@/lib/settings/schema';
import { lazyWithWords, useWords } from '@/components/i18n/words';

const load = () => import('./SurfaceMenuImpl');
const SurfaceMenuImpl = lazyWithWords(load);

/** Fetches the menu's code once the surface has drawn (it is not needed for the first paint). */
export const preloadSurfaceMenu = (): Promise<unknown> => load();

/**
 * Every surface's menu: the settings page and the theme. Until its code has arrived, the
 * button is already there; a click then opens the menu as soon as it can.
 */
export function SurfaceMenu({ settings }: { settings: Settings }) {
  const w = useWords();
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const trigger = <IconButton size="sm" label={w.t('menu.label')} aria-haspopup="menu" icon={<EllipsisVertical aria-hidden />} />;
  return (
    <Suspense fallback={cloneElement(trigger, { onClick: () => setOpenOnLoad(true) })}>
      <SurfaceMenuImpl settings={settings} trigger={trigger} defaultOpen={openOnLoad} />
    </Suspense>
  );
}

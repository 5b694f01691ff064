import { Settings as SettingsIcon } from 'lucide-react';
import type { ReactElement } from 'react';
import { browser } from 'wxt/browser';
import { chooseTheme, themeOptions } from '@/components/settings/theme-choice';
import { Menu, MenuItem, MenuLabel, MenuRadioGroup, MenuSeparator } from '@/components/ui/Menu';
import type { Settings, Theme } from '@/lib/settings/schema';
import { useWords } from '@/components/i18n/words';

/** The menu itself (Radix), loaded after the surface is up. */
export default function SurfaceMenuImpl({ settings, trigger, defaultOpen }: { settings: Settings; trigger: ReactElement; defaultOpen: boolean }) {
  const w = useWords();
  return (
    <Menu label={w.t('menu.label')} trigger={trigger} defaultOpen={defaultOpen}>
      <MenuItem onSelect={() => void browser.runtime.openOptionsPage()}><SettingsIcon aria-hidden />{w.t('popup.settings')}</MenuItem>
      <MenuSeparator />
      <MenuLabel>{w.t('theme.label')}</MenuLabel>
      <MenuRadioGroup label={w.t('theme.label')} value={settings.appearance.theme} options={themeOptions(w)} onValueChange={(v) => chooseTheme(v as Theme)} />
    </Menu>
  );
}

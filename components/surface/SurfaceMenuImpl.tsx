import { Settings as SettingsIcon } from 'lucide-react';
import type { ReactElement } from 'react';
import { browser } from 'wxt/browser';
import { chooseTheme, THEME_OPTIONS } from '@/components/settings/theme-choice';
import { Menu, MenuItem, MenuLabel, MenuRadioGroup, MenuSeparator } from '@/components/ui/Menu';
import type { Settings, Theme } from '@/lib/settings/schema';

/** The menu itself (Radix), loaded after the surface is up. */
export default function SurfaceMenuImpl({ settings, trigger, defaultOpen }: { settings: Settings; trigger: ReactElement; defaultOpen: boolean }) {
  return (
    <Menu label="Menu" trigger={trigger} defaultOpen={defaultOpen}>
      <MenuItem onSelect={() => void browser.runtime.openOptionsPage()}><SettingsIcon aria-hidden />Settings</MenuItem>
      <MenuSeparator />
      <MenuLabel>Theme</MenuLabel>
      <MenuRadioGroup label="Theme" value={settings.appearance.theme} options={THEME_OPTIONS} onValueChange={(v) => chooseTheme(v as Theme)} />
    </Menu>
  );
}

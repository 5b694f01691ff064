import { Select } from '@/components/ui/Select';
import type { Settings, Theme } from '@/lib/settings/schema';
import { chooseTheme, THEME_OPTIONS } from './theme-choice';

/** The theme control of the options page: a select named "Theme". */
export function ThemeSelect({ settings, id }: { settings: Settings; id?: string }) {
  return <Select<Theme> label={id === undefined ? 'Theme' : undefined} id={id} className="w-40" value={settings.appearance.theme} options={THEME_OPTIONS} onValueChange={chooseTheme} />;
}

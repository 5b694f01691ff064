import { Select } from '@/components/ui/Select';
import { useWords } from '@/components/i18n/words';
import type { Settings, Theme } from '@/lib/settings/schema';
import { chooseTheme, themeOptions } from './theme-choice';

/** The theme control of the options page: a select named "Theme". */
export function ThemeSelect({ settings, id }: { settings: Settings; id?: string }) {
  const w = useWords();
  return <Select<Theme> label={id === undefined ? w.t('theme.label') : undefined} id={id} className="w-40" value={settings.appearance.theme} options={themeOptions(w)} onValueChange={chooseTheme} />;
}

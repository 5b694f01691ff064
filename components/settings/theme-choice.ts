import { applyTheme } from '@/components/theme';
import { THEMES, type Theme } from '@/lib/settings/schema';
import { updateSettings } from '@/lib/settings/storage.adapter';

/** Light, Dark, System: the words of every theme control. */
export const THEME_OPTIONS = THEMES.map((t) => ({ value: t, label: ({ system: 'System', light: 'Light', dark: 'Dark' } as const)[t] }));

/** Applies a theme at once, then saves it (every open surface follows the settings). */
export function chooseTheme(theme: Theme): void {
  applyTheme(theme);
  void updateSettings((now) => ({ ...now, appearance: { ...now.appearance, theme } }));
}

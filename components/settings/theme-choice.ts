import { applyTheme } from '@/components/theme';
import type { Words } from '@/lib/i18n/messages';
import { THEMES, type Theme } from '@/lib/settings/schema';
import { updateSettings } from '@/lib/settings/storage.adapter';

/** Light, Dark, System: the words of every theme control. */
export function themeOptions(w: Words): { value: Theme; label: string }[] {
  return THEMES.map((t) => ({ value: t, label: w.t(`theme.${t}`) }));
}

/** Applies a theme at once, then saves it (every open surface follows the settings). */
export function chooseTheme(theme: Theme): void {
  applyTheme(theme);
  void updateSettings((now) => ({ ...now, appearance: { ...now.appearance, theme } }));
}

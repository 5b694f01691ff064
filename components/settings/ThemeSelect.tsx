import type { ChangeEvent } from 'react';
import { applyTheme } from '@/components/theme';
import { THEMES, type Settings, type Theme } from '@/lib/settings/schema';
import { updateSettings } from '@/lib/settings/storage.adapter';

const NAMES: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** The theme control, the same on every surface: applied at once, then saved. */
export function ThemeSelect({ settings }: { settings: Settings }) {
  const choose = (event: ChangeEvent<HTMLSelectElement>): void => {
    const theme = event.target.value as Theme;
    applyTheme(theme);
    void updateSettings((now) => ({ ...now, appearance: { ...now.appearance, theme } }));
  };
  return (
    <select aria-label="Theme" className="theme-select" value={settings.appearance.theme} onChange={choose}>
      {THEMES.map((t) => <option key={t} value={t}>{NAMES[t]}</option>)}
    </select>
  );
}

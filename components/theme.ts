import { useEffect } from 'react';
import type { Theme } from '@/lib/settings/schema';

/** Where pages keep a copy of the theme for `public/theme-boot.js`, which runs before React. */
export const THEME_KEY = 'gateway-chat-theme';

/** Puts a theme on the page (system colours follow `color-scheme`) and remembers it for the next open. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.style.colorScheme = theme === 'system' ? 'light dark' : theme;
  root.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Without storage the next open starts in the system theme, then switches.
  }
}

/** Keeps the page's theme in step with the settings (another surface may change it). */
export function useTheme(theme: Theme | undefined): void {
  useEffect(() => {
    if (theme !== undefined) applyTheme(theme);
  }, [theme]);
}

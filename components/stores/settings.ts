import { useEffect } from 'react';
import { create } from 'zustand';
import { setLanguageChoice } from '@/components/i18n/words';
import type { ParsedSettings } from '@/lib/settings/migrations';
import { loadSettings, watchSettings } from '@/lib/settings/storage.adapter';

/**
 * The page's one copy of the settings, fed from storage and kept current when any surface
 * saves. Views read it; writes go through `updateSettings` / `updateProfile` (read-modify-write
 * of what is stored), never a copy kept here.
 */
export const useSettingsStore = create<{ parsed: ParsedSettings | undefined }>(() => ({ parsed: undefined }));

let started = false;

/** Starts reading and watching the settings (once per page; pages call it as they start). */
export function watchSettingsStore(): void {
  if (started) return;
  started = true;
  // The settings also set the pages' language, so a change in the options page reaches every open surface.
  const apply = (parsed: ParsedSettings): void => {
    setLanguageChoice(parsed.settings.appearance.language);
    useSettingsStore.setState({ parsed });
  };
  let changed = false;
  watchSettings((parsed) => {
    changed = true;
    apply(parsed);
  });
  void loadSettings().then((parsed) => {
    // A save seen meanwhile is newer than this read.
    if (!changed) apply(parsed);
  });
}

/** The stored settings; undefined while loading. */
export function useSettings(): ParsedSettings | undefined {
  useEffect(() => watchSettingsStore(), []);
  return useSettingsStore((s) => s.parsed);
}

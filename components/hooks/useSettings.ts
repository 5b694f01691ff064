import { useEffect, useState } from 'react';
import { setLanguageChoice } from '@/components/i18n/words';
import type { ParsedSettings } from '@/lib/settings/migrations';
import { loadSettings, watchSettings } from '@/lib/settings/storage.adapter';

/**
 * The stored settings, kept current when another surface saves. Undefined while loading.
 * They also set the pages' language, so a change made in the options page reaches every
 * open surface.
 */
export function useSettings(): ParsedSettings | undefined {
  const [settings, setSettings] = useState<ParsedSettings | undefined>();
  useEffect(() => {
    let live = true;
    const apply = (s: ParsedSettings): void => {
      setLanguageChoice(s.settings.appearance.language);
      setSettings(s);
    };
    void loadSettings().then((s) => {
      if (live) apply(s);
    });
    const unwatch = watchSettings(apply);
    return () => {
      live = false;
      unwatch();
    };
  }, []);
  return settings;
}

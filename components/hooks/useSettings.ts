import { useEffect, useState } from 'react';
import type { ParsedSettings } from '@/lib/settings/migrations';
import { loadSettings, watchSettings } from '@/lib/settings/storage.adapter';

/** The stored settings, kept current when another surface saves. Undefined while loading. */
export function useSettings(): ParsedSettings | undefined {
  const [settings, setSettings] = useState<ParsedSettings | undefined>();
  useEffect(() => {
    let live = true;
    void loadSettings().then((s) => {
      if (live) setSettings(s);
    });
    const unwatch = watchSettings((s) => setSettings(s));
    return () => {
      live = false;
      unwatch();
    };
  }, []);
  return settings;
}

import { KeyRound, Waypoints } from 'lucide-react';
import { browser } from 'wxt/browser';
import { ConnectionForm } from '@/components/settings/ConnectionForm';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { withProfile, type Profile } from '@/lib/settings/schema';
import { updateSettings } from '@/lib/settings/storage.adapter';
import { settingsSaveText } from '@/components/i18n/setup-problems';
import { useWords } from '@/components/i18n/words';

/**
 * First run: what a gateway is, where the key is, paste to import; ends connected. "First" only
 * means no profile: the user may have deleted their last one and kept presets, actions and a
 * system prompt, or another page may save a profile meanwhile, so the new profile is added to
 * the settings as stored at that moment. Unreadable settings are refused there, never replaced
 * (the popup shows their problem instead of this form).
 */
export default function FirstRun({ onConnected }: { onConnected(models: number | undefined): void }) {
  const w = useWords();
  const save = async (profile: Profile): Promise<string | undefined> => {
    const result = await updateSettings((now) => withProfile(now, profile));
    return result.ok ? undefined : settingsSaveText(w, result);
  };
  return (
    <main aria-label={w.t('firstRun.label')} className="popup first-run flex max-h-[600px] w-[400px] flex-col overflow-y-auto">
      <header className="flex items-start gap-3 border-b border-line bg-surface px-4 py-4">
        <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-fg"><Waypoints className="size-5" /></span>
        <div>
          <h1 className="text-lg font-semibold">{w.t('firstRun.title')}</h1>
          <p className="text-xs text-muted">{w.t('firstRun.what')}</p>
        </div>
      </header>
      <div className="flex flex-col gap-4 px-4 py-4">
        <Callout tone="info" title={<span className="inline-flex items-center gap-1.5"><KeyRound aria-hidden className="size-4" />{w.t('firstRun.whereKey')}</span>}>
          <p>{w.t('firstRun.whereKeyText')}</p>
        </Callout>
        <ConnectionForm onSave={save} onSaved={(_, models) => onConnected(models)} />
        <p><Button variant="link" size="sm" onClick={() => void browser.runtime.openOptionsPage()}>{w.t('firstRun.fullSettings')}</Button></p>
      </div>
    </main>
  );
}


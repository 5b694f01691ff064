import { browser } from 'wxt/browser';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { useWords } from '@/components/i18n/words';
import { settingsReadText } from '@/components/i18n/setup-problems';
import type { SettingsReadProblem } from '@/lib/settings/migrations';

/**
 * The stored settings cannot be read (damaged, or saved by a newer version). Instead of the
 * first-run form, whose Save would replace every profile, say what is wrong and where to
 * decide: the stored value stays as it is.
 */
export function SettingsProblem({ problem, params }: { problem: SettingsReadProblem; params: Record<string, string | number> }) {
  const w = useWords();
  return (
    <Callout role="alert" tone="danger" label={w.t('settings.problem.label')} title={w.t('settings.problem.title')} className="m-3">
      <p>{settingsReadText(w, problem, params)}</p>
      <p className="callout-remedy">{w.t('settings.problem.remedy')}</p>
      <p><Button size="sm" onClick={() => void browser.runtime.openOptionsPage()}>{w.t('settings.problem.open')}</Button></p>
    </Callout>
  );
}

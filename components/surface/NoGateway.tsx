import { Settings as SettingsIcon } from 'lucide-react';
import { browser } from 'wxt/browser';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { useWords } from '@/components/i18n/words';

/** No gateway yet: what to do, in one step. */
export function NoGateway() {
  const w = useWords();
  return (
    <EmptyState icon={<SettingsIcon aria-hidden />} title={w.t('noGateway.title')} className="flex-1" action={<Button variant="primary" onClick={() => void browser.runtime.openOptionsPage()}>{w.t('settings.problem.open')}</Button>}>
      <p>{w.t('noGateway.text')}</p>
    </EmptyState>
  );
}

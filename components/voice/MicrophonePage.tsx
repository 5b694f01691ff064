/**
 * The tab that asks for the microphone (issue 32): the popup and the side panel cannot show the
 * browser's prompt, so Dictate opens this page once; what it allows holds for all the extension's
 * pages. It says why, asks only on the user's click, and releases the microphone at once.
 */
import { Mic, MicOff } from 'lucide-react';
import { useState } from 'react';
import { useDocumentTitle, useWords } from '@/components/i18n/words';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { useTheme } from '@/components/theme';
import { useSettings } from '@/components/stores/settings';
import { MicrophoneError, openMicrophone, type MicrophoneProblem } from './recorder';

export function MicrophonePage() {
  const w = useWords();
  const parsed = useSettings();
  useTheme(parsed?.ok === true ? parsed.settings.appearance.theme : undefined);
  useDocumentTitle(w.t('microphone.title'));
  const [result, setResult] = useState<'granted' | MicrophoneProblem>();
  const ask = async (): Promise<void> => {
    try {
      const stream = await openMicrophone();
      for (const track of stream.getTracks()) track.stop();
      setResult('granted');
    } catch (error) {
      setResult(error instanceof MicrophoneError ? error.code : 'failed');
    }
  };
  return (
    <main className="flex min-h-screen items-start justify-center bg-surface px-6 py-16 text-fg">
      <section aria-labelledby="microphone-title" className="flex w-full max-w-md flex-col gap-4 rounded-lg border border-line bg-raised p-6 shadow-sm">
        <span aria-hidden className="flex size-10 items-center justify-center rounded-full bg-accent-soft text-accent-soft-fg">{result !== undefined && result !== 'granted' ? <MicOff className="size-5" /> : <Mic className="size-5" />}</span>
        <h1 id="microphone-title" className="text-lg font-semibold">{w.t('microphone.title')}</h1>
        <p className="text-sm text-muted">{w.t('microphone.why')}</p>
        {result === undefined && <p><Button variant="primary" onClick={() => void ask()}><Mic aria-hidden />{w.t('microphone.allow')}</Button></p>}
        {result === 'granted' && (
          <Callout role="status" tone="success">
            <p>{w.t('microphone.granted')}</p>
            <p className="mt-1.5"><Button size="sm" onClick={() => window.close()}>{w.t('microphone.close')}</Button></p>
          </Callout>
        )}
        {result !== undefined && result !== 'granted' && (
          <Callout role="alert" tone="danger">
            <p>{w.t(`dictate.problem.${result}`, { detail: '' })}</p>
            <p className="mt-1.5"><Button size="sm" onClick={() => void ask()}>{w.t('dictate.retry')}</Button></p>
          </Callout>
        )}
      </section>
    </main>
  );
}

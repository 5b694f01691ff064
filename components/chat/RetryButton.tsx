import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { useWords } from '@/components/i18n/words';

/** Seconds until `at`, ticking once a second while it is in the future. */
function useCountdown(at: number | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === undefined || at <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === undefined ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Retry, once per click: ignored while a retry is starting, and waiting out a Retry-After. */
export function RetryButton({ retryAt, onRetry }: { retryAt: number | undefined; onRetry(): Promise<void> }) {
  const w = useWords();
  const wait = useCountdown(retryAt);
  const [starting, setStarting] = useState(false);
  const inFlight = useRef(false);
  const click = async (): Promise<void> => {
    if (inFlight.current || wait > 0) return;
    inFlight.current = true;
    setStarting(true);
    try {
      await onRetry();
    } finally {
      inFlight.current = false;
      setStarting(false);
    }
  };
  return (
    <Button size="sm" variant="primary" className="retry" disabled={starting || wait > 0} aria-busy={starting} onClick={() => void click()}>
      {wait > 0 ? w.t('chat.retryIn', { seconds: wait }) : w.t('chat.retry')}
    </Button>
  );
}

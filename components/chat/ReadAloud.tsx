import { Square, Volume2 } from 'lucide-react';
import { createContext, useContext, useEffect, useMemo, useRef } from 'react';
import { IconButton } from '@/components/ui/IconButton';
import { useWords, withMoreWords } from '@/components/i18n/words';
import { stopReading, useReadAloud } from '@/components/stores/read-aloud';
import { useModelPrice } from '@/components/stores/pricing';
import { formatAmount } from '@/components/i18n/money';
import type { Message } from '@/lib/conversations/records';
import type { ModelInfo } from '@/lib/gateway';
import type { Profile } from '@/lib/settings/schema';

/** Starts reading a reply aloud; given by the chat view (which knows the gateway), absent elsewhere. */
export const ReadAloudContext = createContext<((message: Message) => void) | undefined>(undefined);

/**
 * `start(message)` for the chat view's replies (components/chat/read-aloud-start.ts, loaded on the
 * first Read aloud): the gateway's speech model, else the browser's own voices.
 */
export function useReadAloudStarter(profile: Profile | undefined, models: readonly ModelInfo[]): ((message: Message) => void) | undefined {
  const w = useWords();
  return useMemo(() => {
    if (profile === undefined) return undefined;
    return (message: Message): void => {
      // What it says of code, formulas and images is in the more words (lib/i18n/messages.ts).
      void withMoreWords(() => import('./read-aloud-start')).then((m) => m.startReadingReply(message, profile, models, w));
    };
  }, [profile, models, w]);
}

/** "Read aloud" on a finished reply; while it is read, "Stop reading" and how far it has got. */
export function ReadAloudButton({ message }: { message: Message }) {
  const start = useContext(ReadAloudContext);
  const w = useWords();
  const reading = useReadAloud((s) => (s.messageId === message.id ? s : undefined));
  const price = useModelPrice(reading?.model);
  // The piece being said, marked in the reply's text (the marking's code comes with the first one).
  const said = reading?.said ?? '';
  const piece = reading?.piece ?? -1;
  const here = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (said === '') return;
    const root = here.current?.closest('[data-message-id]')?.querySelector('.markdown');
    if (root === null || root === undefined) return;
    let gone = false;
    void import('./read-aloud-highlight').then((m) => {
      if (!gone) m.highlightSpoken(root, said, piece === 0);
    });
    return () => {
      gone = true;
      void import('./read-aloud-highlight').then((m) => m.clearSpoken());
    };
  }, [said, piece]);
  if (start === undefined) return null;
  if (reading === undefined) {
    return <IconButton size="sm" label={w.t('voice.readAloud')} icon={<Volume2 aria-hidden />} className="text-muted opacity-70 group-hover:opacity-100 focus-visible:opacity-100" onClick={() => start(message)} />;
  }
  const progress = reading.piece < 0 ? w.t('voice.preparing') : w.t('voice.progress', { n: reading.piece + 1, total: reading.pieces });
  // Its price so far, where the gateway lists the speech model's price per call.
  const cost = price?.perRequest !== undefined && reading.calls > 0 ? formatAmount(w, price.perRequest * reading.calls, price.currency) : undefined;
  return (
    <span ref={here} className="flex items-center gap-1">
      <IconButton size="sm" label={w.t('voice.stopReading')} icon={<Square aria-hidden className="fill-current" />} className="text-accent" onClick={stopReading} />
      <span role="status" className="text-2xs text-muted">{reading.via === 'browser' ? w.t('voice.browserProgress', { progress }) : progress}</span>
      {cost !== undefined && <span className="speech-price text-2xs text-muted tabular-nums" title={w.plural('voice.priceTip', reading.calls)}>{w.t('voice.price', { cost })}</span>}
    </span>
  );
}

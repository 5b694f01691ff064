import { Callout } from '@/components/ui/Callout';
import { useWords } from '@/components/i18n/words';
import type { StoreProblem } from '@/lib/conversations/problems';

/**
 * The conversation database failed: say so and what to do, instead of showing an empty history.
 * `withoutHistory`: shown over a chat, which still works (unless the disk is full) but saves nothing.
 */
export function StoreProblemCallout({ problem, detail, withoutHistory = false }: { problem: StoreProblem; detail: string; withoutHistory?: boolean }) {
  const w = useWords();
  return (
    <Callout role="alert" tone="danger" label={w.t('store.label')} title={w.t('store.title')}>
      {withoutHistory && problem !== 'quota' && <p>{w.t('store.withoutHistory')}</p>}
      <p className="callout-remedy">{w.t(`store.${problem}`)}</p>
      <p className="text-xs text-muted">{w.t('store.browserSaid')} <code>{detail}</code></p>
    </Callout>
  );
}

/** Rows that were skipped because they could not be read. */
export function UnreadableNote({ count, what }: { count: number; what: 'conversations' | 'messages' }) {
  const w = useWords();
  if (count === 0) return null;
  return (
    <p role="note" className="notice border-l-2 border-warning pl-2 text-xs text-muted">
      {w.plural(`store.unreadable.${what}`, count)}
    </p>
  );
}

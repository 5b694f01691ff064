import { Cloud, CloudAlert, CloudCheck, CloudOff, RefreshCw } from 'lucide-react';
import { browser } from 'wxt/browser';
import { useNow } from '@/components/hooks/useNow';
import { useWords } from '@/components/i18n/words';
import { syncStatusShort, syncStatusText } from '@/components/i18n/sync';
import { useSync } from '@/components/stores/sync';
import type { SyncServiceStatus } from '@/lib/sync/service';
import { cx } from '@/components/ui/cx';

function icon(status: SyncServiceStatus): { Icon: typeof Cloud; tone: string } {
  switch (status.state) {
    case 'syncing': return { Icon: RefreshCw, tone: 'animate-spin motion-reduce:animate-none' };
    case 'paused': return { Icon: CloudOff, tone: 'text-warning' };
    case 'retrying': return { Icon: CloudAlert, tone: 'text-warning' };
    case 'idle': return status.lastSyncedAt === undefined ? { Icon: Cloud, tone: '' } : { Icon: CloudCheck, tone: '' };
    case 'off': return { Icon: Cloud, tone: '' };
  }
}

/**
 * Sync's state in a few words, quiet in a page's header (only while sync is set up on this
 * device); the whole sentence on hover, and a link to the options page's Sync section.
 */
export function SyncIndicator() {
  const w = useWords();
  const { summary, status, seenAt } = useSync();
  const now = Math.max(useNow(30_000, summary !== undefined), seenAt);
  if (summary === undefined) return null;
  const { Icon, tone } = icon(status);
  return (
    <div role="status" aria-label={w.t('sync.status.label')} className="flex min-w-0 shrink">
      <a
        href={`${browser.runtime.getURL('/options.html')}#sync`}
        target="_blank"
        rel="noopener"
        title={syncStatusText(w, status, now)}
        className="sync-indicator inline-flex h-7 min-w-0 items-center gap-1.5 rounded-full px-2 text-xs text-muted no-underline transition-colors hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-ring"
      >
        <Icon aria-hidden className={cx('size-3.5 shrink-0', tone)} />
        <span className="sr-only truncate sm:not-sr-only">{syncStatusShort(w, status, now)}</span>
      </a>
    </div>
  );
}

import { Callout } from '@/components/ui/Callout';
import type { StoreProblem } from '@/lib/conversations/store';

const WHAT_TO_DO: Record<StoreProblem, string> = {
  quota: 'The browser\'s storage for this extension is full. Delete old conversations or free some disk space, then reload this page.',
  newer_version: 'A newer version of Gateway Chat changed the saved conversations, and this version cannot read them. Update the extension, or reload it if it was just updated.',
  blocked: 'Another Gateway Chat page holds the conversation database open during an update. Close the other Gateway Chat tabs and panels, then reload this page.',
  unavailable: 'The browser does not let this extension open its conversation database (some private windows block it). Open Gateway Chat in a normal window, or reload the extension.',
  unknown: 'Reload the extension. If it keeps happening, the browser\'s storage for this profile may be damaged.',
};

/** The conversation database failed: say so and what to do, instead of showing an empty history. */
export function StoreProblemCallout({ problem, detail }: { problem: StoreProblem; detail: string }) {
  return (
    <Callout role="alert" tone="danger" label="Saved conversations unavailable" title="Your saved conversations could not be read">
      <p className="callout-remedy">{WHAT_TO_DO[problem]}</p>
      <p className="text-xs text-muted">The browser said: <code>{detail}</code></p>
    </Callout>
  );
}

/** Rows that were skipped because they could not be read. */
export function UnreadableNote({ count, what }: { count: number; what: 'conversations' | 'messages' }) {
  if (count === 0) return null;
  return (
    <p role="note" className="notice border-l-2 border-warning pl-2 text-xs text-muted">
      {count} saved {count === 1 ? what.slice(0, -1) : what} could not be read (damaged, or saved by a newer version of Gateway Chat) and {count === 1 ? 'is' : 'are'} not shown. {count === 1 ? 'It is' : 'They are'} left as {count === 1 ? 'it is' : 'they are'}.
    </p>
  );
}

import { memo, useState } from 'react';
import { splitQuotedSelections } from '@/lib/actions/template';
import type { Message } from '@/lib/conversations/records';
import { ErrorCallout } from './ErrorCallout';
import { Markdown } from './Markdown';

const STATUS_NOTE: Partial<Record<Message['status'], string>> = {
  stopped: 'Stopped. What arrived is kept.',
  interrupted: 'Interrupted before the reply finished. What arrived is kept.',
};

function UsageLine({ usage }: { usage: NonNullable<Message['usage']> }) {
  const parts: string[] = [];
  if (usage.promptTokens !== undefined) parts.push(`${usage.promptTokens} in`);
  if (usage.completionTokens !== undefined) parts.push(`${usage.completionTokens} out`);
  if (usage.reasoningTokens !== undefined && usage.reasoningTokens > 0) parts.push(`${usage.reasoningTokens} reasoning`);
  if (usage.cost !== undefined) parts.push(`cost ${usage.cost}`);
  if (parts.length === 0) return null;
  return <p className="usage" aria-label="Token usage">Tokens: {parts.join(' · ')}</p>;
}

/** Quoted page text longer than this is folded (its first lines stay visible in the summary). */
const LONG_QUOTE = 600;

/** A selection quoted from a page: a quote block, folded when long. */
function QuotedSelection({ text, from }: { text: string; from: string | undefined }) {
  const label = from === undefined || from === '' ? 'Quoted from the page' : `Quoted from “${from}”`;
  if (text.length <= LONG_QUOTE) {
    return <blockquote className="quoted" aria-label={label}><p className="quote-from">{label}</p><p className="user-text">{text}</p></blockquote>;
  }
  return (
    <details className="quoted">
      <summary aria-label={`${label} (${text.length.toLocaleString()} characters)`}>{label} · {text.length.toLocaleString()} characters</summary>
      <blockquote aria-label={label}><p className="user-text">{text}</p></blockquote>
    </details>
  );
}

/** Earlier answers to the same question, kept when the reply was asked for again. */
function EarlierVersions({ versions }: { versions: NonNullable<Message['versions']> }) {
  return (
    <details className="versions">
      <summary>Earlier {versions.length === 1 ? 'version' : `versions (${versions.length})`}</summary>
      {versions.map((v, i) => (
        <section key={i} aria-label={`Earlier version ${i + 1}`} className="version">
          <p className="hint">{v.model ?? ''}{v.status === 'complete' ? '' : ` · ${v.status}`}</p>
          {v.text !== '' ? <Markdown text={v.text} /> : <p className="hint">(reasoning only)</p>}
        </section>
      ))}
    </details>
  );
}

/** Memoised: while one reply streams, the other messages are not rendered again. */
interface MessageViewProps {
  message: Message;
  /** The reply's model is in the catalogue (so "does not exist" means "unavailable now"). */
  modelListed?: boolean;
  /** The title of the page a quoted selection came from. */
  quotedFrom?: string;
}

export const MessageView = memo(function MessageView({ message, modelListed = false, quotedFrom }: MessageViewProps) {
  // Text a lone </think> moved into the reasoning can be put back, as the user sees fit.
  const [putBack, setPutBack] = useState(false);
  if (message.role === 'user') {
    return (
      <article aria-label="User message" className="message message-user">
        {message.text !== '' && splitQuotedSelections(message.text).map((part, i) => (part.type === 'quote'
          ? <QuotedSelection key={i} text={part.text} from={quotedFrom} />
          : <p key={i} className="user-text">{part.text}</p>))}
        {message.notice !== undefined && <p role="note" className="notice">{message.notice}</p>}
        {/* Only inline pictures the user attached: a stored remote URL is never loaded. */}
        {message.images?.filter((src) => src.startsWith('data:image/')).map((src, i) => <img key={i} src={src} alt={`Attached image ${i + 1}`} className="attached" />)}
      </article>
    );
  }
  const streaming = message.status === 'streaming';
  const moved = !streaming ? message.movedToReasoning : undefined;
  let reasoning = message.reasoning;
  let text = message.text;
  if (moved !== undefined && putBack) {
    const [start, end] = moved;
    text = `${reasoning.slice(start, end)}</think>${text === '' ? '' : `\n\n${text}`}`;
    reasoning = reasoning.slice(0, start) + reasoning.slice(end);
  }
  return (
    <article aria-label="Assistant message" aria-busy={streaming} className={`message message-assistant status-${message.status}`} data-status={message.status}>
      {reasoning !== '' && (
        <details className="reasoning">
          <summary>Reasoning{streaming && message.text === '' ? '…' : ''}</summary>
          <div className="reasoning-text">{reasoning}</div>
        </details>
      )}
      {moved !== undefined && (
        <button type="button" className="link" aria-pressed={putBack} onClick={() => setPutBack(!putBack)}>
          {putBack ? 'Fold the text before </think> into reasoning' : 'Show the text before </think> as part of the reply'}
        </button>
      )}
      {text !== '' && <Markdown text={text} streaming={streaming} />}
      {streaming && message.text === '' && message.reasoning === '' && <p className="waiting">Waiting for the first words…</p>}
      {STATUS_NOTE[message.status] !== undefined && <p className="status-note">{STATUS_NOTE[message.status]}</p>}
      {message.error !== undefined && message.error.kind !== 'aborted' && <ErrorCallout error={message.error} modelListed={modelListed} />}
      {message.usage !== undefined && <UsageLine usage={message.usage} />}
      {message.versions !== undefined && message.versions.length > 0 && <EarlierVersions versions={message.versions} />}
    </article>
  );
});

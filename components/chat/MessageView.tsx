import { memo } from 'react';
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

/** Memoised: while one reply streams, the other messages are not rendered again. */
export const MessageView = memo(function MessageView({ message }: { message: Message }) {
  if (message.role === 'user') {
    return (
      <article aria-label="User message" className="message message-user">
        {message.text !== '' && <p className="user-text">{message.text}</p>}
        {message.notice !== undefined && <p role="note" className="notice">{message.notice}</p>}
        {/* Only inline pictures the user attached: a stored remote URL is never loaded. */}
        {message.images?.filter((src) => src.startsWith('data:image/')).map((src, i) => <img key={i} src={src} alt={`Attached image ${i + 1}`} className="attached" />)}
      </article>
    );
  }
  const streaming = message.status === 'streaming';
  return (
    <article aria-label="Assistant message" aria-busy={streaming} className={`message message-assistant status-${message.status}`} data-status={message.status}>
      {message.reasoning !== '' && (
        <details className="reasoning">
          <summary>Reasoning{streaming && message.text === '' ? '…' : ''}</summary>
          <div className="reasoning-text">{message.reasoning}</div>
        </details>
      )}
      {message.text !== '' && <Markdown text={message.text} />}
      {streaming && message.text === '' && message.reasoning === '' && <p className="waiting">Waiting for the first words…</p>}
      {STATUS_NOTE[message.status] !== undefined && <p className="status-note">{STATUS_NOTE[message.status]}</p>}
      {message.error !== undefined && message.error.kind !== 'aborted' && <ErrorCallout error={message.error} />}
      {message.usage !== undefined && <UsageLine usage={message.usage} />}
    </article>
  );
});

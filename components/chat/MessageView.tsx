import { Copy, Sparkles } from 'lucide-react';
import { memo, useState } from 'react';
import { IconButton } from '@/components/ui/IconButton';
import { toast } from '@/components/ui/Toast';
import { useWords } from '@/components/i18n/words';
import { noticeText } from '@/components/i18n/problems';
import { splitQuotedSelections } from '@/lib/actions/template';
import type { Message } from '@/lib/conversations/records';
import { ErrorCallout } from './ErrorCallout';
import { Markdown } from './Markdown';

function UsageLine({ usage }: { usage: NonNullable<Message['usage']> }) {
  const w = useWords();
  const parts: string[] = [];
  if (usage.promptTokens !== undefined) parts.push(w.t('message.usage.in', { count: usage.promptTokens }));
  if (usage.completionTokens !== undefined) parts.push(w.t('message.usage.out', { count: usage.completionTokens }));
  if (usage.reasoningTokens !== undefined && usage.reasoningTokens > 0) parts.push(w.t('message.usage.reasoning', { count: usage.reasoningTokens }));
  if (usage.cost !== undefined) parts.push(w.t('message.usage.cost', { cost: usage.cost }));
  if (parts.length === 0) return null;
  return <p className="usage text-2xs text-muted" aria-label={w.t('message.usage.label')}>{w.t('message.usage.line', { parts: parts.join(' · ') })}</p>;
}

/** Quoted page text longer than this is folded (its first lines stay visible in the summary). */
const LONG_QUOTE = 600;

/** A selection quoted from a page: a quote block, folded when long. */
function QuotedSelection({ text, from }: { text: string; from: string | undefined }) {
  const w = useWords();
  const label = from === undefined || from === '' ? w.t('message.quotedFromPage') : w.t('message.quotedFrom', { title: from });
  const size = w.plural('message.characters', text.length);
  if (text.length <= LONG_QUOTE) {
    return (
      <blockquote className="quoted my-1 border-l-2 border-line-strong pl-2.5" aria-label={label}>
        <p className="quote-from text-2xs text-muted">{label}</p>
        <p className="user-text whitespace-pre-wrap text-muted">{text}</p>
      </blockquote>
    );
  }
  return (
    <details className="quoted my-1 border-l-2 border-line-strong pl-2.5">
      <summary className="cursor-pointer text-2xs text-muted" aria-label={`${label} (${size})`}>{label} · {size}</summary>
      <blockquote aria-label={label}><p className="user-text whitespace-pre-wrap text-muted">{text}</p></blockquote>
    </details>
  );
}

/** Earlier answers to the same question, kept when the reply was asked for again. */
function EarlierVersions({ versions }: { versions: NonNullable<Message['versions']> }) {
  const w = useWords();
  return (
    <details className="versions text-xs">
      <summary className="cursor-pointer text-muted hover:text-fg">{w.plural('message.earlierVersions', versions.length)}</summary>
      {versions.map((v, i) => (
        <section key={i} aria-label={w.t('message.earlierVersion', { n: i + 1 })} className="version mt-2 border-l-2 border-line pl-3 text-sm">
          <p className="text-2xs text-muted">{v.model ?? ''}{v.status === 'complete' ? '' : ` · ${w.t(`message.status.${v.status}`)}`}</p>
          {v.text !== '' ? <Markdown text={v.text} /> : <p className="text-2xs text-muted">{w.t('message.reasoningOnly')}</p>}
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
  const w = useWords();
  if (message.role === 'user') {
    return (
      <article aria-label={w.t('message.user')} className="message message-user ml-auto flex max-w-[85%] flex-col gap-1 rounded-lg rounded-br-sm bg-user px-3 py-2 text-sm text-fg [overflow-wrap:anywhere]">
        {message.text !== '' && splitQuotedSelections(message.text).map((part, i) => (part.type === 'quote'
          ? <QuotedSelection key={i} text={part.text} from={quotedFrom} />
          : <p key={i} className="user-text whitespace-pre-wrap">{part.text}</p>))}
        {message.notice !== undefined && <p role="note" className="notice border-l-2 border-warning pl-2 text-xs text-muted">{noticeText(w, message.notice)}</p>}
        {/* Only inline pictures the user attached: a stored remote URL is never loaded. */}
        {message.images?.filter((src) => src.startsWith('data:image/')).length
          ? <div className="flex flex-wrap gap-1.5">{message.images.filter((src) => src.startsWith('data:image/')).map((src, i) => <img key={i} src={src} alt={w.t('message.attachedImage', { n: i + 1 })} className="attached max-h-32 max-w-40 rounded-md border border-line object-cover" />)}</div>
          : null}
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
  const copy = (): void => {
    void navigator.clipboard.writeText(message.text).then(() => toast(w.t('common.copied')), () => toast(w.t('common.copyFailed'), 'error'));
  };
  return (
    <article aria-label={w.t('message.assistant')} aria-busy={streaming} className={`message message-assistant group flex gap-2.5 status-${message.status}`} data-status={message.status}>
      <span aria-hidden className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-soft text-accent-soft-fg [&_svg]:size-3.5"><Sparkles /></span>
      <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">
        {reasoning !== '' && (
          <details className="reasoning rounded-md border border-line bg-surface px-2.5 py-1.5 text-xs text-muted">
            <summary className="cursor-pointer font-medium">{w.t('message.reasoning')}{streaming && message.text === '' ? '…' : ''}</summary>
            <div className="reasoning-text mt-1 whitespace-pre-wrap">{reasoning}</div>
          </details>
        )}
        {moved !== undefined && (
          <button type="button" className="self-start text-xs text-accent underline underline-offset-2" aria-pressed={putBack} onClick={() => setPutBack(!putBack)}>
            {putBack ? w.t('message.foldThink') : w.t('message.unfoldThink')}
          </button>
        )}
        {text !== '' && <Markdown text={text} streaming={streaming} />}
        {streaming && message.text === '' && message.reasoning === '' && (
          <p className="waiting flex items-center gap-1.5 text-xs text-muted"><span aria-hidden className="size-1.5 animate-pulse rounded-full bg-accent motion-reduce:animate-none" />{w.t('message.waiting')}</p>
        )}
        {(message.status === 'stopped' || message.status === 'interrupted') && <p className="status-note text-xs text-muted">{w.t(`message.note.${message.status}`)}</p>}
        {message.error !== undefined && message.error.kind !== 'aborted' && <ErrorCallout error={message.error} modelListed={modelListed} />}
        {(message.usage !== undefined || (!streaming && message.text !== '')) && (
          <div className="flex min-h-7 items-center gap-2">
            {message.usage !== undefined && <UsageLine usage={message.usage} />}
            {!streaming && message.text !== '' && (
              <IconButton size="sm" label={w.t('message.copyReply')} icon={<Copy aria-hidden />} className="text-muted opacity-70 group-hover:opacity-100 focus-visible:opacity-100" onClick={copy} />
            )}
          </div>
        )}
        {message.versions !== undefined && message.versions.length > 0 && <EarlierVersions versions={message.versions} />}
      </div>
    </article>
  );
});

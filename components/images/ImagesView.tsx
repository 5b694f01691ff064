import { ImageIcon, Search } from 'lucide-react';
import { memo, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { Input } from '@/components/ui/Input';
import { Skeleton } from '@/components/ui/Skeleton';
import { Callout } from '@/components/ui/Callout';
import { useWords } from '@/components/i18n/words';
import { relativeTime } from '@/components/conversations/ConversationList';
import type { ImageMeta } from '@/lib/images/types';
import { imageReader } from './reader';
import { useStoredImage } from './useStoredImage';

/** Images read per page (each a thumbnail with its own object URL). */
export const IMAGES_PAGE = 48;
/** A search waits this long after the last key. */
const SEARCH_DELAY_MS = 150;

const Tile = memo(function Tile({ meta, onOpen }: { meta: ImageMeta; onOpen(conversationId: string, messageId: string): void }) {
  const w = useWords();
  const image = useStoredImage(meta.id);
  const name = meta.prompt === '' ? w.t('images.untitled') : meta.prompt;
  return (
    <li className="image-tile min-w-0">
      <button
        type="button" title={w.t('images.view.openTip')}
        className="group/tile flex w-full cursor-pointer flex-col gap-1 rounded-md p-1 text-left hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring"
        onClick={() => onOpen(meta.conversationId, meta.messageId)}
      >
        <span className="block aspect-square w-full overflow-hidden rounded-md border border-line bg-surface">
          {image == null
            ? <Skeleton className="size-full rounded-none" />
            : <img src={image.url} alt={name} loading="lazy" className="size-full object-cover transition-transform group-hover/tile:scale-[1.02] motion-reduce:transition-none" />}
        </span>
        <span aria-hidden className="line-clamp-2 text-xs text-fg">{name}</span>
        <span className="text-2xs text-muted">{relativeTime(w, meta.createdAt)}{meta.model !== undefined ? ` · ${meta.model}` : ''}</span>
      </button>
    </li>
  );
});

/**
 * Every generated image, newest first, across conversations: searchable by the words of its
 * prompt, read a page at a time; each opens its conversation at its reply.
 */
export default function ImagesView({ onOpen }: { onOpen(conversationId: string, messageId: string): void }) {
  const w = useWords();
  const [query, setQuery] = useState('');
  const [asked, setAsked] = useState('');
  const [pages, setPages] = useState(1);
  const [shown, setShown] = useState<{ query: string; images: ImageMeta[]; more: boolean }>();
  const [failed, setFailed] = useState(false);
  const [changes, setChanges] = useState(0);
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setAsked(query.trim());
      setPages(1);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);

  // A new image, a deleted conversation: the list is read again.
  useEffect(() => imageReader().watch(() => setChanges((n) => n + 1), () => setFailed(true)), []);

  useEffect(() => {
    let gone = false;
    const limit = IMAGES_PAGE * pages;
    void imageReader().list({ ...(asked === '' ? {} : { query: asked }), limit: limit + 1 }).then((images) => {
      if (gone) return;
      setFailed(false);
      setShown({ query: asked, images: images.filter((i) => i.partial !== true).slice(0, limit), more: images.length > limit });
    }, () => {
      if (!gone) setFailed(true);
    });
    return () => {
      gone = true;
    };
  }, [asked, pages, changes]);

  useEffect(() => search.current?.focus(), []);

  return (
    <section aria-label={w.t('images.view.title')} className="images-view flex min-h-0 flex-1 flex-col">
      <header className="flex min-h-[45px] shrink-0 flex-wrap items-center gap-2 border-b border-line px-4 py-1.5">
        <h2 className="text-sm font-semibold">{w.t('images.view.title')}</h2>
        <label className="relative ml-auto w-full max-w-72 min-w-40 flex-1">
          <Search aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted" />
          <Input ref={search} type="search" aria-label={w.t('images.view.search')} placeholder={w.t('images.view.searchPlaceholder')} className="h-8 pl-8" value={query} onChange={(e) => setQuery(e.target.value)} />
        </label>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-3" aria-busy={shown === undefined || shown.query !== asked}>
        {failed && <Callout role="alert" tone="warning" className="mb-3">{w.t('images.view.unreadable')}</Callout>}
        {shown === undefined
          ? (
            <ul role="status" aria-label={w.t('images.view.loading')} className="grid grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] gap-2">
              {Array.from({ length: 8 }, (_, i) => <li key={i}><Skeleton className="aspect-square w-full" /></li>)}
            </ul>
          )
          : shown.images.length === 0
            ? (
              <EmptyState icon={<ImageIcon aria-hidden />} title={shown.query === '' ? w.t('images.view.emptyTitle') : w.t('images.view.noMatch', { query: shown.query })}>
                {shown.query === '' && <p>{w.t('images.view.emptyHint')}</p>}
              </EmptyState>
            )
            : (
              <>
                <p className="sr-only" role="status">{w.plural('images.view.count', shown.images.length)}</p>
                <ul aria-label={w.t('images.view.list')} className="grid grid-cols-[repeat(auto-fill,minmax(9rem,1fr))] gap-2">
                  {shown.images.map((meta) => <Tile key={meta.id} meta={meta} onOpen={onOpen} />)}
                </ul>
                {shown.more && <p className="mt-3 flex justify-center"><Button size="sm" onClick={() => setPages((n) => n + 1)}>{w.t('images.view.more')}</Button></p>}
              </>
            )}
      </div>
    </section>
  );
}

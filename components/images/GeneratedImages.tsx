import { Copy, Download, Expand, ImageOff, PenLine } from 'lucide-react';
import { memo, Suspense, useContext, useEffect, useRef, useState } from 'react';
import { IconButton } from '@/components/ui/IconButton';
import { Skeleton } from '@/components/ui/Skeleton';
import { toast } from '@/components/ui/Toast';
import { cx } from '@/components/ui/cx';
import { lazyWithWords, useWords } from '@/components/i18n/words';
import { formatAmount } from '@/components/i18n/money';
import { PricesContext } from '@/components/stores/pricing';
import { priceOf } from '@/lib/gateway/billing';
import type { Message } from '@/lib/conversations/records';
import type { ImageMeta } from '@/lib/images/types';
import { imageReader } from './reader';
import { imageRefIds } from './refs';
import { chooseImageToEdit } from './stores';
import { useStoredImage } from './useStoredImage';

/** A file name from the prompt: its first words, letters and digits of any script, joined by dashes. */
export function imageFileName(prompt: string, extension = 'png'): string {
  const words = prompt.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, ' ').trim().split(' ').filter(Boolean);
  let name = '';
  for (const word of words) {
    if ((name + word).length > 60) break;
    name = name === '' ? word : `${name}-${word}`;
  }
  return `${name === '' ? 'image' : name}.${extension}`;
}

/** The image as a PNG (what Download saves and the clipboard takes). */
export async function asPng(blob: Blob): Promise<Blob> {
  if (blob.type === 'image/png') return blob;
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
  bitmap.close();
  return canvas.convertToBlob({ type: 'image/png' });
}

async function pngOf(id: string): Promise<Blob> {
  const record = await imageReader().get(id);
  if (record === undefined) throw new Error('gone');
  return asPng(record.blob);
}

/** Saves the image as a PNG file named from its prompt. */
export async function downloadImage(id: string, prompt: string): Promise<void> {
  const url = URL.createObjectURL(await pngOf(id));
  const link = document.createElement('a');
  link.href = url;
  link.download = imageFileName(prompt);
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Once the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// "Open image" (a full-window viewer): its code arrives when an image is first opened.
const ImageViewer = lazyWithWords(() => import('./ImageViewer'));

function copyImage(id: string, words: ReturnType<typeof useWords>): void {
  // The item is made in the click (its bytes follow): the browser allows the write from the gesture.
  const write = typeof ClipboardItem === 'undefined' || navigator.clipboard?.write === undefined
    ? Promise.reject(new Error('unsupported'))
    : navigator.clipboard.write([new ClipboardItem({ 'image/png': pngOf(id) })]);
  write.then(() => toast(words.t('images.copied')), () => toast(words.t('images.copyFailed'), 'error'));
}

/** The image's shape before it has loaded (its place kept, so the conversation does not jump). */
function aspectOf(meta: ImageMeta): { aspectRatio: string } | undefined {
  const [width, height] = meta.width !== undefined && meta.height !== undefined ? [meta.width, meta.height] : (meta.size ?? '').split('x').map(Number);
  return width !== undefined && height !== undefined && width > 0 && height > 0 ? { aspectRatio: `${width} / ${height}` } : undefined;
}

/** How far outside the window an image is read and drawn ahead of being scrolled to. */
const AHEAD = '800px 0px';

/**
 * Whether the element has come near the window (it stays so): a conversation of many images
 * reads and draws those on screen first, the others as they are scrolled to.
 */
function useNearWindow(): [React.RefObject<HTMLLIElement | null>, boolean] {
  const ref = useRef<HTMLLIElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || element === null) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        setNear(true);
        observer.disconnect();
      }
    }, { rootMargin: AHEAD });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/** An image's place until it comes near the window: its shape kept, nothing read yet. */
const ImageCard = memo(function ImageCard(props: { id: string; model: string | undefined; version: string; shape: { aspectRatio: string } | undefined }) {
  const [ref, near] = useNearWindow();
  if (near) return <ShownImage {...props} />;
  return <li ref={ref} style={props.shape} className="generated-image aspect-square w-full"><Skeleton className="size-full" /></li>;
});

/** One image of a reply: the picture, its cost, and what can be done with it. */
function ShownImage({ id, model, version }: { id: string; model: string | undefined; version: string }) {
  const w = useWords();
  const image = useStoredImage(id, version);
  const prices = useContext(PricesContext);
  const [viewing, setViewing] = useState(false);
  // While the reply streams, an image its text names may not be saved yet: it is read again when the reply's images change.
  if (image === undefined || (image === null && version.startsWith('streaming'))) return <li className="generated-image"><Skeleton className="aspect-square w-full" /></li>;
  if (image === null) {
    return (
      <li className="generated-image flex aspect-square w-full flex-col items-center justify-center gap-1 rounded-md border border-dashed border-line text-2xs text-muted">
        <ImageOff aria-hidden className="size-5" />{w.t('images.missing')}
      </li>
    );
  }
  const meta: ImageMeta = image.meta;
  const perRequest = priceOf(prices, model ?? meta.model);
  const cost = meta.cost ?? (perRequest?.perRequest === undefined ? undefined : { amount: perRequest.perRequest, currency: perRequest.currency });
  const name = meta.prompt === '' ? w.t('images.untitled') : meta.prompt;
  return (
    <li className="generated-image group/image flex min-w-0 flex-col gap-1" aria-busy={meta.partial === true || undefined}>
      <figure className="relative overflow-hidden rounded-md border border-line bg-surface">
        <img src={image.url} alt={name} title={meta.revisedPrompt ?? meta.prompt} loading="lazy" decoding="async" style={aspectOf(meta)} className={cx('block h-auto w-full object-contain', meta.partial === true && 'opacity-70 blur-[1px]')} />
        {meta.partial === true && (
          <figcaption className="absolute right-1.5 bottom-1.5 rounded-full bg-bg/85 px-2 py-0.5 text-2xs font-medium text-fg shadow-xs">{w.t('images.partial')}</figcaption>
        )}
      </figure>
      {meta.partial !== true && (
        <div className="image-tools flex flex-wrap items-center gap-0.5">
          <IconButton size="sm" className="!size-6 text-muted" label={w.t('images.download')} icon={<Download aria-hidden />} onClick={() => void downloadImage(id, meta.prompt).catch(() => toast(w.t('images.missing'), 'error'))} />
          <IconButton size="sm" className="!size-6 text-muted" label={w.t('images.copy')} icon={<Copy aria-hidden />} onClick={() => copyImage(id, w)} />
          <IconButton size="sm" className="!size-6 text-muted" label={w.t('images.edit')} icon={<PenLine aria-hidden />} onClick={() => {
            chooseImageToEdit({ id, conversationId: meta.conversationId, prompt: meta.prompt });
            document.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus();
          }} />
          <IconButton size="sm" className="!size-6 text-muted" label={w.t('images.open')} icon={<Expand aria-hidden />} onClick={() => setViewing(true)} />
          {cost !== undefined && <span className="image-cost ml-auto text-2xs text-muted tabular-nums">{w.t('images.perImage', { cost: formatAmount(w, cost.amount, cost.currency) })}</span>}
        </div>
      )}
      {viewing && (
        <Suspense fallback={null}>
          <ImageViewer open onOpenChange={setViewing} url={image.url} prompt={meta.prompt} onDownload={() => void downloadImage(id, meta.prompt).catch(() => toast(w.t('images.missing'), 'error'))} />
        </Suspense>
      )}
    </li>
  );
}

/**
 * A reply's images: those an image model generated (`imageIds`), and those a chat model's text
 * named (`gc-image:` references). While the reply streams, what is coming is shown as busy.
 */
export function GeneratedImages({ message }: { message: Pick<Message, 'imageIds' | 'imageRequest' | 'text' | 'status' | 'model'> }) {
  const w = useWords();
  const fromText = imageRefIds(message.text);
  const ids = [...(message.imageIds ?? []), ...fromText.filter((id) => !(message.imageIds ?? []).includes(id))];
  const streaming = message.status === 'streaming';
  const expected = message.imageRequest?.options.n ?? 1;
  const waiting = streaming && message.imageRequest !== undefined ? Math.max(0, expected - ids.length) : 0;
  // What is still coming keeps the shape asked for (square when the size is left to the model).
  const [askedW, askedH] = (message.imageRequest?.options.size ?? '').split('x').map(Number);
  const waitingShape = askedW !== undefined && askedH !== undefined && askedW > 0 && askedH > 0 ? { aspectRatio: `${askedW} / ${askedH}` } : undefined;
  if (ids.length === 0 && waiting === 0) return null;
  return (
    <section role="group" aria-label={w.t('images.group')} aria-busy={streaming} className="generated-images">
      <ul className={cx('grid gap-2', ids.length + waiting > 1 ? 'max-w-xl grid-cols-2' : 'max-w-sm grid-cols-1')}>
        {ids.map((id) => <ImageCard key={id} id={id} model={message.model} version={`${message.status}:${message.imageIds?.length ?? 0}`} shape={waitingShape} />)}
        {Array.from({ length: waiting }, (_, i) => (
          <li key={`waiting-${i}`} style={waitingShape} className="image-waiting flex aspect-square w-full flex-col items-center justify-center gap-2 rounded-md border border-line bg-surface">
            <Skeleton className="size-10 rounded-full" />
            <span className="text-2xs text-muted">{w.t('images.generating')}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

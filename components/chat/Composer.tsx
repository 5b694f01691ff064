import { ArrowUp, Camera, ImagePlus, Square, X } from 'lucide-react';
import { memo, useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { buttonClass } from '@/components/ui/Button';
import { isComposing } from '@/components/ui/keys';
import { Callout } from '@/components/ui/Callout';
import { IconButton } from '@/components/ui/IconButton';
import { Tooltip } from '@/components/ui/Tooltip';
import { cx } from '@/components/ui/cx';
import { checkMessageSize } from '@/lib/runs/limits';
import { tooLargeText } from './words';

/** Whether the chosen model takes images, and what the user can do about it. */
export interface ImageSupport {
  model: string;
  /** true: it does (the catalogue says so, or the user confirmed); false: text only; 'unknown'. */
  accepts: boolean | 'unknown';
  onConfirm(): void;
  /** Only in surfaces beside a page (the side panel): capture the visible tab. */
  onCapture?: () => Promise<{ ok: true; dataUrl: string } | { ok: false; message: string }>;
}

interface ComposerProps {
  streaming: boolean;
  disabled?: boolean;
  images?: ImageSupport;
  onSend(text: string, images: string[]): Promise<boolean>;
  onStop(): void;
}

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });
}

/** Why images are off for this model, in a sentence (the attach button's tooltip). */
function imagesOffText(images: ImageSupport): string | undefined {
  if (images.accepts === true) return undefined;
  if (images.accepts === false) return `Images are off: the gateway's catalogue lists ${images.model} as text-only.`;
  return `Images are off: the gateway does not say whether ${images.model} accepts images. Check its page in the catalogue first.`;
}

/** Shown when an image is added to a model that does not take images: why, and the way out. */
function ImageGate({ images }: { images: ImageSupport }) {
  const text = imagesOffText(images);
  if (text === undefined) return null;
  return (
    <Callout role="note" tone="info">
      <p>{text}</p>
      {images.accepts === 'unknown' && (
        <p><button type="button" className={buttonClass('secondary', 'sm')} onClick={images.onConfirm}>{images.model} accepts images</button></p>
      )}
    </Callout>
  );
}

/** Above this many characters the composer shows the message's size. */
const SIZE_HINT_FROM = 2_000;

/** Enter sends, Shift+Enter starts a new line; Stop while a reply streams; images by paste, drop, picker or capture. */
export const Composer = memo(function Composer({ streaming, disabled = false, images, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  // The capability note appears when the user tries to add an image, not before.
  const [gateShown, setGateShown] = useState(false);
  // Two Enters (or clicks) in one tick both see the same render: the ref refuses the second.
  const inFlight = useRef(false);
  // A new composer takes the focus, unless the user has put it elsewhere meanwhile (the side
  // panel's tabs, say, while the conversation was still loading): only from nowhere, or from
  // within this conversation (New chat).
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const el = box.current;
    const active = document.activeElement;
    if (el === null) return;
    if (active === null || active === document.body || el.closest('.chat')?.contains(active) === true) el.focus();
  }, []);
  const canAttach = images?.accepts === true && !disabled;

  const attach = async (files: Iterable<File>): Promise<void> => {
    setProblem(undefined);
    const list = [...files].filter((f) => f.type.startsWith('image/'));
    if (list.length === 0) return;
    if (!canAttach) {
      setGateShown(true);
      setProblem(images === undefined ? 'Images cannot be attached here.' : images.accepts === false ? `${images.model} does not accept images.` : `Confirm first that ${images.model} accepts images.`);
      return;
    }
    for (const file of list) {
      if (file.size > MAX_IMAGE_BYTES) {
        setProblem(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; images up to 10 MB can be attached. Resize it and attach it again.`);
        continue;
      }
      try {
        const url = await readAsDataUrl(file);
        setAttached((now) => [...now, url]);
      } catch {
        setProblem(`${file.name} could not be read.`);
      }
    }
  };

  const send = async (): Promise<void> => {
    if ((text.trim() === '' && attached.length === 0) || streaming || inFlight.current) return;
    const tooLarge = checkMessageSize(text.trim(), attached);
    if (tooLarge !== undefined) {
      setProblem(tooLargeText(tooLarge));
      return;
    }
    setProblem(undefined);
    inFlight.current = true;
    setSending(true);
    let sent: boolean;
    try {
      sent = await onSend(text, attached);
    } finally {
      inFlight.current = false;
      setSending(false);
    }
    if (sent) {
      setText('');
      setAttached([]);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !isComposing(event)) {
      event.preventDefault();
      void send();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = [...event.clipboardData.files].filter((f) => f.type.startsWith('image/'));
    if (files.length > 0) {
      event.preventDefault();
      void attach(files);
    }
  };

  const onDrop = (event: DragEvent<HTMLFormElement>): void => {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    void attach(event.dataTransfer.files);
  };

  const capture = async (): Promise<void> => {
    if (images?.onCapture === undefined) return;
    const result = await images.onCapture();
    if (result.ok) setAttached((now) => [...now, result.dataUrl]);
    else setProblem(result.message);
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void send();
  };

  const offText = images === undefined ? undefined : imagesOffText(images);
  const empty = text.trim() === '' && attached.length === 0;
  return (
    <form className="composer-form shrink-0 px-3 pt-1 pb-3" onSubmit={onSubmit} onDrop={onDrop} onDragOver={(e) => e.preventDefault()}>
      {(problem !== undefined || (gateShown && images !== undefined && offText !== undefined)) && (
        <div className="mb-2 flex flex-col gap-2">
          {problem !== undefined && <Callout role="alert" tone="danger" className="problem">{problem}</Callout>}
          {gateShown && images !== undefined && <ImageGate images={images} />}
        </div>
      )}
      <div className="composer rounded-lg border border-line bg-raised shadow-xs transition-colors focus-within:border-ring focus-within:outline-2 focus-within:outline-ring/30">
        {attached.length > 0 && (
          <ul className="attachments flex flex-wrap gap-2 px-2.5 pt-2.5" aria-label="Attached images">
            {attached.map((src, i) => (
              <li key={i} className="relative">
                <img src={src} alt={`Attached image ${i + 1}`} className="size-14 rounded-md border border-line object-cover" />
                <button type="button" aria-label={`Remove image ${i + 1}`} className="absolute -top-1.5 -right-1.5 flex size-5 cursor-pointer items-center justify-center rounded-full border border-line bg-raised text-fg shadow-sm hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring" onClick={() => setAttached((now) => now.filter((_, j) => j !== i))}>
                  <X aria-hidden className="size-3" />
                </button>
              </li>
            ))}
          </ul>
        )}
        <textarea
          aria-label="Message"
          placeholder="Ask anything"
          className="block max-h-48 min-h-11 w-full resize-none bg-transparent px-3 pt-2.5 pb-1 text-sm leading-relaxed text-fg outline-none placeholder:text-muted [field-sizing:content] focus-visible:outline-none"
          value={text}
          rows={2}
          ref={box}
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        <div className="flex items-center gap-1 px-1.5 pb-1.5">
          {images !== undefined && (
            <Tooltip content={offText ?? 'Attach image'} side="top">
              <label
                className={cx(buttonClass('ghost', 'sm', '!w-7 !px-0 attach'), 'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring', !canAttach && 'opacity-50 !cursor-not-allowed')}
                onClick={() => { if (!canAttach) setGateShown(true); }}
              >
                <ImagePlus aria-hidden />
                <input type="file" accept="image/*" multiple aria-label="Attach image" className="sr-only" disabled={!canAttach} onChange={(e) => {
                  if (e.target.files !== null) void attach(e.target.files);
                  e.target.value = '';
                }} />
              </label>
            </Tooltip>
          )}
          {images?.onCapture !== undefined && (
            <IconButton size="sm" label="Capture visible tab" tip={offText ?? 'Capture visible tab'} tooltipSide="top" icon={<Camera aria-hidden />} disabled={!canAttach} onClick={() => void capture()} />
          )}
          <span className="ml-auto px-1 text-2xs text-muted" aria-live="polite">
            {text.length >= SIZE_HINT_FROM ? `${text.length.toLocaleString()} characters` : ''}
          </span>
          {streaming
            ? <IconButton size="sm" variant="secondary" label="Stop" tooltipSide="top" icon={<Square aria-hidden className="fill-current" />} onClick={onStop} />
            : <IconButton size="sm" variant="primary" type="submit" label="Send" tip="Send (Enter)" tooltipSide="top" icon={<ArrowUp aria-hidden />} disabled={disabled || sending || empty} />}
        </div>
      </div>
    </form>
  );
});

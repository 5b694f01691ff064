import { useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
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

function ImageGate({ images }: { images: ImageSupport }) {
  if (images.accepts === true) return null;
  if (images.accepts === false) {
    return <p className="hint" role="note">Images are off: the gateway's catalogue lists {images.model} as text-only.</p>;
  }
  return (
    <p className="hint" role="note">
      Images are off: the gateway does not say whether {images.model} accepts images. Check its page in the catalogue first.{' '}
      <button type="button" className="link" onClick={images.onConfirm}>{images.model} accepts images</button>
    </p>
  );
}

/** Enter sends, Shift+Enter starts a new line; Stop while a reply streams; images by paste, drop, picker or capture. */
export function Composer({ streaming, disabled = false, images, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState('');
  const [attached, setAttached] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  // Two Enters (or clicks) in one tick both see the same render: the ref refuses the second.
  const inFlight = useRef(false);
  const canAttach = images?.accepts === true && !disabled;

  const attach = async (files: Iterable<File>): Promise<void> => {
    setProblem(undefined);
    const list = [...files].filter((f) => f.type.startsWith('image/'));
    if (list.length === 0) return;
    if (!canAttach) {
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
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
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

  return (
    <form className="composer-form" onSubmit={onSubmit} onDrop={onDrop} onDragOver={(e) => e.preventDefault()}>
      {attached.length > 0 && (
        <ul className="attachments" aria-label="Attached images">
          {attached.map((src, i) => (
            <li key={i}>
              <img src={src} alt={`Attached image ${i + 1}`} />
              <button type="button" onClick={() => setAttached((now) => now.filter((_, j) => j !== i))}>Remove image {i + 1}</button>
            </li>
          ))}
        </ul>
      )}
      <div className="composer">
        <textarea
          aria-label="Message"
          placeholder="Ask anything (Enter sends, Shift+Enter for a new line)"
          value={text}
          rows={2}
          autoFocus
          disabled={disabled}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {streaming
          ? <button type="button" onClick={onStop}>Stop</button>
          : <button type="submit" disabled={disabled || sending || (text.trim() === '' && attached.length === 0)}>Send</button>}
      </div>
      {images !== undefined && (
        <div className="attach-row">
          <label className={canAttach ? 'attach' : 'attach disabled'}>
            Attach image
            <input type="file" accept="image/*" multiple aria-label="Attach image" disabled={!canAttach} onChange={(e) => {
              if (e.target.files !== null) void attach(e.target.files);
              e.target.value = '';
            }} />
          </label>
          {images.onCapture !== undefined && <button type="button" disabled={!canAttach} onClick={() => void capture()}>Capture visible tab</button>}
          <ImageGate images={images} />
        </div>
      )}
      {problem !== undefined && <p role="alert" className="problem">{problem}</p>}
    </form>
  );
}

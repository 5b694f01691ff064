import { ArrowUp, BookMarked, Camera, FileText, ImagePlus, Mic, Paintbrush, Paperclip, Square, Wrench, X, Zap } from 'lucide-react';
import { memo, Suspense, useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Badge } from '@/components/ui/Badge';
import { matchPrompts, slashCommand, type PromptChoice } from '@/lib/actions/prompts';
import { buttonClass } from '@/components/ui/Button';
import { isComposing } from '@/components/ui/keys';
import { Callout } from '@/components/ui/Callout';
import { IconButton } from '@/components/ui/IconButton';
import { Tooltip } from '@/components/ui/Tooltip';
import { cx } from '@/components/ui/cx';
import { checkMessageSize } from '@/lib/runs/limits';
import { lazyWithWords, useWords } from '@/components/i18n/words';
import { tooLargeText } from '@/components/i18n/problems';
import type { Words } from '@/lib/i18n/messages';
import { ConfirmDialog } from '@/components/ui/Dialog';
import { formatAmount } from '@/components/i18n/money';
import { chooseImageToEdit, ensureImagePrefs, setImageOptions, updateImagePrefs, useImageEdit, useImagePrefs } from '@/components/images/stores';
import { isImageSize, optionsFor } from '@/lib/images/models';
import type { ImageOptions } from '@/lib/images/types';
import type { ModelPrice } from '@/lib/gateway/billing';
import type { AttachedFile } from '@/lib/files/types';
import { useAttachedFiles } from '@/components/files/useAttachedFiles';
import type { DictationTarget } from '@/components/voice/target';
import type { ToolsChoice } from '@/components/tools/ToolsMenu';

/** Image generation with the chosen model (issue 30): on for an image model, or when the user turned it on. */
export interface ImageGeneration {
  model: string;
  /** The catalogue marks it as an image model (`imageGeneration`). */
  marked: boolean;
  /** The conversation the composer writes to (an image chosen to edit belongs to one). */
  conversationId: string;
  /** Its listed price (per call, for image models). */
  price?: ModelPrice | undefined;
}

/** What an image request asks, beside its prompt (the run's `image`). */
export interface ImageSend {
  options: ImageOptions;
  editOf?: string;
}

/** Whether the chosen model takes images, and what the user can do about it. */
export interface ImageSupport {
  model: string;
  /** true: it does (the catalogue says so, or the user confirmed); false: text only; 'unknown'. */
  accepts: boolean | 'unknown';
  onConfirm(): void;
  /** Only in surfaces beside a page (the side panel): capture the visible tab. */
  onCapture?: () => Promise<{ ok: true; dataUrl: string } | { ok: false; detail: string }>;
}

interface ComposerProps {
  streaming: boolean;
  disabled?: boolean;
  images?: ImageSupport;
  /** Offered where a model is chosen: generate images with it (issue 30). */
  generation?: ImageGeneration | undefined;
  onSend(text: string, images: string[], image?: ImageSend, files?: AttachedFile[]): Promise<boolean>;
  onStop(): void;
  /** ↑ in an empty composer: edit the last message sent. */
  onEditLast?: (() => void) | undefined;
  /** "Ask about this page" (surfaces beside a page): what is typed is the question; true once it started. */
  onAskPage?: ((question: string) => Promise<boolean>) | undefined;
  /** The prompt library, listed when the message starts with `/`. */
  prompts?: readonly PromptChoice[] | undefined;
  /** Runs a prompt on what was typed (empty: on the page, where there is one); true once it started. */
  onPrompt?: ((choice: PromptChoice, input: string) => Promise<boolean>) | undefined;
  /** Dictate: where the words go and how (the chat view knows the gateway and the Voice settings). */
  dictation?: DictationTarget | undefined;
  /** The "Tools" menu: which tools the model may call in this conversation (issue 33). */
  tools?: ToolsChoice | undefined;
}

// The list's code (cmdk, a popover) is fetched the first time `/` is typed.
const PromptList = lazyWithWords(() => import('@/components/ui/ComboboxList'));
// Image generation's controls: their code arrives when an image model is first chosen (off the popup's first chunk).
const ImageOptionsRow = lazyWithWords(() => import('@/components/images/ImageOptionsRow').then((m) => ({ default: m.ImageOptionsRow })));
const ImageToEdit = lazyWithWords(() => import('@/components/images/ImageToEdit'));
// Attached files' chips and refusals: their code arrives with the first file.
const FileChips = lazyWithWords(() => import('@/components/files/FileChips').then((m) => ({ default: m.FileChips })));
// Dictation's recorder and bar: their code arrives with the first press of Dictate.
const Dictation = lazyWithWords(() => import('@/components/voice/Dictation'));
// The "Tools" menu: its code (a dropdown, the tool config) arrives after the composer is shown.
const ToolsMenu = lazyWithWords(() => import('@/components/tools/ToolsMenu'));
const FileRefusals = lazyWithWords(() => import('@/components/files/FileChips').then((m) => ({ default: m.FileRefusals })));

function PromptRow({ choice }: { choice: PromptChoice }) {
  const w = useWords();
  return (
    <>
      <span className="flex size-4 shrink-0 items-center justify-center text-muted [&_svg]:size-3.5">{choice.kind === 'action' ? <Zap aria-hidden /> : <BookMarked aria-hidden />}</span>
      {/* Spaces between the parts: the row reads as its name says ("Explain action"). */}
      <span className="min-w-0 flex-1 truncate">{choice.name}</span>{' '}
      {choice.model !== undefined && <><span className="shrink-0 truncate text-2xs text-muted">{choice.model}</span>{' '}</>}
      <Badge tone={choice.kind === 'action' ? 'accent' : 'neutral'}>{w.t(`prompts.${choice.kind}`)}</Badge>
    </>
  );
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
function imagesOffText(w: Words, images: ImageSupport): string | undefined {
  if (images.accepts === true) return undefined;
  if (images.accepts === false) return w.t('composer.imagesOff.textOnly', { model: images.model });
  return w.t('composer.imagesOff.unknown', { model: images.model });
}

/** Shown when an image is added to a model that does not take images: why, and the way out. */
function ImageGate({ images }: { images: ImageSupport }) {
  const w = useWords();
  const text = imagesOffText(w, images);
  if (text === undefined) return null;
  return (
    <Callout role="note" tone="info">
      <p>{text}</p>
      {images.accepts === 'unknown' && (
        <p><button type="button" className={buttonClass('secondary', 'sm')} onClick={images.onConfirm}>{w.t('composer.confirmImages', { model: images.model })}</button></p>
      )}
    </Callout>
  );
}

const NO_OPTIONS: ImageOptions = {};

/** Above this many characters the composer shows the message's size. */
const SIZE_HINT_FROM = 2_000;

/** Enter sends, Shift+Enter starts a new line; Stop while a reply streams; images by paste, drop, picker or capture. */
export const Composer = memo(function Composer({ streaming, disabled = false, images, generation, onSend, onStop, onEditLast, onAskPage, prompts, onPrompt, dictation, tools }: ComposerProps) {
  const [text, setText] = useState('');
  const [dictating, setDictating] = useState(false);
  // What is typed now, for a dictation that lands after renders its callbacks were made in.
  const typedNow = useRef(text);
  useEffect(() => {
    typedNow.current = text;
  }, [text]);
  // The prompt library: `/` at the start lists it; the chosen prompt waits for its text as a chip.
  const [chosen, setChosen] = useState<PromptChoice>();
  const [slashDismissed, setSlashDismissed] = useState(false);
  const [slashActive, setSlashActive] = useState(0);
  const [listIds, setListIds] = useState<{ list?: string; active?: string }>({});
  const boxRef = useRef<HTMLDivElement>(null);
  const slash = prompts !== undefined && onPrompt !== undefined && !slashDismissed ? slashCommand(text) : undefined;
  const slashQuery = slash?.query;
  const promptItems = useMemo(() => (slashQuery === undefined || prompts === undefined ? [] : matchPrompts(prompts, slashQuery)), [slashQuery, prompts]);
  const slashIndex = Math.min(slashActive, Math.max(0, promptItems.length - 1));
  const [attached, setAttached] = useState<string[]>([]);
  // PDFs, Word documents and text files: read in the files worker, sent as their text.
  const attachedFiles = useAttachedFiles();
  const { files, reading: readingFiles } = attachedFiles;
  const w = useWords();
  // Kept as words to be, so a language change re-words a problem already shown.
  const [problem, setProblem] = useState<((w: Words) => string) | undefined>();
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
  // Image generation: the model's saved options, on for an image model or when turned on (and confirmed).
  useEffect(() => void ensureImagePrefs(), []);
  const genModel = generation?.model;
  const prefs = useImagePrefs((s) => (genModel === undefined ? undefined : s.prefs[genModel]));
  const editOfChosen = useImageEdit((s) => s.editOf);
  const editOf = editOfChosen !== undefined && generation !== undefined && editOfChosen.conversationId === generation.conversationId ? editOfChosen : undefined;
  // An image chosen to edit does not by itself make a model an image model: one the catalogue does
  // not mark asks "Try anyway?" first (on send).
  const imageMode = generation !== undefined && (generation.marked || prefs?.on === true);
  const imageOptions = prefs?.options ?? NO_OPTIONS;
  const [askImage, setAskImage] = useState(false);
  const canAttach = (images?.accepts === true || imageMode) && !disabled;

  /** Files from the picker, a drop or a paste: pictures as images, the rest as attached files (not while generating images). */
  const takeFiles = (list: readonly File[]): void => {
    const others = list.filter((f) => !f.type.startsWith('image/'));
    if (others.length > 0 && !imageMode) attachedFiles.add(others);
    if (others.length < list.length) void attach(list);
  };

  const attach = async (chosenFiles: Iterable<File>): Promise<void> => {
    setProblem(undefined);
    const list = [...chosenFiles].filter((f) => f.type.startsWith('image/'));
    if (list.length === 0) return;
    if (!canAttach) {
      setGateShown(true);
      setProblem(() => (words: Words) => images === undefined ? words.t('composer.noImagesHere') : images.accepts === false ? words.t('composer.modelNoImages', { model: images.model }) : words.t('composer.confirmFirst', { model: images.model }));
      return;
    }
    for (const file of list) {
      if (file.size > MAX_IMAGE_BYTES) {
        setProblem(() => (words: Words) => words.t('composer.imageTooLarge', { name: file.name, size: Number((file.size / 1024 / 1024).toFixed(1)), limit: MAX_IMAGE_BYTES / 1024 / 1024 }));
        continue;
      }
      try {
        const url = await readAsDataUrl(file);
        setAttached((now) => [...now, url]);
      } catch {
        setProblem(() => (words: Words) => words.t('composer.imageUnreadable', { name: file.name }));
      }
    }
  };

  /** Sends once (a second Enter in the same tick is refused), the composer busy meanwhile; `done` runs once it was sent. */
  const submit = async (go: () => Promise<boolean>, done: () => void): Promise<void> => {
    setProblem(undefined);
    inFlight.current = true;
    setSending(true);
    let sent: boolean;
    try {
      sent = await go();
    } finally {
      inFlight.current = false;
      setSending(false);
    }
    if (sent) done();
  };

  /** Runs a prompt on `input` (the typed text; empty: the page, where the surface has one). */
  const runPrompt = async (choice: PromptChoice, input: string): Promise<void> => {
    if (onPrompt === undefined || streaming || inFlight.current) return;
    await submit(() => onPrompt(choice, input), () => {
      setText('');
      setChosen(undefined);
    });
  };

  /** A prompt chosen from the `/` list: run now on the text after the command, or kept as a chip for the text to come. */
  const choosePrompt = (choice: PromptChoice | undefined): void => {
    if (choice === undefined || slash === undefined) return;
    const rest = slash.rest;
    setSlashActive(0);
    if (choice.kind === 'preset') {
      setText(rest);
      void onPrompt?.(choice, '');
      return;
    }
    if (rest !== '') {
      setChosen(choice);
      setText(rest);
      void runPrompt(choice, rest);
      return;
    }
    setChosen(choice);
    setText('');
  };

  /** Sends what is typed (or `typed`: a dictation sent as soon as it is written down). */
  const send = async (typed: string = text): Promise<void> => {
    if (editOf !== undefined && !imageMode && generation !== undefined) {
      setAskImage(true);
      return;
    }
    if (imageMode && generation !== undefined) {
      if (typed.trim() === '' || streaming || inFlight.current) return;
      if (imageOptions.size !== undefined && imageOptions.size !== '' && !isImageSize(imageOptions.size)) {
        setProblem(() => (words: Words) => words.t('images.options.sizeInvalid'));
        return;
      }
      const image: ImageSend = { options: optionsFor(generation.model, imageOptions), ...(editOf === undefined ? {} : { editOf: editOf.id }) };
      await submit(() => onSend(typed, attached, image), () => {
        setText('');
        setAttached([]);
        if (editOf !== undefined) chooseImageToEdit(undefined);
      });
      return;
    }
    if (chosen !== undefined && attached.length === 0 && files.length === 0) return runPrompt(chosen, typed.trim());
    // A file still being read holds the message back: it is sent with all its files or not yet.
    if ((typed.trim() === '' && attached.length === 0 && files.length === 0) || readingFiles.length > 0 || streaming || inFlight.current) return;
    const tooLarge = checkMessageSize(typed.trim(), attached, undefined, files);
    if (tooLarge !== undefined) {
      setProblem(() => (words: Words) => tooLargeText(words, tooLarge));
      return;
    }
    await submit(() => (files.length > 0 ? onSend(typed, attached, undefined, files) : onSend(typed, attached)), () => {
      setText('');
      setAttached([]);
      attachedFiles.clear();
    });
  };

  // The newest send (its files, images and state), for a dictation that ends after renders.
  const sendNow = useRef(send);
  useEffect(() => {
    sendNow.current = send;
  });

  /** A dictation's text, put in at the caret (spaced from the words around it); sent at once when the user chose so. */
  const putDictated = (said: string): void => {
    const now = typedNow.current;
    const el = box.current;
    const start = el === null ? now.length : Math.min(el.selectionStart, now.length);
    const end = el === null ? now.length : Math.min(el.selectionEnd, now.length);
    const before = now.slice(0, start);
    const after = now.slice(end);
    const lead = before === '' || /\s$/.test(before) ? '' : ' ';
    const trail = after === '' || /^\s/.test(after) ? '' : ' ';
    const next = `${before}${lead}${said}${trail}${after}`;
    setText(next);
    typedNow.current = next;
    if (dictation?.sendAfter === true) {
      void sendNow.current(next);
      return;
    }
    requestAnimationFrame(() => {
      const caret = before.length + lead.length + said.length;
      box.current?.focus();
      box.current?.setSelectionRange(caret, caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (slash !== undefined && !isComposing(event)) {
      const move = (to: number): void => {
        event.preventDefault();
        setSlashActive(Math.max(0, Math.min(promptItems.length - 1, to)));
      };
      if (event.key === 'ArrowDown') return move(slashIndex + 1);
      if (event.key === 'ArrowUp') return move(slashIndex - 1);
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        const item = promptItems[slashIndex];
        if (item !== undefined) {
          event.preventDefault();
          choosePrompt(item);
          return;
        }
      }
      if (event.key === 'Escape') {
        // Closes the list only (a streaming reply is stopped by the next Esc).
        event.preventDefault();
        event.nativeEvent.stopImmediatePropagation();
        setSlashDismissed(true);
        return;
      }
    }
    if (event.key === 'Backspace' && chosen !== undefined && event.currentTarget.value === '') {
      event.preventDefault();
      setChosen(undefined);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !isComposing(event)) {
      event.preventDefault();
      void send();
    } else if (event.key === 'ArrowUp' && onEditLast !== undefined && event.currentTarget.value === '' && !isComposing(event)) {
      event.preventDefault();
      onEditLast();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>): void => {
    const pasted = [...event.clipboardData.files];
    if (pasted.length > 0) {
      event.preventDefault();
      takeFiles(pasted);
    }
  };

  const onDrop = (event: DragEvent<HTMLFormElement>): void => {
    if (event.dataTransfer.files.length === 0) return;
    event.preventDefault();
    takeFiles([...event.dataTransfer.files]);
  };

  const capture = async (): Promise<void> => {
    if (images?.onCapture === undefined) return;
    const result = await images.onCapture();
    if (result.ok) setAttached((now) => [...now, result.dataUrl]);
    else setProblem(() => (words: Words) => words.t('composer.captureRefused', { detail: result.detail }));
  };

  const [reading, setReading] = useState(false);
  const askPage = async (): Promise<void> => {
    if (onAskPage === undefined || reading || streaming) return;
    setProblem(undefined);
    setReading(true);
    try {
      if (await onAskPage(text)) setText('');
    } finally {
      setReading(false);
    }
  };

  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    void send();
  };

  const offText = images === undefined || imageMode ? undefined : imagesOffText(w, images);
  const count = imageOptions.n ?? 1;
  const perCall = generation?.price?.perRequest;
  const imagePrice = imageMode && perCall !== undefined && generation?.price !== undefined ? formatAmount(w, perCall * count, generation.price.currency) : undefined;
  const toggleImage = (): void => {
    if (generation === undefined || generation.marked) return;
    if (prefs?.on === true) updateImagePrefs(generation.model, (p) => ({ ...p, on: false }));
    else setAskImage(true);
  };
  const empty = text.trim() === '' && attached.length === 0 && files.length === 0 && chosen === undefined;
  const fileRefusals = attachedFiles.refusals;
  return (
    // Above the history in paint order (relative, z-index 1): the focused field's caret is a layer
    // of its own, and everything painted after a layer and over it needs one too. Painted last,
    // the composer is the only such thing; painted in its place, the history's positioned content
    // (code heads, formulas, blocks) got a layer each, made anew every frame a reply streamed and
    // scrolled (measured: 9% of the page's busy time while a reply streams).
    <form className="composer-form relative z-1 shrink-0 px-3 pt-1 pb-3" onSubmit={onSubmit} onDrop={onDrop} onDragOver={(e) => e.preventDefault()}>
      {(problem !== undefined || fileRefusals.length > 0 || (gateShown && images !== undefined && offText !== undefined)) && (
        <div className="mb-2 flex flex-col gap-2">
          {problem !== undefined && <Callout role="alert" tone="danger" className="problem">{problem(w)}</Callout>}
          {fileRefusals.length > 0 && <Suspense fallback={null}><FileRefusals refusals={fileRefusals} onDismiss={attachedFiles.dismissRefusals} /></Suspense>}
          {gateShown && images !== undefined && <ImageGate images={images} />}
        </div>
      )}
      <div ref={boxRef} className="composer rounded-lg border border-line bg-raised shadow-xs transition-colors focus-within:border-ring focus-within:outline-2 focus-within:outline-ring/30">
        {chosen !== undefined && (
          <p className="chosen-prompt flex px-2.5 pt-2.5">
            <span className="flex h-6 max-w-full items-center gap-1 rounded-full bg-accent-soft pr-0.5 pl-2 text-xs font-medium text-accent-soft-fg">
              {chosen.kind === 'action' ? <Zap aria-hidden className="size-3.5 shrink-0" /> : <BookMarked aria-hidden className="size-3.5 shrink-0" />}
              <span className="truncate">{w.t('prompts.chosen', { name: chosen.name })}</span>
              <IconButton size="sm" className="!size-5 rounded-full" label={w.t('prompts.remove', { name: chosen.name })} icon={<X aria-hidden />} onClick={() => setChosen(undefined)} />
            </span>
          </p>
        )}
        {editOf !== undefined && <Suspense fallback={null}><ImageToEdit id={editOf.id} prompt={editOf.prompt} onRemove={() => chooseImageToEdit(undefined)} /></Suspense>}
        {attached.length > 0 && (
          <ul className="attachments flex flex-wrap gap-2 px-2.5 pt-2.5" aria-label={w.t('composer.attachedImages')}>
            {attached.map((src, i) => (
              <li key={i} className="relative">
                <img src={src} alt={w.t('message.attachedImage', { n: i + 1 })} className="size-14 rounded-md border border-line object-cover" />
                <button type="button" aria-label={w.t('composer.removeImage', { n: i + 1 })} className="absolute -top-1.5 -right-1.5 flex size-5 cursor-pointer items-center justify-center rounded-full border border-line bg-raised text-fg shadow-sm hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-ring" onClick={() => setAttached((now) => now.filter((_, j) => j !== i))}>
                  <X aria-hidden className="size-3" />
                </button>
              </li>
            ))}
          </ul>
        )}
        {dictating && dictation !== undefined && <Suspense fallback={null}><Dictation target={dictation} onText={putDictated} onClose={() => setDictating(false)} /></Suspense>}
        {!imageMode && (files.length > 0 || readingFiles.length > 0) && <Suspense fallback={null}><FileChips files={files} reading={readingFiles} onRemove={attachedFiles.remove} /></Suspense>}
        <textarea
          aria-label={w.t('composer.message')}
          placeholder={imageMode ? w.t('images.placeholder') : chosen === undefined ? w.t(prompts === undefined ? 'composer.placeholderPlain' : 'composer.placeholder') : w.t(onAskPage === undefined ? 'prompts.forText' : 'prompts.forTextOrPage', { name: chosen.name })}
          aria-autocomplete={prompts === undefined ? undefined : 'list'}
          aria-controls={slash !== undefined ? listIds.list : undefined}
          aria-activedescendant={slash !== undefined ? listIds.active : undefined}
          className="block max-h-48 min-h-11 w-full resize-none bg-transparent px-3 pt-2.5 pb-1 text-sm leading-relaxed text-fg outline-none placeholder:text-muted [field-sizing:content] focus-visible:outline-none"
          value={text}
          rows={2}
          ref={box}
          disabled={disabled}
          onChange={(e) => {
            setText(e.target.value);
            setSlashActive(0);
            if (!e.target.value.startsWith('/')) setSlashDismissed(false);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {slash !== undefined && (
          <Suspense fallback={null}>
            <PromptList
              anchor={boxRef}
              label={w.t('prompts.list')}
              items={promptItems}
              active={slashIndex}
              itemKey={(c: PromptChoice) => `${c.kind}:${c.id}`}
              renderItem={(c: PromptChoice) => <PromptRow choice={c} />}
              // The row's visible words, in order (its name, its model, its kind).
              itemLabel={(c: PromptChoice) => [c.name, c.model, w.t(`prompts.${c.kind}`)].filter((part) => part !== undefined).join(' ')}
              emptyText={w.t('prompts.empty', { query: slash.query })}
              footer={w.t('prompts.footer')}
              onActive={setSlashActive}
              onIds={(list, active) => setListIds((now) => (now.list === list && now.active === active ? now : { list, active }))}
              onPick={(i) => choosePrompt(promptItems[i])}
              onDismiss={() => setSlashDismissed(true)}
            />
          </Suspense>
        )}
        {imageMode && generation !== undefined && <Suspense fallback={null}><ImageOptionsRow model={generation.model} options={imageOptions} onChange={(o) => setImageOptions(generation.model, o)} /></Suspense>}
        <div className="flex items-center gap-1 px-1.5 pb-1.5">
          {images !== undefined && (
            <Tooltip content={offText ?? w.t('composer.attach')} side="top">
              <label
                className={cx(buttonClass('ghost', 'sm', '!w-7 !px-0 attach'), 'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring', !canAttach && 'opacity-50 !cursor-not-allowed')}
                onClick={() => { if (!canAttach) setGateShown(true); }}
              >
                <ImagePlus aria-hidden />
                <input type="file" accept="image/*" multiple aria-label={w.t('composer.attach')} className="sr-only" disabled={!canAttach} onChange={(e) => {
                  if (e.target.files !== null) void attach(e.target.files);
                  e.target.value = '';
                }} />
              </label>
            </Tooltip>
          )}
          {!imageMode && (
            <Tooltip content={w.t('files.attachTip')} side="top">
              <label className={cx(buttonClass('ghost', 'sm', '!w-7 !px-0 attach-file'), 'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring', disabled && 'opacity-50 !cursor-not-allowed')}>
                <Paperclip aria-hidden />
                <input type="file" multiple aria-label={w.t('files.attach')} className="sr-only" disabled={disabled} onChange={(e) => {
                  if (e.target.files !== null) attachedFiles.add([...e.target.files]);
                  e.target.value = '';
                }} />
              </label>
            </Tooltip>
          )}
          {dictation !== undefined && !imageMode && (
            <IconButton size="sm" label={w.t('dictate.button')} tip={w.t('dictate.button')} tooltipSide="top" aria-pressed={dictating} className="dictate aria-pressed:bg-accent-soft aria-pressed:text-accent-soft-fg" icon={<Mic aria-hidden />} disabled={disabled || dictating} onClick={() => setDictating(true)} />
          )}
          {tools !== undefined && !imageMode && (
            <Suspense fallback={<IconButton size="sm" label={w.t('tools.menu.button')} icon={<Wrench aria-hidden />} disabled />}>
              <ToolsMenu choice={tools} disabled={disabled} />
            </Suspense>
          )}
          {images?.onCapture !== undefined && (
            <IconButton size="sm" label={w.t('composer.capture')} tip={offText ?? w.t('composer.capture')} tooltipSide="top" icon={<Camera aria-hidden />} disabled={!canAttach} onClick={() => void capture()} />
          )}
          {generation !== undefined && !generation.marked && (
            <IconButton size="sm" label={w.t('images.toggle')} tip={w.t('images.toggleTip')} tooltipSide="top" aria-pressed={prefs?.on === true} className="aria-pressed:bg-accent-soft aria-pressed:text-accent-soft-fg" icon={<Paintbrush aria-hidden />} disabled={disabled} onClick={toggleImage} />
          )}
          {onAskPage !== undefined && (
            <IconButton size="sm" label={w.t('page.ask')} tip={w.t('page.askTip')} tooltipSide="top" icon={<FileText aria-hidden className={reading ? 'animate-pulse motion-reduce:animate-none' : undefined} />} aria-busy={reading} disabled={disabled || streaming || reading} onClick={() => void askPage()} />
          )}
          <span className="ml-auto px-1 text-2xs text-muted" aria-live="polite">
            {reading ? w.t('page.reading') : text.length >= SIZE_HINT_FROM ? w.plural('message.characters', text.length) : ''}
          </span>
          {imagePrice !== undefined && !streaming && (
            <span className="image-price px-1 text-2xs font-medium text-muted tabular-nums" title={w.plural('images.priceTip', count)}>{w.t('images.price', { cost: imagePrice })}</span>
          )}
          {streaming
            ? <IconButton size="sm" variant="secondary" label={w.t('composer.stop')} tooltipSide="top" icon={<Square aria-hidden className="fill-current" />} onClick={onStop} />
            : imageMode
              ? <button type="submit" className={buttonClass('primary', 'sm')} disabled={disabled || sending || text.trim() === ''}><Paintbrush aria-hidden />{w.t('images.generate')}</button>
              : <IconButton size="sm" variant="primary" type="submit" label={w.t('composer.send')} tip={w.t('composer.sendTip')} tooltipSide="top" icon={<ArrowUp aria-hidden />} disabled={disabled || sending || empty || readingFiles.length > 0} />}
        </div>
      </div>
      {generation !== undefined && (
        <ConfirmDialog
          open={askImage} onOpenChange={setAskImage}
          title={w.t('images.confirm.title', { model: generation.model })}
          description={w.t('images.confirm.description')}
          confirm={w.t('images.confirm.yes')}
          onConfirm={() => updateImagePrefs(generation.model, (p) => ({ ...p, on: true }))}
        />
      )}
    </form>
  );
});

/**
 * Dictate (issue 32), while it is on: the microphone asked for (in a tab of its own from the
 * popup and side panel), the recording with its level and elapsed time, then the audio written
 * down by the gateway's transcription model (or the browser's recognition), the text handed to
 * the composer. A recording that could not be written down is kept until the user tries again
 * or discards it. Loaded on the first press of Dictate.
 */
import { Mic, RotateCcw, Square, Trash2, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { errorTitle } from '@/components/i18n/problems';
import { useWords } from '@/components/i18n/words';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { storedError } from '@/lib/conversations/records';
import { createGatewayClient, GatewayError } from '@/lib/gateway';
import { recordingName } from '@/lib/gateway/audio';
import type { Words } from '@/lib/i18n/messages';
import { openMicrophonePage } from '@/lib/surfaces/open.adapter';
import { clock, MicrophoneError, microphonePermission, openMicrophone, startRecording, type MicrophoneProblem, type Recording } from './recorder';
import { MAX_RECORDING_MS, type DictationTarget } from './target';

type Problem =
  | { code: MicrophoneProblem; detail?: string | undefined }
  | { code: 'no_model' | 'empty' | 'recognition' }
  | { code: 'transcription'; why: string };

type State =
  | { step: 'starting' }
  | { step: 'asking' }
  | { step: 'recording'; startedAt: number }
  | { step: 'listening'; heard: string }
  | { step: 'transcribing' }
  /** `kept`: the recording, when it is there to be written down again. */
  | { step: 'problem'; problem: Problem; kept?: Blob | undefined };

function problemText(w: Words, problem: Problem): string {
  switch (problem.code) {
    case 'transcription': return w.t('dictate.problem.transcription', { why: problem.why });
    case 'failed': return w.t('dictate.problem.failed', { detail: problem.detail ?? '' });
    default: return w.t(`dictate.problem.${problem.code}`);
  }
}

interface BrowserRecognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: { resultIndex: number; results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

export default function Dictation({ target, onText, onClose }: { target: DictationTarget; onText(text: string): void; onClose(): void }) {
  const w = useWords();
  const [state, setState] = useState<State>({ step: 'starting' });
  const [now, setNow] = useState(0);
  const [limitReached, setLimitReached] = useState(false);
  const level = useRef<HTMLSpanElement>(null);
  const recording = useRef<Recording | undefined>(undefined);
  const recognition = useRef<BrowserRecognition | undefined>(undefined);
  const aborter = useRef<AbortController | undefined>(undefined);
  const alive = useRef(true);
  // The composer's newest callbacks: a dictation can end (its limit, the browser's recognition) long after it began.
  const latest = useRef({ onText, onClose });
  useEffect(() => {
    latest.current = { onText, onClose };
  });

  const transcribe = async (blob: Blob): Promise<void> => {
    if (target.choice.via !== 'gateway' || !alive.current) return;
    setState({ step: 'transcribing' });
    const controller = new AbortController();
    aborter.current = controller;
    const { profile } = target;
    try {
      const client = createGatewayClient({ baseUrl: profile.baseUrl, siteUrl: profile.siteUrl, apiKey: profile.apiKey });
      const text = await client.transcribe({ model: target.choice.model, audio: blob, filename: recordingName(blob.type), ...(target.language === undefined ? {} : { language: target.language.split('-')[0]!.toLowerCase() }) }, { signal: controller.signal });
      if (!alive.current) return;
      if (text.trim() === '') {
        setState({ step: 'problem', problem: { code: 'empty' } });
        return;
      }
      latest.current.onText(text.trim());
      latest.current.onClose();
    } catch (error) {
      if (!alive.current || controller.signal.aborted) return;
      const why = error instanceof GatewayError ? errorTitle(w, storedError(error, profile.apiKey)) : String(error);
      setState({ step: 'problem', problem: { code: 'transcription', why }, kept: blob });
    }
  };

  const stop = async (): Promise<void> => {
    const current = recording.current;
    recording.current = undefined;
    if (current !== undefined) {
      await transcribe(await current.stop());
    }
    recognition.current?.stop();
  };

  const listen = (): void => {
    const Recognition = (window as unknown as { SpeechRecognition?: new () => BrowserRecognition; webkitSpeechRecognition?: new () => BrowserRecognition }).SpeechRecognition
      ?? (window as unknown as { webkitSpeechRecognition?: new () => BrowserRecognition }).webkitSpeechRecognition;
    if (Recognition === undefined) {
      setState({ step: 'problem', problem: { code: 'no_model' } });
      return;
    }
    const r = new Recognition();
    r.lang = target.language ?? navigator.language;
    r.continuous = true;
    r.interimResults = true;
    let final = '';
    let failed = false;
    r.onresult = (event) => {
      let interim = '';
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i]!;
        if (result.isFinal) final += result[0].transcript;
        else interim += result[0].transcript;
      }
      setState({ step: 'listening', heard: `${final}${interim}` });
    };
    r.onerror = (event) => {
      failed = true;
      const code = event.error === 'not-allowed' || event.error === 'service-not-allowed' ? 'denied' : event.error === 'audio-capture' ? 'no_device' : event.error === 'no-speech' ? 'empty' : 'recognition';
      setState({ step: 'problem', problem: { code } });
    };
    r.onend = () => {
      recognition.current = undefined;
      if (failed || !alive.current) return;
      if (final.trim() === '') setState({ step: 'problem', problem: { code: 'empty' } });
      else {
        latest.current.onText(final.trim());
        latest.current.onClose();
      }
    };
    recognition.current = r;
    setState({ step: 'listening', heard: '' });
    r.start();
  };

  const begin = async (): Promise<void> => {
    const { choice } = target;
    if (choice.via === 'none') {
      setState({ step: 'problem', problem: { code: 'no_model' } });
      return;
    }
    const permission = await microphonePermission();
    if (!alive.current) return;
    if (permission === 'denied') {
      setState({ step: 'problem', problem: { code: 'denied' } });
      return;
    }
    if (permission !== 'granted' && target.promptsElsewhere) {
      await openMicrophonePage().catch(() => undefined);
      if (alive.current) setState({ step: 'asking' });
      return;
    }
    if (choice.via === 'browser') {
      listen();
      return;
    }
    try {
      const stream = await openMicrophone();
      if (!alive.current) {
        for (const track of stream.getTracks()) track.stop();
        return;
      }
      recording.current = startRecording(stream, (value) => level.current?.style.setProperty('--level', String(value)));
      const startedAt = Date.now();
      setNow(startedAt);
      setState({ step: 'recording', startedAt });
    } catch (error) {
      const problem = error instanceof MicrophoneError ? { code: error.code, detail: error.detail } : { code: 'failed' as const, detail: String(error) };
      setState({ step: 'problem', problem });
    }
  };

  useEffect(() => {
    alive.current = true;
    // After this render: the first step may say at once why dictation cannot start.
    void Promise.resolve().then(begin);
    return () => {
      alive.current = false;
      recording.current?.cancel();
      recognition.current?.abort();
      aborter.current?.abort();
    };
    // Once, when Dictate is pressed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The elapsed time, and the limit: at it, the recording stops and is written down.
  const startedAt = state.step === 'recording' ? state.startedAt : undefined;
  useEffect(() => {
    if (startedAt === undefined) return;
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at - startedAt >= MAX_RECORDING_MS) {
        setLimitReached(true);
        void stop();
      }
    }, 250);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startedAt]);

  const discard = (): void => {
    recording.current?.cancel();
    recording.current = undefined;
    recognition.current?.abort();
    aborter.current?.abort();
    onClose();
  };

  const limit = clock(MAX_RECORDING_MS);
  if (state.step === 'problem') {
    const { kept } = state;
    return (
      <Callout role="alert" tone="danger" className="dictation-problem mx-2.5 mt-2.5">
        <p>{problemText(w, state.problem)}</p>
        <p className="mt-1.5 flex flex-wrap gap-2">
          {kept !== undefined && <Button size="sm" onClick={() => void transcribe(kept)}><RotateCcw aria-hidden />{w.t('dictate.retry')}</Button>}
          <Button size="sm" variant="ghost" onClick={discard}>{kept !== undefined ? <><Trash2 aria-hidden />{w.t('dictate.discard')}</> : <><X aria-hidden />{w.t('common.close')}</>}</Button>
        </p>
      </Callout>
    );
  }
  if (state.step === 'asking') {
    return (
      <Callout role="status" tone="info" className="dictation-asking mx-2.5 mt-2.5">
        <p>{w.t('dictate.askTab')}</p>
        <p className="mt-1.5"><Button size="sm" variant="ghost" onClick={onClose}>{w.t('common.close')}</Button></p>
      </Callout>
    );
  }
  const recordingNow = state.step === 'recording';
  return (
    <div role="group" aria-label={w.t('dictate.label')} className="dictation mx-2.5 mt-2.5 flex items-center gap-2 rounded-md border border-line bg-surface px-2 py-1.5 text-xs">
      <span aria-hidden className={recordingNow ? 'size-2.5 shrink-0 animate-pulse rounded-full bg-danger motion-reduce:animate-none' : 'size-2.5 shrink-0 rounded-full bg-muted'} />
      <span className="min-w-0 flex-1">
        {state.step === 'recording' && (
          <span className="flex items-center gap-2">
            <span role="timer" aria-label={w.t('dictate.elapsedLabel')} className="font-medium text-fg tabular-nums">{w.t('dictate.elapsed', { elapsed: clock(now - state.startedAt), limit })}</span>
            {/* The level, drawn by the recorder each frame through a CSS variable (no render). */}
            <span ref={level} role="meter" aria-label={w.t('dictate.level')} aria-valuemin={0} aria-valuemax={1} className="relative h-1.5 min-w-10 flex-1 overflow-hidden rounded-full bg-surface-2">
              <span className="absolute inset-y-0 left-0 w-full origin-left scale-x-[var(--level,0)] rounded-full bg-accent transition-transform duration-75" />
            </span>
          </span>
        )}
        {state.step === 'listening' && <span className="block truncate text-muted" role="status">{state.heard === '' ? w.t('dictate.byBrowser') : state.heard}</span>}
        {state.step === 'transcribing' && <span className="text-muted" role="status">{limitReached ? w.t('dictate.limitReached', { limit }) : w.t('dictate.transcribing')}</span>}
        {state.step === 'starting' && <span className="text-muted" role="status">{w.t('dictate.starting')}</span>}
      </span>
      {(state.step === 'recording' || state.step === 'listening') && (
        <Button size="sm" variant="primary" onClick={() => void stop()}><Square aria-hidden className="fill-current" />{w.t('dictate.stop')}</Button>
      )}
      <Button size="sm" variant="ghost" onClick={discard} aria-label={w.t('dictate.discard')}><Trash2 aria-hidden /></Button>
      {state.step === 'starting' && <Mic aria-hidden className="size-4 text-muted" />}
    </div>
  );
}

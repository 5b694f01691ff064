/**
 * Recording from the microphone for Dictate (issue 32): MediaRecorder for the audio (Opus in
 * WebM, or in Ogg where the browser prefers it), an analyser for the level shown while it
 * records. Each way it can fail is a code the page words: no permission, no device, in use.
 */

export type MicrophoneProblem = 'denied' | 'no_device' | 'busy' | 'unsupported' | 'failed';

export class MicrophoneError extends Error {
  constructor(readonly code: MicrophoneProblem, readonly detail?: string) {
    super(code);
    this.name = 'MicrophoneError';
  }
}

/** The microphone permission of this extension's pages: 'unknown' where the browser will not say. */
export async function microphonePermission(): Promise<'granted' | 'denied' | 'prompt' | 'unknown'> {
  try {
    const status = await navigator.permissions.query({ name: 'microphone' as PermissionName });
    return status.state;
  } catch {
    return 'unknown';
  }
}

/** The microphone's stream, or a MicrophoneError saying why not. */
export async function openMicrophone(): Promise<MediaStream> {
  if (navigator.mediaDevices?.getUserMedia === undefined) throw new MicrophoneError('unsupported');
  try {
    return await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'NotAllowedError' || name === 'SecurityError') throw new MicrophoneError('denied');
    if (name === 'NotFoundError' || name === 'OverconstrainedError') throw new MicrophoneError('no_device');
    if (name === 'NotReadableError' || name === 'AbortError') throw new MicrophoneError('busy');
    throw new MicrophoneError('failed', name);
  }
}

export interface Recording {
  /** Stops and gives the audio recorded. */
  stop(): Promise<Blob>;
  /** Stops and throws the audio away. */
  cancel(): void;
}

const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/mp4'];

/**
 * Records `stream` (taking it over: its tracks end with the recording). `onLevel` hears the
 * loudness (0–1) about every frame.
 */
export function startRecording(stream: MediaStream, onLevel: (level: number) => void): Recording {
  const mimeType = TYPES.find((t) => MediaRecorder.isTypeSupported(t));
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream, mimeType === undefined ? {} : { mimeType });
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    throw new MicrophoneError('failed', error instanceof Error ? error.name : 'recorder');
  }
  const chunks: Blob[] = [];
  recorder.addEventListener('dataavailable', (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  });
  // The level: an analyser on the same stream, read once a frame.
  let context: AudioContext | undefined;
  let frame = 0;
  try {
    context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    const tick = (): void => {
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += ((s - 128) / 128) ** 2;
      onLevel(Math.min(1, Math.sqrt(sum / samples.length) * 3));
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
  } catch {
    // No level shown; the recording itself goes on.
  }
  const release = (): void => {
    cancelAnimationFrame(frame);
    void context?.close().catch(() => undefined);
    for (const track of stream.getTracks()) track.stop();
  };
  try {
    recorder.start(250);
  } catch (error) {
    release();
    throw new MicrophoneError('failed', error instanceof Error ? error.name : 'start');
  }
  return {
    stop: () => new Promise<Blob>((resolve) => {
      recorder.addEventListener('stop', () => {
        release();
        resolve(new Blob(chunks, { type: recorder.mimeType || mimeType || 'audio/webm' }));
      }, { once: true });
      if (recorder.state === 'inactive') {
        release();
        resolve(new Blob(chunks, { type: recorder.mimeType || 'audio/webm' }));
      } else recorder.stop();
    }),
    cancel: () => {
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
  };
}

/** m:ss. */
export function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Audio models (issue 32): what `POST {base}/audio/speech` (JSON in, audio bytes out) and
 * `POST {base}/audio/transcriptions` (multipart in, `{text}` out) are sent, as the official OpenAI
 * SDK sends them, and how a transcription's answer is read. new-api relays both to tts-1,
 * gpt-4o-mini-tts, whisper-1, gpt-4o-transcribe and their peers with the same key. The requests go
 * through the client (client.ts): the same key confinement, deadlines and error classification as chat.
 */
import * as z from 'zod/mini';
import { buildGatewayError, type ClassifyContext } from './classify';

/** The audio formats `/audio/speech` answers in (`response_format`). */
export const SPEECH_FORMATS = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export interface SpeechRequest {
  model: string;
  /** The text to speak (at most 4,096 characters per request for OpenAI's models). */
  input: string;
  voice: string;
  /** 0.25–4; left to the model when unset. */
  speed?: number;
  /** mp3 unless set (what every browser plays). */
  format?: SpeechFormat;
  /** How to speak (gpt-4o-mini-tts only). */
  instructions?: string;
}

/** The longest input OpenAI's speech models take in one request. */
export const SPEECH_MAX_INPUT = 4096;

/** The audio types each format comes as, for an answer whose own type says nothing useful. */
const FORMAT_TYPES: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** The JSON body of `POST /audio/speech`, only the fields set, as the OpenAI SDK sends it. */
export function speechBody(request: SpeechRequest): Record<string, unknown> {
  return {
    model: request.model,
    input: request.input,
    voice: request.voice,
    ...(request.instructions === undefined || request.instructions === '' ? {} : { instructions: request.instructions }),
    ...(request.format === undefined ? {} : { response_format: request.format }),
    ...(request.speed === undefined ? {} : { speed: request.speed }),
  };
}

/**
 * The type of a speech answer: its own when it names audio (or is the generic `audio/*` of a
 * format), else the type of the format asked for; undefined when the answer is not audio at all
 * (a web page, JSON, text: the caller reads it as the error it is).
 */
export function speechType(contentType: string | null, format: SpeechFormat | undefined): string | undefined {
  const declared = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (/^audio\/[\w.+-]+$/.test(declared)) return declared;
  if (declared === '' || declared === 'application/octet-stream' || declared === 'binary/octet-stream') return FORMAT_TYPES[format ?? 'mp3'];
  return undefined;
}

export interface TranscriptionRequest {
  model: string;
  /** The recording. */
  audio: Blob;
  /** Its file name (the gateway and the model read the format from it): `speech.webm` unless set. */
  filename?: string;
  /** ISO-639-1, when known: faster and more accurate. */
  language?: string;
  /** Words the recording may contain, or the text before it. */
  prompt?: string;
}

const AUDIO_EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/flac': 'flac',
};

/** A recording's file name from its type (MediaRecorder's `audio/webm;codecs=opus` is a .webm). */
export function recordingName(type: string): string {
  const base = type.split(';')[0]!.trim().toLowerCase();
  return `speech.${AUDIO_EXTENSIONS[base] ?? 'webm'}`;
}

/**
 * The multipart body of `POST /audio/transcriptions`, in the order the OpenAI SDK writes it from
 * `{ file, model, language, prompt, response_format }`: the file with its name and type, then the
 * fields set. `response_format` is `json` (`{text}`), which every model and new-api answer.
 */
export function transcriptionForm(request: TranscriptionRequest): FormData {
  const form = new FormData();
  const name = request.filename ?? recordingName(request.audio.type);
  form.append('file', request.audio, name);
  form.append('model', request.model);
  if (request.language !== undefined && request.language !== '') form.append('language', request.language);
  if (request.prompt !== undefined && request.prompt !== '') form.append('prompt', request.prompt);
  form.append('response_format', 'json');
  return form;
}

const TranscriptionResponse = z.looseObject({ text: z.string() });

/** The transcript in a transcription's JSON answer; a body without one is a bad answer. */
export function decodeTranscription(value: unknown, ctx: ClassifyContext): string {
  const parsed = TranscriptionResponse.safeParse(value);
  if (!parsed.success) throw buildGatewayError('bad_response', {}, ctx, { code: 'no_transcript' });
  return parsed.data.text.trim();
}

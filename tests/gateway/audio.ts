/**
 * Audio models on the reference gateway (issue 32): `POST /v1/audio/speech` (JSON: model, input,
 * voice, response_format, speed) answered with real audio a browser plays to its end, and
 * `POST /v1/audio/transcriptions` (multipart: file, model, language, prompt, response_format)
 * answered with a transcript, as new-api relays tts-1 and whisper-1. Their models are listed as
 * plain `openai` (new-api tags no audio endpoint type) and refuse chat. Simplification: speech is
 * always WAV (16 kHz mono PCM, a quiet tone as long as the text would take to say), whatever
 * format was asked, and says so in its type; the transcript says how much audio arrived, since
 * the reference cannot hear it. `AUDIO_MODELS` are served when given as `extraModels`: the default
 * catalogue gets them once the options page's Voice section tells them from chat models.
 */
import { z } from 'zod';
import type { GatewayCore, Served } from './core';
import { openaiErrorBody, sendRefusal } from './errors';
import type { ReferenceModel } from './models';

export const AUDIO_PATHS = { speech: '/v1/audio/speech', transcriptions: '/v1/audio/transcriptions' } as const;

/** What the audio routes need of the gateway (the image routes' host gives it). */
export interface AudioHost {
  core: GatewayCore;
  formData(req: Served['req']): Promise<FormData | undefined>;
  log(served: Served, body: unknown): void;
  affords(served: Served, model: ReferenceModel, n: number): boolean;
  billCalls(served: Served, model: ReferenceModel, n: number): void;
}

export const VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'] as const;

/** The transcript the reference gives: the gateway's words, then what it received. */
export const TRANSCRIPT_PREFIX = 'Dictated through the reference gateway';

export const AUDIO_MODELS: readonly ReferenceModel[] = [
  {
    id: 'tts-1',
    ownedBy: 'openai',
    endpoints: ['openai'],
    imageInput: false,
    price: 1,
    perCall: 0.001,
    audio: 'speech',
    answer: () => ({ text: '' }),
  },
  {
    id: 'gpt-4o-mini-tts',
    ownedBy: 'openai',
    endpoints: ['openai'],
    imageInput: false,
    price: 1,
    perCall: 0.002,
    audio: 'speech',
    answer: () => ({ text: '' }),
  },
  {
    id: 'whisper-1',
    ownedBy: 'openai',
    endpoints: ['openai'],
    imageInput: false,
    price: 1,
    perCall: 0.001,
    audio: 'transcription',
    answer: () => ({ text: '' }),
  },
];

const SpeechBody = z.object({
  model: z.string(),
  input: z.string(),
  voice: z.string(),
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  instructions: z.string().optional(),
});

const SAMPLE_RATE = 16_000;

/** `seconds` of a quiet 440 Hz tone as a WAV file (16-bit mono PCM). */
export function wavTone(seconds: number): Buffer {
  const samples = Math.round(seconds * SAMPLE_RATE);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE) * 2000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(SAMPLE_RATE, 24);
  header.writeUInt32LE(SAMPLE_RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** How long `input` takes to say at `speed`: about 15 characters a second, at least a third of a second, at most a minute. */
export function spokenSeconds(input: string, speed = 1): number {
  return Math.min(60, Math.max(0.3, input.length / 15 / speed));
}

function invalid(served: Served, message: string, param: string | null, code: string | null = null): void {
  served.res.writeHead(400, { 'content-type': 'application/json' });
  served.res.end(openaiErrorBody(message, 'invalid_request_error', code, param));
}

/** The model for an audio route, or the refusal already sent. */
function audioModel(host: AudioHost, served: Served, modelId: string, kind: 'speech' | 'transcription'): ReferenceModel | undefined {
  const admitted = host.core.admit(served.key, modelId, 'audio', []);
  if (!admitted.ok) return void sendRefusal(served.res, 'openai', admitted.problem);
  if (admitted.model.audio !== kind) {
    return void invalid(served, `${modelId} is not a ${kind === 'speech' ? 'text-to-speech' : 'transcription'} model.`, 'model', 'invalid_value');
  }
  if (!host.affords(served, admitted.model, 1)) return void sendRefusal(served.res, 'openai', { kind: 'balance', message: host.core.words().insufficientBalance });
  return admitted.model;
}

export async function serveSpeech(host: AudioHost, served: Served): Promise<void> {
  const read = await host.core.readJson(served, SpeechBody);
  if (!read.ok) return sendRefusal(served.res, 'openai', read.problem);
  const body = read.value;
  if (body.input.trim() === '') return invalid(served, "Invalid 'input': empty string.", 'input');
  if (body.input.length > 4096) return invalid(served, `Invalid 'input': string too long. Expected a string with maximum length 4096, but got a string with length ${body.input.length} instead.`, 'input', 'string_above_max_length');
  if (!(VOICES as readonly string[]).includes(body.voice)) return invalid(served, `Invalid value: '${body.voice}'. Supported values are: ${VOICES.map((v) => `'${v}'`).join(', ')}.`, 'voice', 'invalid_value');
  const model = audioModel(host, served, body.model, 'speech');
  if (model === undefined) return;
  host.billCalls(served, model, 1);
  const wav = wavTone(spokenSeconds(body.input, body.speed));
  served.res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(wav.length) });
  served.res.end(wav);
}

export async function serveTranscription(host: AudioHost, served: Served): Promise<void> {
  const form = await host.formData(served.req);
  if (form === undefined) return invalid(served, 'Invalid request: the body must be multipart/form-data.', null);
  const fields: Record<string, string> = {};
  for (const [name, value] of form.entries()) fields[name] = typeof value === 'string' ? value : `<file ${value.name}, ${value.type}, ${value.size} bytes>`;
  host.log(served, fields);
  const file = form.get('file');
  if (file === null || typeof file === 'string') return invalid(served, "Invalid request: 'file' is required.", 'file');
  const modelId = fields.model;
  if (modelId === undefined) return invalid(served, "Invalid request: 'model' is required.", 'model');
  if (file.size === 0) return invalid(served, 'Audio file is empty.', 'file');
  const model = audioModel(host, served, modelId, 'transcription');
  if (model === undefined) return;
  host.billCalls(served, model, 1);
  const text = `${TRANSCRIPT_PREFIX}: ${file.size} bytes of ${file.type.split(';')[0] || 'audio'}${fields.language === undefined ? '' : ` in ${fields.language}`}.`;
  served.res.writeHead(200, { 'content-type': 'application/json' });
  served.res.end(JSON.stringify(fields.response_format === 'verbose_json' ? { task: 'transcribe', language: fields.language ?? 'english', duration: 1, text, segments: [] } : { text }));
}

/**
 * The audio client (issue 32): `/audio/speech` and `/audio/transcriptions` as the OpenAI SDK sends
 * them and as gateways answer them (audio under its type or none, a transcript), their errors
 * (a refused key, a 200 that is an error or a web page, no audio, no transcript), and cancelling.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { recordingName, speechBody, transcriptionForm } from '@/lib/gateway';
import { BASE, JSON_TYPE, KEY, clientFor, replay, thrownGatewayError, type Recording } from './recordings';

const MP3 = 'ID3\u0004\u0000\u0000fake mp3 frames';
const speech = { model: 'tts-1', input: 'Hello there.', voice: 'alloy' } as const;
const json = (status: number, body: unknown): Recording => ({ status, headers: JSON_TYPE, chunks: [JSON.stringify(body)] });
const recording = new Blob([new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3])], { type: 'audio/webm;codecs=opus' });


/** A form's parts in order, as a server reads them: names, values, and each file's name and type. */
async function parts(body: BodyInit, contentType?: string): Promise<unknown[]> {
  const request = new Request('http://x/', { method: 'POST', body, ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }) });
  const form = await request.formData();
  return Promise.all([...form.entries()].map(async ([name, value]) => (typeof value === 'string'
    ? [name, value]
    : [name, { file: value.name, type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] }])));
}

describe('speak: what is sent', () => {
  it('POST {base}/audio/speech with the key and JSON: model, input, voice, and only the options set', async () => {
    const fake = replay({ headers: { 'content-type': 'audio/mpeg' }, chunks: [MP3] });
    const audio = await clientFor(fake).speak({ ...speech, speed: 1.25, format: 'mp3' });
    const { url, init } = fake.calls[0]!;
    expect(url).toBe(`${BASE}/audio/speech`);
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('omit');
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Bearer ${KEY}`);
    expect(headers['Content-Type']).toBe('application/json');
    expect(JSON.parse(init?.body as string)).toEqual({ model: 'tts-1', input: 'Hello there.', voice: 'alloy', response_format: 'mp3', speed: 1.25 });
    expect(audio.type).toBe('audio/mpeg');
    expect(new TextDecoder().decode(await audio.arrayBuffer())).toBe(MP3);
    expect(speechBody(speech)).toEqual({ model: 'tts-1', input: 'Hello there.', voice: 'alloy' });
    expect(speechBody({ ...speech, model: 'gpt-4o-mini-tts', instructions: 'Calm.' })).toEqual({ model: 'gpt-4o-mini-tts', input: 'Hello there.', voice: 'alloy', instructions: 'Calm.' });
  });

  it('audio sent as octet-stream, or untyped, is typed by the format asked for', async () => {
    for (const headers of [{ 'content-type': 'application/octet-stream' }, {}] as Record<string, string>[]) {
      const audio = await clientFor(replay({ headers, chunks: ['RIFF....WAVE'] })).speak({ ...speech, format: 'wav' });
      expect(audio.type).toBe('audio/wav');
    }
  });
});

describe('speak: errors', () => {
  it('a refused key, a model the gateway lacks, no balance: classified by status and code as chat is', async () => {
    const key = await thrownGatewayError(clientFor(replay(json(401, { error: { message: '无效的令牌', type: 'new_api_error', code: 'INVALID_API_KEY' } }))).speak(speech));
    expect(key.kind).toBe('invalid_key');
    const model = await thrownGatewayError(clientFor(replay(json(404, { error: { message: 'The model `tts-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } }))).speak(speech));
    expect(model.kind).toBe('model_not_found');
    const broke = await thrownGatewayError(clientFor(replay(json(403, { error: { message: '用户额度不足', type: 'new_api_error', code: 'insufficient_user_quota' } }))).speak(speech));
    expect(broke.kind).toBe('insufficient_balance');
  });

  it('an error said with a 200 in JSON is that error; a web page is a wrong address; text is not audio', async () => {
    const said = await thrownGatewayError(clientFor(replay(json(200, { error: { message: 'bad key', type: 'invalid_request_error', code: 'invalid_api_key' } }))).speak(speech));
    expect(said.kind).toBe('invalid_key');
    const page = await thrownGatewayError(clientFor(replay({ headers: { 'content-type': 'text/html; charset=utf-8' }, chunks: ['<!doctype html><title>Site</title>'] })).speak(speech));
    expect(page.kind).toBe('bad_address');
    const text = await thrownGatewayError(clientFor(replay({ headers: { 'content-type': 'text/plain' }, chunks: ['hello'] })).speak(speech));
    expect(text.kind).toBe('bad_response');
    expect(text.detail).toEqual({ code: 'not_audio', params: { contentType: 'text/plain' } });
    // Nothing the gateway sent carries the key back.
    expect(JSON.stringify(text)).not.toContain(KEY);
  });

  it('a stop before the answer cancels it: aborted, nothing returned', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await thrownGatewayError(clientFor(replay({ headers: { 'content-type': 'audio/mpeg' }, chunks: [MP3] })).speak(speech, { signal: controller.signal }));
    expect(error.kind).toBe('aborted');
  });
});

describe('transcribe', () => {
  it('POST {base}/audio/transcriptions as multipart: the file named by its type, model, language, prompt, json', async () => {
    const fake = replay(json(200, { text: ' Hello from the microphone. ' }));
    const text = await clientFor(fake).transcribe({ model: 'whisper-1', audio: recording, language: 'en', prompt: 'Gateway Chat' });
    expect(text).toBe('Hello from the microphone.');
    const { url, init } = fake.calls[0]!;
    expect(url).toBe(`${BASE}/audio/transcriptions`);
    const headers = init?.headers as Record<string, string>;
    expect(headers.Authorization).toBe(`Bearer ${KEY}`);
    // fetch sets the multipart type with its boundary.
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('content-type');
    expect(await parts(init?.body as FormData)).toEqual([
      ['file', { file: 'speech.webm', type: 'audio/webm;codecs=opus', bytes: [0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3] }],
      ['model', 'whisper-1'],
      ['language', 'en'],
      ['prompt', 'Gateway Chat'],
      ['response_format', 'json'],
    ]);
    expect(recordingName('audio/mp4')).toBe('speech.m4a');
    expect(recordingName('audio/ogg;codecs=opus')).toBe('speech.ogg');
  });

  it('sends the parts the official OpenAI SDK sends, in its order, for the same recording', async () => {
    const seen: { body: Buffer; type: string }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ body: Buffer.concat(chunks), type: req.headers['content-type'] ?? '' });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text: 'ok' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    try {
      const file = new File([await recording.arrayBuffer()], 'speech.webm', { type: recording.type });
      const sdk = new OpenAI({ baseURL: base, apiKey: KEY, maxRetries: 0 });
      await sdk.audio.transcriptions.create({ file, model: 'whisper-1', language: 'en', prompt: 'Gateway Chat', response_format: 'json' });
      const ours = transcriptionForm({ model: 'whisper-1', audio: recording, language: 'en', prompt: 'Gateway Chat' });
      const theirs = seen[0]!;
      expect(theirs.type).toMatch(/^multipart\/form-data; boundary=/);
      expect(await parts(ours)).toEqual(await parts(new Uint8Array(theirs.body), theirs.type));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('an answer without a transcript, an error, a stop', async () => {
    const none = await thrownGatewayError(clientFor(replay(json(200, { task: 'transcribe' }))).transcribe({ model: 'whisper-1', audio: recording }));
    expect(none.kind).toBe('bad_response');
    expect(none.detail).toEqual({ code: 'no_transcript' });
    const big = await thrownGatewayError(clientFor(replay(json(413, { error: { message: 'Maximum content size limit (26214400) exceeded', type: 'invalid_request_error', code: '' } }))).transcribe({ model: 'whisper-1', audio: recording }));
    expect(big.status).toBe(413);
    const controller = new AbortController();
    controller.abort();
    const stopped = await thrownGatewayError(clientFor(replay(json(200, { text: 'late' }))).transcribe({ model: 'whisper-1', audio: recording }, { signal: controller.signal }));
    expect(stopped.kind).toBe('aborted');
  });
});

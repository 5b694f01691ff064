/**
 * The reference gateway's audio routes (issue 32): `/v1/audio/speech` answers real WAV audio as
 * long as the text takes to say, `/v1/audio/transcriptions` a transcript of the file it received,
 * each refusing as new-api does (a bad key, a missing or wrong model, an empty input, a bad voice,
 * no file, no balance), audio models refuse chat; our client and the official OpenAI SDK both read them.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayClient } from '@/lib/gateway';
import { thrownGatewayError } from './recordings';
import { AUDIO_MODELS, TRANSCRIPT_PREFIX, spokenSeconds } from '../../gateway/audio';
import { BROKE_KEY, startReferenceGateway, type ReferenceGateway } from '../../gateway/server';

let gateway: ReferenceGateway;
beforeAll(async () => {
  gateway = await startReferenceGateway({ extraModels: AUDIO_MODELS });
});
afterAll(async () => {
  await gateway.close();
});

const client = (key = gateway.demoKey) => createGatewayClient({ baseUrl: gateway.baseUrl, apiKey: key });
const recording = new Blob([new Uint8Array(2048).fill(7)], { type: 'audio/webm;codecs=opus' });


/** A WAV file's duration in seconds, from its header. */
function wavSeconds(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('RIFF');
  expect(new TextDecoder().decode(bytes.slice(8, 12))).toBe('WAVE');
  return view.getUint32(40, true) / view.getUint32(28, true);
}

describe('speech', () => {
  it('answers WAV audio as long as the text takes to say, through our client and the SDK', async () => {
    const input = 'Hello from the reference gateway, read aloud.';
    const audio = await client().speak({ model: 'tts-1', input, voice: 'alloy' });
    expect(audio.type).toBe('audio/wav');
    expect(wavSeconds(new Uint8Array(await audio.arrayBuffer()))).toBeCloseTo(spokenSeconds(input), 2);
    const sdk = new OpenAI({ baseURL: gateway.baseUrl, apiKey: gateway.demoKey, maxRetries: 0 });
    const response = await sdk.audio.speech.create({ model: 'tts-1', input, voice: 'nova', response_format: 'wav', speed: 2 });
    expect(wavSeconds(new Uint8Array(await response.arrayBuffer()))).toBeCloseTo(spokenSeconds(input, 2), 2);
    expect(gateway.requests.at(-1)?.path).toBe('/v1/audio/speech');
  });

  it('refuses as new-api does: a bad key, a model that is missing or not for speech, an empty input, a bad voice, no balance', async () => {
    expect((await thrownGatewayError(client('sk-wrong').speak({ model: 'tts-1', input: 'x', voice: 'alloy' }))).kind).toBe('invalid_key');
    expect((await thrownGatewayError(client().speak({ model: 'tts-9', input: 'x', voice: 'alloy' }))).kind).toBe('model_not_found');
    // A model that does not speak is, for this call, a model that is not there (its param: model).
    const notSpeech = await thrownGatewayError(client().speak({ model: 'whisper-1', input: 'x', voice: 'alloy' }));
    expect([notSpeech.kind, notSpeech.status]).toEqual(['model_not_found', 400]);
    const empty = await thrownGatewayError(client().speak({ model: 'tts-1', input: '  ', voice: 'alloy' }));
    expect([empty.kind, empty.gatewayMessage]).toEqual(['bad_request', "Invalid 'input': empty string."]);
    const voice = await thrownGatewayError(client().speak({ model: 'tts-1', input: 'x', voice: 'robot' }));
    expect(voice.detail).toEqual({ code: 'unsupported_option', params: { param: 'voice', supported: 'alloy, ash, coral, echo, fable, nova, onyx, sage, shimmer' } });
    expect((await thrownGatewayError(client(BROKE_KEY).speak({ model: 'tts-1', input: 'x', voice: 'alloy' }))).kind).toBe('insufficient_balance');
  });
});

describe('transcriptions', () => {
  it('answers a transcript of the file it received, through our client and the SDK', async () => {
    const text = await client().transcribe({ model: 'whisper-1', audio: recording, language: 'en' });
    expect(text).toBe(`${TRANSCRIPT_PREFIX}: 2048 bytes of audio/webm in en.`);
    const sdk = new OpenAI({ baseURL: gateway.baseUrl, apiKey: gateway.demoKey, maxRetries: 0 });
    const answer = await sdk.audio.transcriptions.create({ model: 'whisper-1', file: new File([recording], 'speech.webm', { type: recording.type }) });
    expect(answer.text).toBe(`${TRANSCRIPT_PREFIX}: 2048 bytes of audio/webm.`);
    // What was sent is logged without the audio itself.
    expect(gateway.requests.at(-1)?.body).toMatchObject({ model: 'whisper-1', file: '<file speech.webm, audio/webm;codecs=opus, 2048 bytes>' });
  });

  it('refuses an empty file and a model that does not transcribe; audio models refuse chat', async () => {
    const empty = await thrownGatewayError(client().transcribe({ model: 'whisper-1', audio: new Blob([], { type: 'audio/webm' }) }));
    expect([empty.kind, empty.gatewayMessage]).toEqual(['bad_request', 'Audio file is empty.']);
    expect((await thrownGatewayError(client().transcribe({ model: 'tts-1', audio: recording }))).kind).toBe('model_not_found');
    const chat = await fetch(`${gateway.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.demoKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await chat.json())).toContain('POST /v1/audio/speech');
  });
});

import { describe, expect, it } from 'vitest';
import { audioRoleOf, modelsFor } from '@/lib/voice/models';
import type { ModelInfo } from '@/lib/gateway/types';

describe('speech and transcription models, known by name (new-api lists them as chat models)', () => {
  it('names OpenAI\'s and the families gateways relay; leaves chat models alone', () => {
    const speech = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'openai/gpt-4o-mini-tts', 'cosyvoice-tts-v2', 'speech-02-hd', 'TTS-1'];
    const transcription = ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe', 'whisper-large-v3', 'SenseVoiceSmall', 'paraformer-v2', 'qwen-asr', 'funasr-stt'];
    const neither = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4', 'deepseek-chat', 'gpt-4o-audio-preview', 'attest-1', 'gemini-2.5-flash'];
    expect(speech.map(audioRoleOf)).toEqual(speech.map(() => 'speech'));
    expect(transcription.map(audioRoleOf)).toEqual(transcription.map(() => 'transcription'));
    expect(neither.map(audioRoleOf)).toEqual(neither.map(() => undefined));
  });

  it('lists the likely models for a role first, then the rest, each in the catalogue\'s order', () => {
    const m = (id: string): ModelInfo => ({ id, capabilities: { chat: true, responses: 'unknown', imageInput: 'unknown', imageGeneration: 'unknown', embeddings: 'unknown', reasoning: 'unknown', tools: 'unknown' } });
    const catalogue = [m('gpt-4o'), m('whisper-1'), m('tts-1-hd'), m('tts-1')];
    const { likely, others } = modelsFor('speech', catalogue);
    expect(likely.map((x) => x.id)).toEqual(['tts-1-hd', 'tts-1']);
    expect(others.map((x) => x.id)).toEqual(['gpt-4o', 'whisper-1']);
  });
});

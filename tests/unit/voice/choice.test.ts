import { describe, expect, it } from 'vitest';
import { DEFAULT_VOICE } from '@/lib/settings/schema';
import { speechChoice, transcriptionChoice } from '@/lib/voice/choice';
import type { ModelInfo } from '@/lib/gateway/types';

const models = ['gpt-4o-mini', 'tts-1', 'gpt-4o-mini-tts', 'whisper-1'].map((id) => ({ id }) as ModelInfo);

describe('voice choice', () => {
  it('without a choice: the catalogue\'s first model named for the job', () => {
    expect(speechChoice(DEFAULT_VOICE, models, true)).toEqual({ via: 'gateway', model: 'tts-1', chosen: false });
    expect(transcriptionChoice(DEFAULT_VOICE, models, true)).toEqual({ via: 'gateway', model: 'whisper-1', chosen: false });
  });

  it('the chosen model where the catalogue has it; one gone from it falls back to the likely one', () => {
    expect(speechChoice({ ...DEFAULT_VOICE, speechModel: 'gpt-4o-mini-tts' }, models, true)).toEqual({ via: 'gateway', model: 'gpt-4o-mini-tts', chosen: true });
    expect(speechChoice({ ...DEFAULT_VOICE, speechModel: 'gone-tts' }, models, true)).toEqual({ via: 'gateway', model: 'tts-1', chosen: false });
    // No catalogue to check (it failed to load): the choice stands.
    expect(transcriptionChoice({ ...DEFAULT_VOICE, transcriptionModel: 'my-asr' }, [], false)).toEqual({ via: 'gateway', model: 'my-asr', chosen: true });
  });

  it('the browser\'s own when chosen, or when the gateway has none; nothing when neither', () => {
    expect(speechChoice({ ...DEFAULT_VOICE, speechVia: 'browser' }, models, true)).toEqual({ via: 'browser', chosen: true });
    const chatOnly = [{ id: 'gpt-4o' } as ModelInfo];
    expect(speechChoice(DEFAULT_VOICE, chatOnly, true)).toEqual({ via: 'browser', chosen: false });
    expect(transcriptionChoice(DEFAULT_VOICE, chatOnly, false)).toEqual({ via: 'none' });
    expect(transcriptionChoice({ ...DEFAULT_VOICE, transcriptionVia: 'browser' }, models, false)).toEqual({ via: 'none' });
  });
});

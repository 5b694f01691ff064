/**
 * Which voice reads a reply and what writes down a dictation, from the Voice section's settings
 * and the gateway's catalogue: the chosen model where the catalogue has it (or, with no catalogue
 * to check, as chosen), else the catalogue's first named for the job, else the browser's own,
 * where it has one. Codes only: the page says which it is.
 */
import type { ModelInfo } from '../gateway/types';
import type { VoiceSettings } from '../settings/schema';
import { modelsFor, type AudioRole } from './models';

export type VoiceChoice =
  | { via: 'gateway'; model: string; chosen: boolean }
  | { via: 'browser'; chosen: boolean }
  | { via: 'none' };

function choose(role: AudioRole, model: string | undefined, via: 'gateway' | 'browser', models: readonly ModelInfo[], browserHas: boolean): VoiceChoice {
  if (via === 'browser') return browserHas ? { via: 'browser', chosen: true } : { via: 'none' };
  if (model !== undefined && model !== '' && (models.length === 0 || models.some((m) => m.id === model))) return { via: 'gateway', model, chosen: true };
  const likely = modelsFor(role, models).likely[0];
  if (likely !== undefined) return { via: 'gateway', model: likely.id, chosen: false };
  return browserHas ? { via: 'browser', chosen: false } : { via: 'none' };
}

/** What reads a reply aloud. `browserHas`: the page has speechSynthesis. */
export function speechChoice(voice: VoiceSettings, models: readonly ModelInfo[], browserHas: boolean): VoiceChoice {
  return choose('speech', voice.speechModel, voice.speechVia, models, browserHas);
}

/** What writes down a dictation. `browserHas`: the page has SpeechRecognition. */
export function transcriptionChoice(voice: VoiceSettings, models: readonly ModelInfo[], browserHas: boolean): VoiceChoice {
  return choose('transcription', voice.transcriptionModel, voice.transcriptionVia, models, browserHas);
}

/**
 * Speech and transcription models in a gateway's catalogue (issue 32). new-api lists them as plain
 * `openai` models (it has no audio endpoint type), so they are known by name: OpenAI's tts-1,
 * tts-1-hd, gpt-4o-mini-tts, whisper-1, gpt-4o(-mini)-transcribe, and the families relayed under
 * similar names (a `tts` or `speech` word; `whisper`, `transcribe`, `asr`, `stt`, SenseVoice,
 * Paraformer). A catalogue that states modalities (OpenRouter) is believed where it says audio.
 */
import type { ModelInfo } from '../gateway/types';

export type AudioRole = 'speech' | 'transcription';

/** The model's last path segment (`openai/tts-1` → `tts-1`), lower-cased. */
function baseName(id: string): string {
  return (id.split('/').at(-1) ?? id).toLowerCase();
}

const SPEECH = /(^|[-_.])(tts|speech|text-to-speech)([-_.]|$)|^tts/;
const TRANSCRIPTION = /whisper|transcribe|(^|[-_.])(asr|stt|speech-to-text)([-_.]|$)|sensevoice|paraformer/;

/** Whether model `id` speaks text or writes down speech, by its name; undefined for any other model. */
export function audioRoleOf(id: string): AudioRole | undefined {
  const name = baseName(id);
  // "speech-to-text" says transcription before "speech" says speech.
  if (TRANSCRIPTION.test(name)) return 'transcription';
  if (SPEECH.test(name)) return 'speech';
  return undefined;
}

/**
 * The catalogue's models for `role`: those named for it first (in the catalogue's order), then
 * every other model (a gateway may serve one under a name of its own); so a picker can offer all,
 * the likely ones at the top.
 */
export function modelsFor(role: AudioRole, models: readonly ModelInfo[]): { likely: ModelInfo[]; others: ModelInfo[] } {
  const likely = models.filter((m) => audioRoleOf(m.id) === role);
  const others = models.filter((m) => audioRoleOf(m.id) !== role);
  return { likely, others };
}

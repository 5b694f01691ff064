/** What the composer's Dictate needs to know (given by the chat view): where the words go, and how. */
import type { Profile } from '@/lib/settings/schema';
import type { VoiceChoice } from '@/lib/voice/choice';

export interface DictationTarget {
  profile: Profile;
  /** The transcription model, the browser's recognition, or nothing. */
  choice: VoiceChoice;
  language?: string | undefined;
  sendAfter: boolean;
  /** The page cannot show the browser's microphone prompt (the popup, the side panel): a tab asks. */
  promptsElsewhere: boolean;
}

/** The longest recording (a few MB of Opus: well under the 25 MB Whisper takes). */
export const MAX_RECORDING_MS = 5 * 60 * 1000;

/** The browser can write down speech itself (Chromium's webkitSpeechRecognition). */
export function browserRecognition(): boolean {
  return typeof window !== 'undefined' && ('SpeechRecognition' in window || 'webkitSpeechRecognition' in window);
}

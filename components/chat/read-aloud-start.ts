/**
 * Starting a reading aloud (components/chat/ReadAloud.tsx), loaded on the first click of Read
 * aloud rather than with the page: the reply made ready to be spoken (lib/voice/speech-text.ts),
 * read by the gateway's speech model (the catalogue's first named for speech) or else by the
 * browser's own voices, said as such; a failure is a toast with why.
 */
import { toast } from '@/components/ui/Toast';
import { errorTitle } from '@/components/i18n/problems';
import { withoutImageRefs } from '@/components/images/refs';
import { startReading, stopReading } from '@/components/stores/read-aloud';
import type { Message } from '@/lib/conversations/records';
import { storedError } from '@/lib/conversations/records';
import { createGatewayClient, GatewayError, type ModelInfo } from '@/lib/gateway';
import type { Words } from '@/lib/i18n/messages';
import type { Profile } from '@/lib/settings/schema';
import { speechChoice } from '@/lib/voice/choice';
import { useSettingsStore } from '@/components/stores/settings';
import { DEFAULT_VOICE } from '@/lib/settings/schema';
import { readAloud, speechCache, type SpeechCache } from '@/lib/voice/read-aloud';
import { speechPieces, type SpokenPart } from '@/lib/voice/speech-text';


/** What the page says for a part of a reply that is not read as text. */
export function spokenPart(w: Words, part: SpokenPart): string {
  switch (part.kind) {
    case 'code': return part.language === '' ? w.plural('voice.codeBlock', part.lines) : w.plural('voice.codeBlockIn', part.lines, { language: part.language });
    case 'formula': return w.t('voice.formula');
    case 'image': return part.alt === '' ? w.t('voice.image') : w.t('voice.imageAlt', { alt: part.alt });
    case 'table': return w.t('voice.table', { rows: part.rows, columns: part.columns });
  }
}

/** The session's speech, for every reply read on this page (replaying one costs nothing). */
let cache: SpeechCache | undefined;

/**
 * Plays audio through an `audio` element kept in the page while it plays (hidden; marked
 * `data-read-aloud`): resolves when it has ended, rejects when it cannot be played, stops and
 * goes at once on `signal`.
 */
export function playAudio(audio: Blob, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const url = URL.createObjectURL(audio);
    const element = document.createElement('audio');
    element.hidden = true;
    element.dataset.readAloud = '';
    element.src = url;
    const finish = (): void => {
      signal.removeEventListener('abort', onAbort);
      element.pause();
      element.remove();
      URL.revokeObjectURL(url);
    };
    const onAbort = (): void => {
      finish();
      resolve();
    };
    element.addEventListener('ended', () => {
      finish();
      resolve();
    }, { once: true });
    element.addEventListener('error', () => {
      finish();
      reject(new Error('audio_unplayable'));
    }, { once: true });
    signal.addEventListener('abort', onAbort, { once: true });
    document.body.append(element);
    element.play().catch((error: unknown) => {
      if (signal.aborted) return;
      finish();
      reject(error);
    });
  });
}

/** Says `text` with the browser's own voice (speechSynthesis): resolves when it has been said. */
export function sayWithBrowser(text: string, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const utterance = new SpeechSynthesisUtterance(text);
    const onAbort = (): void => {
      speechSynthesis.cancel();
      resolve();
    };
    utterance.onend = () => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    utterance.onerror = (event) => {
      signal.removeEventListener('abort', onAbort);
      if (event.error === 'canceled' || event.error === 'interrupted') resolve();
      else reject(new Error(`speech_${event.error}`));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    speechSynthesis.speak(utterance);
  });
}

/** Reads `message` aloud with `profile`'s gateway (its catalogue `models`), else the browser's voices. */
export async function startReadingReply(message: Message, profile: Profile, models: readonly ModelInfo[], w: Words): Promise<void> {
  stopReading();
  const pieces = speechPieces(withoutImageRefs(message.text), { say: (part) => spokenPart(w, part) });
  const failed = (error: unknown): void => {
    const why = error instanceof GatewayError ? errorTitle(w, storedError(error, profile.apiKey)) : w.t('voice.unplayable');
    toast(w.t('voice.failed', { why }), 'error');
  };
  // The Voice section's choice (options page), else the catalogue's first speech model, else the browser's voices.
  const parsed = useSettingsStore.getState().parsed;
  const settings = parsed?.ok === true ? parsed.settings.voice : DEFAULT_VOICE;
  const choice = speechChoice(settings, models, typeof speechSynthesis !== 'undefined');
  if (choice.via === 'gateway') {
    const { model } = choice;
    const { voice, speed } = settings;
    const client = createGatewayClient({ baseUrl: profile.baseUrl, siteUrl: profile.siteUrl, apiKey: profile.apiKey });
    cache ??= speechCache();
    await startReading(message.id, readAloud, pieces, {
      via: 'gateway',
      model,
      speak: (input, signal) => client.speak({ model, input, voice, speed }, { signal }),
      play: playAudio,
      keyOf: (input) => `${profile.baseUrl}\n${model}\n${voice}\n${speed}\n${input}`,
      cache,
    }, failed);
  } else if (choice.via === 'browser') {
    await startReading(message.id, readAloud, pieces, { via: 'browser', speak: async (input) => input, play: sayWithBrowser, keyOf: (input) => input }, failed);
  } else {
    toast(w.t('voice.noVoice'), 'error');
  }
}

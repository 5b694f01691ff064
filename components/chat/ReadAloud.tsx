import { Square, Volume2 } from 'lucide-react';
import { createContext, useContext, useMemo } from 'react';
import { IconButton } from '@/components/ui/IconButton';
import { toast } from '@/components/ui/Toast';
import { useWords } from '@/components/i18n/words';
import { errorTitle } from '@/components/i18n/problems';
import { withoutImageRefs } from '@/components/images/refs';
import { playAudio, sayWithBrowser, sessionSpeech, startReading, stopReading, useReadAloud } from '@/components/stores/read-aloud';
import type { Message } from '@/lib/conversations/records';
import type { ModelInfo } from '@/lib/gateway';
import type { Words } from '@/lib/i18n/messages';
import type { Profile } from '@/lib/settings/schema';
import type { SpokenPart } from '@/lib/voice/speech-text';

/** Starts reading a reply aloud; given by the chat view (which knows the gateway), absent elsewhere. */
export const ReadAloudContext = createContext<((message: Message) => void) | undefined>(undefined);

/** What the page says for a part of a reply that is not read as text. */
export function spokenPart(w: Words, part: SpokenPart): string {
  switch (part.kind) {
    case 'code': return part.language === '' ? w.plural('voice.codeBlock', part.lines) : w.plural('voice.codeBlockIn', part.lines, { language: part.language });
    case 'formula': return w.t('voice.formula');
    case 'image': return part.alt === '' ? w.t('voice.image') : w.t('voice.imageAlt', { alt: part.alt });
    case 'table': return w.t('voice.table', { rows: part.rows, columns: part.columns });
  }
}

/** The voice a voice: the gateway's speech model, or the browser's. OpenAI's default voice and speed. */
const VOICE = 'alloy';
const SPEED = 1;

/**
 * `start(message)` for the chat view's replies: the reply's text made ready to be spoken
 * (lib/voice/speech-text.ts) and read by the gateway's speech model (the catalogue's first model
 * named for speech), else by the browser's own voices, said as such; a failure is a toast with why.
 */
export function useReadAloudStarter(profile: Profile | undefined, models: readonly ModelInfo[]): ((message: Message) => void) | undefined {
  const w = useWords();
  return useMemo(() => {
    if (profile === undefined) return undefined;
    return (message: Message): void => {
      void (async () => {
        const [{ speechPieces }, { modelsFor }, { createGatewayClient, GatewayError }, { storedError }] = await Promise.all([
          import('@/lib/voice/speech-text'), import('@/lib/voice/models'), import('@/lib/gateway'), import('@/lib/conversations/records'),
        ]);
        const pieces = speechPieces(withoutImageRefs(message.text), { say: (part) => spokenPart(w, part) });
        const failed = (error: unknown): void => {
          const why = error instanceof GatewayError ? errorTitle(w, storedError(error, profile.apiKey)) : w.t('voice.unplayable');
          toast(w.t('voice.failed', { why }), 'error');
        };
        const model = modelsFor('speech', models).likely[0];
        if (model !== undefined) {
          const client = createGatewayClient({ baseUrl: profile.baseUrl, siteUrl: profile.siteUrl, apiKey: profile.apiKey });
          await startReading(message.id, pieces, {
            via: 'gateway',
            speak: (input, signal) => client.speak({ model: model.id, input, voice: VOICE, speed: SPEED }, { signal }),
            play: playAudio,
            keyOf: (input) => `${profile.baseUrl}\n${model.id}\n${VOICE}\n${SPEED}\n${input}`,
            cache: await sessionSpeech(),
          }, failed);
        } else if (typeof speechSynthesis !== 'undefined') {
          await startReading(message.id, pieces, {
            via: 'browser',
            speak: async (input) => input,
            play: (input, signal) => sayWithBrowser(input, signal, undefined),
            keyOf: (input) => input,
          }, failed);
        } else {
          toast(w.t('voice.noVoice'), 'error');
        }
      })();
    };
  }, [profile, models, w]);
}

/** "Read aloud" on a finished reply; while it is read, "Stop reading" and how far it has got. */
export function ReadAloudButton({ message }: { message: Message }) {
  const start = useContext(ReadAloudContext);
  const w = useWords();
  const reading = useReadAloud((s) => (s.messageId === message.id ? s : undefined));
  if (start === undefined) return null;
  if (reading === undefined) {
    return <IconButton size="sm" label={w.t('voice.readAloud')} icon={<Volume2 aria-hidden />} className="text-muted opacity-70 group-hover:opacity-100 focus-visible:opacity-100" onClick={() => start(message)} />;
  }
  const progress = reading.piece < 0 ? w.t('voice.preparing') : w.t('voice.progress', { n: reading.piece + 1, total: reading.pieces });
  return (
    <span className="flex items-center gap-1">
      <IconButton size="sm" label={w.t('voice.stopReading')} icon={<Square aria-hidden className="fill-current" />} className="text-accent" onClick={stopReading} />
      <span role="status" className="text-2xs text-muted">{reading.via === 'browser' ? w.t('voice.browserProgress', { progress }) : progress}</span>
    </span>
  );
}

/**
 * The options page's "Voice" section (issue 32): what reads replies aloud (a speech model of the
 * active gateway, its voice and speed, or the browser's own voices) and what writes dictation
 * down (a transcription model, or the browser's speech recognition), with the dictation's
 * language and whether a dictated message is sent at once. Models named for the job are listed
 * first; "Automatic" takes the first of them.
 */
import { useState } from 'react';
import { useWords } from '@/components/i18n/words';
import { useCatalogue } from '@/components/stores/catalogue';
import { Button } from '@/components/ui/Button';
import { Callout } from '@/components/ui/Callout';
import { Field } from '@/components/ui/Field';
import { Input } from '@/components/ui/Input';
import { NativeSelect } from '@/components/ui/NativeSelect';
import { Switch } from '@/components/ui/Switch';
import { LANGUAGE_CODE, SPEECH_SPEED, SPEECH_VOICES, type Profile, type Settings, type VoiceSettings } from '@/lib/settings/schema';
import { modelsFor, type AudioRole } from '@/lib/voice/models';
import { Section } from './Section';
import { browserRecognition } from '@/components/voice/target';

const BROWSER = '@browser';

function ModelSelect({ id, role, profile, model, via, browserLabel, browserHas, onChange, ...control }: {
  id: string; role: AudioRole; profile: Profile | undefined; model: string | undefined; via: 'gateway' | 'browser';
  browserLabel: string; browserHas: boolean; onChange(model: string | undefined, via: 'gateway' | 'browser'): void;
}) {
  const w = useWords();
  const catalogue = useCatalogue(profile);
  const { likely, others } = modelsFor(role, catalogue.models);
  const value = via === 'browser' ? BROWSER : model ?? '';
  const listed = model === undefined || catalogue.models.some((m) => m.id === model);
  return (
    <NativeSelect id={id} {...control} value={value} onChange={(e) => {
      const chosen = e.target.value;
      if (chosen === BROWSER) onChange(undefined, 'browser');
      else onChange(chosen === '' ? undefined : chosen, 'gateway');
    }}>
      <option value="">{likely[0] === undefined ? w.t('options.voice.automaticNone') : w.t('options.voice.automatic', { model: likely[0].id })}</option>
      {!listed && model !== undefined && <option value={model}>{model}</option>}
      {likely.length > 0 && <optgroup label={w.t(role === 'speech' ? 'options.voice.speechModels' : 'options.voice.transcriptionModels')}>{likely.map((m) => <option key={m.id} value={m.id}>{m.id}</option>)}</optgroup>}
      {others.length > 0 && <optgroup label={w.t('options.voice.otherModels')}>{others.map((m) => <option key={m.id} value={m.id}>{m.id}</option>)}</optgroup>}
      {(browserHas || via === 'browser') && <option value={BROWSER}>{browserLabel}</option>}
    </NativeSelect>
  );
}

export function VoiceSection({ settings, profile, onSave }: { settings: Settings; profile: Profile | undefined; onSave(change: (now: Settings) => Settings): Promise<string | undefined> }) {
  const w = useWords();
  const [voice, setVoice] = useState<VoiceSettings>(settings.voice);
  const [speed, setSpeed] = useState(String(settings.voice.speed));
  const [note, setNote] = useState<{ ok: boolean; text: string } | undefined>();
  const speedValue = Number(speed);
  const speedOk = speed.trim() !== '' && Number.isFinite(speedValue) && speedValue >= SPEECH_SPEED.min && speedValue <= SPEECH_SPEED.max;
  const languageOk = voice.language === undefined || LANGUAGE_CODE.test(voice.language);
  const save = async (): Promise<void> => {
    if (!speedOk || !languageOk) return;
    const failure = await onSave((now) => ({ ...now, voice: { ...voice, speed: speedValue } }));
    setNote(failure === undefined ? { ok: true, text: w.t('options.prefsSaved') } : { ok: false, text: failure });
  };
  const set = (change: Partial<VoiceSettings>): void => {
    setNote(undefined);
    setVoice((now) => {
      const next = { ...now, ...change };
      for (const key of Object.keys(change) as (keyof VoiceSettings)[]) if (change[key] === undefined) delete next[key];
      return next;
    });
  };
  const speechSynthesisHas = typeof speechSynthesis !== 'undefined';
  return (
    <Section id="voice" title={w.t('options.section.voice')} intro={w.t('options.voice.intro')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={w.t('options.voice.speechModel')} hint={w.t('options.voice.speechModelHint')} className="sm:col-span-2">
          {(control) => <ModelSelect {...control} role="speech" profile={profile} model={voice.speechModel} via={voice.speechVia} browserLabel={w.t('options.voice.browserVoices')} browserHas={speechSynthesisHas} onChange={(model, via) => set({ speechModel: model, speechVia: via })} />}
        </Field>
        <Field label={w.t('options.voice.voice')}>
          {(control) => (
            <NativeSelect {...control} value={voice.voice} disabled={voice.speechVia === 'browser'} onChange={(e) => set({ voice: e.target.value })}>
              {!(SPEECH_VOICES as readonly string[]).includes(voice.voice) && <option value={voice.voice}>{voice.voice}</option>}
              {SPEECH_VOICES.map((v) => <option key={v} value={v}>{v}</option>)}
            </NativeSelect>
          )}
        </Field>
        <Field label={w.t('options.voice.speed')} hint={w.t('options.voice.speedHint', { ...SPEECH_SPEED })} error={speedOk ? undefined : w.t('options.voice.speedInvalid', { ...SPEECH_SPEED })}>
          {(control) => <Input {...control} type="number" min={SPEECH_SPEED.min} max={SPEECH_SPEED.max} step={0.25} value={speed} disabled={voice.speechVia === 'browser'} onChange={(e) => { setNote(undefined); setSpeed(e.target.value); }} />}
        </Field>
        <Field label={w.t('options.voice.transcriptionModel')} hint={w.t('options.voice.transcriptionModelHint')} className="sm:col-span-2">
          {(control) => <ModelSelect {...control} role="transcription" profile={profile} model={voice.transcriptionModel} via={voice.transcriptionVia} browserLabel={w.t('options.voice.browserRecognition')} browserHas={browserRecognition()} onChange={(model, via) => set({ transcriptionModel: model, transcriptionVia: via })} />}
        </Field>
        <Field label={w.t('options.voice.language')} hint={w.t('options.voice.languageHint')} error={languageOk ? undefined : w.t('options.voice.languageInvalid', { value: voice.language ?? '' })}>
          {(control) => <Input {...control} value={voice.language ?? ''} placeholder={w.t('options.voice.languageAuto')} onChange={(e) => set({ language: e.target.value.trim() === '' ? undefined : e.target.value.trim() })} />}
        </Field>
        <Field label={w.t('options.voice.sendAfter')} hint={w.t('options.voice.sendAfterHint')} inline className="self-end">
          {(control) => <Switch {...control} checked={voice.sendAfterDictation} onCheckedChange={(checked) => set({ sendAfterDictation: checked })} />}
        </Field>
      </div>
      <div className="flex items-center gap-3">
        <Button variant="primary" onClick={() => void save()} disabled={!speedOk || !languageOk}>{w.t('options.voice.save')}</Button>
        {note !== undefined && (note.ok ? <p role="status" className="text-sm text-success">{note.text}</p> : <Callout role="alert" tone="danger">{note.text}</Callout>)}
      </div>
    </Section>
  );
}

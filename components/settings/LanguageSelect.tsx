import { Select } from '@/components/ui/Select';
import { useWords } from '@/components/i18n/words';
import type { LanguageChoice } from '@/lib/i18n/locale';
import type { Settings } from '@/lib/settings/schema';
import { chooseLanguage, languageOptions } from './language-choice';

/** The language control of the options page: a select named "Language" ("语言"). */
export function LanguageSelect({ settings, id }: { settings: Settings; id?: string }) {
  const w = useWords();
  return <Select<LanguageChoice> label={id === undefined ? w.t('language.label') : undefined} id={id} className="w-48" value={settings.appearance.language} options={languageOptions(w)} onValueChange={chooseLanguage} />;
}

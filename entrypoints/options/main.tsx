import { createRoot } from 'react-dom/client';
import { prepareWords } from '@/components/i18n/words';
import { OptionsApp } from '@/components/settings/OptionsApp';
import { UiRoot } from '@/components/ui/UiRoot';
import { watchSettingsStore } from '@/components/stores/settings';
import '@/components/styles.css';

// The settings are read while the page's words load.
watchSettingsStore();

// Rendered once the words of the page's language are there (both parts: lib/i18n/messages.ts).
void prepareWords().then(() => {
  createRoot(document.getElementById('root')!).render(<UiRoot><OptionsApp /></UiRoot>);
});

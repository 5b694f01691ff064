import { createRoot } from 'react-dom/client';
import { prepareWords } from '@/components/i18n/words';
import { PopupApp } from '@/components/popup/PopupApp';
import { UiRoot } from '@/components/ui/UiRoot';
import { watchSettingsStore } from '@/components/stores/settings';
import '@/components/styles.css';

// The settings are read while the page's words load.
watchSettingsStore();

// Rendered once the words of the page's language are there (English at once).
void prepareWords().then(() => {
  createRoot(document.getElementById('root')!).render(<UiRoot><PopupApp /></UiRoot>);
});

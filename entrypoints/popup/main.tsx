import { createRoot } from 'react-dom/client';
import { prepareWords } from '@/components/i18n/words';
import { PopupApp } from '@/components/popup/PopupApp';
import { UiRoot } from '@/components/ui/UiRoot';
import { watchSettingsStore } from '@/components/stores/settings';
import '@/components/styles.css';

// The settings are read while the page's words load.
watchSettingsStore();

// Rendered once the first words of the page's language are there (English at once): the words
// the popup's own scripts say. The more words, which its lazily loaded parts say (and wait for),
// follow the first frame (lib/i18n/messages.ts).
void prepareWords(['first']).then(() => {
  createRoot(document.getElementById('root')!).render(<UiRoot><PopupApp /></UiRoot>);
  requestAnimationFrame(() => setTimeout(() => void prepareWords(['more']), 0));
});

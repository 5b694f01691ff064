import { createRoot } from 'react-dom/client';
import { prepareWords } from '@/components/i18n/words';
import { MicrophonePage } from '@/components/voice/MicrophonePage';
import { UiRoot } from '@/components/ui/UiRoot';
import { watchSettingsStore } from '@/components/stores/settings';
import '@/components/styles.css';

watchSettingsStore();
void prepareWords().then(() => {
  createRoot(document.getElementById('root')!).render(<UiRoot><MicrophonePage /></UiRoot>);
});

import { createRoot } from 'react-dom/client';
import { prepareWords } from '@/components/i18n/words';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { startRenderer } from '@/components/chat/Markdown';
import { preloadVirtualMessages } from '@/components/chat/MessageList';
import { UiRoot } from '@/components/ui/UiRoot';
import { watchSettingsStore } from '@/components/stores/settings';
import '@/components/styles.css';

// Saved replies are shown at once here: the render worker (and the virtualiser of long conversations)
// start while the page starts.
startRenderer();
void preloadVirtualMessages();

// The settings are read while the page's words load.
watchSettingsStore();

// Rendered once the words of the page's language are there (both parts: lib/i18n/messages.ts).
void prepareWords().then(() => {
  createRoot(document.getElementById('root')!).render(<UiRoot><SidePanelApp /></UiRoot>);
});

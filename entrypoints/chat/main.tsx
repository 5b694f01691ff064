import { createRoot } from 'react-dom/client';
import { prepareWords } from '@/components/i18n/words';
import { preloadCommandPalette, StandaloneChat } from '@/components/chat/StandaloneChat';
import { preloadDialogs } from '@/components/ui/Dialog';
import { startRenderer } from '@/components/chat/Markdown';
import { preloadVirtualMessages } from '@/components/chat/MessageList';
import { UiRoot } from '@/components/ui/UiRoot';
import { watchSettingsStore } from '@/components/stores/settings';
import { openSearchAhead, watchConversationList } from '@/components/stores/conversations';
import '@/components/styles.css';

// Saved replies are shown soon after: the renderer, the virtualiser of long conversations, the
// palette and the dialogs are fetched once the page's first frame is drawn (the rail and the
// conversation's frame come first).
requestAnimationFrame(() => setTimeout(() => {
  startRenderer();
  void preloadVirtualMessages();
  void preloadCommandPalette();
  void preloadDialogs();
}, 0));
// The rail's first rows are read from the database while the page's settings and words load.
openSearchAhead();
watchConversationList();

// The settings are read while the page's words load.
watchSettingsStore();

// Rendered once the words of the page's language are there (both parts: lib/i18n/messages.ts).
void prepareWords().then(() => {
  createRoot(document.getElementById('root')!).render(<UiRoot><StandaloneChat surface="chat" /></UiRoot>);
});

import { createRoot } from 'react-dom/client';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import { loadMarkdownRenderer } from '@/components/chat/Markdown';
import { UiRoot } from '@/components/ui/UiRoot';
import '@/components/styles.css';

// Saved replies are shown at once here: the renderer is fetched while the page starts.
void loadMarkdownRenderer();

createRoot(document.getElementById('root')!).render(<UiRoot><SidePanelApp /></UiRoot>);

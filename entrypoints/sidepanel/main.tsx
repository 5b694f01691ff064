import { createRoot } from 'react-dom/client';
import { SidePanelApp } from '@/components/sidepanel/SidePanelApp';
import '@/components/styles.css';

createRoot(document.getElementById('root')!).render(<SidePanelApp />);

import { createRoot } from 'react-dom/client';
import { PopupApp } from '@/components/popup/PopupApp';
import { UiRoot } from '@/components/ui/UiRoot';
import '@/components/styles.css';

createRoot(document.getElementById('root')!).render(<UiRoot><PopupApp /></UiRoot>);

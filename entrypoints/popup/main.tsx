import { createRoot } from 'react-dom/client';
import { PopupApp } from '@/components/popup/PopupApp';
import '@/components/styles.css';

createRoot(document.getElementById('root')!).render(<PopupApp />);

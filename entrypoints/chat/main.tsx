import { createRoot } from 'react-dom/client';
import { StandaloneChat } from '@/components/chat/StandaloneChat';
import '@/components/styles.css';

createRoot(document.getElementById('root')!).render(<StandaloneChat surface="chat" />);

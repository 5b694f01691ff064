import { createRoot } from 'react-dom/client';
import { OptionsApp } from '@/components/settings/OptionsApp';
import '@/components/styles.css';

createRoot(document.getElementById('root')!).render(<OptionsApp />);

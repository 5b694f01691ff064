import { createRoot } from 'react-dom/client';
import { OptionsApp } from '@/components/settings/OptionsApp';
import { UiRoot } from '@/components/ui/UiRoot';
import '@/components/styles.css';

createRoot(document.getElementById('root')!).render(<UiRoot><OptionsApp /></UiRoot>);

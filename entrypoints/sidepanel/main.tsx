import { createRoot } from 'react-dom/client';
import { SurfaceShell } from '@/components/SurfaceShell';

createRoot(document.getElementById('root')!).render(<SurfaceShell surface="sidepanel" />);

import { Toaster as Sonner } from 'sonner';
import type { CSSProperties } from 'react';

/** sonner's toaster in our colours (its variables take our tokens, so both themes follow). */
const STYLE = {
  '--normal-bg': 'var(--surface-raised)',
  '--normal-text': 'var(--fg)',
  '--normal-border': 'var(--border)',
  '--success-bg': 'var(--surface-raised)',
  '--success-text': 'var(--fg)',
  '--success-border': 'var(--border)',
  '--error-bg': 'var(--danger-soft)',
  '--error-text': 'var(--fg)',
  '--error-border': 'var(--danger)',
  '--border-radius': 'var(--radius-md)',
} as CSSProperties;

export default function ToasterImpl() {
  return <Sonner position="bottom-center" duration={2000} visibleToasts={3} style={STYLE} toastOptions={{ className: 'text-sm shadow-pop' }} />;
}

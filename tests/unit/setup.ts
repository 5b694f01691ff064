import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { LOCALES } from '@/lib/i18n/locale';
import { ensureLocale } from '@/lib/i18n/messages';

// Without vitest globals, Testing Library cannot register its own clean-up.
afterEach(() => {
  if (typeof document !== 'undefined') cleanup();
});

// jsdom lacks what Radix's popovers and listboxes call on open (the browser has them all).
if (typeof window !== 'undefined') {
  const proto = window.HTMLElement.prototype as unknown as Record<string, unknown>;
  proto.hasPointerCapture ??= () => false;
  proto.releasePointerCapture ??= () => undefined;
  proto.scrollIntoView ??= () => undefined;
  (window as unknown as Record<string, unknown>).ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
}

// Every locale's words, loaded as pages load them before their first render.
await Promise.all(LOCALES.map((locale) => ensureLocale(locale)));

import { vi } from 'vitest';

/**
 * jsdom lays nothing out: an open cmdk list gets the height a browser gives it (about 8 rows), and
 * keeps it (jsdom's resize observer would report every box as 0 × 0). Call in beforeEach.
 */
export function stubListLayout(): void {
  vi.restoreAllMocks();
  const still = class { observe(): void {} unobserve(): void {} disconnect(): void {} };
  vi.stubGlobal('ResizeObserver', still);
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = still;
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return this.hasAttribute('cmdk-list') ? 320 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
    return this.hasAttribute('cmdk-list') ? 320 : 0;
  });
}

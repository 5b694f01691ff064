/**
 * Keeps the MV3 service worker alive while a run streams: any extension API call resets
 * its idle timer, so one cheap call every 20 s (the worker is stopped after 30 s idle).
 */
import { browser } from 'wxt/browser';

export function createKeepAlive(): (activeRuns: number) => void {
  let timer: ReturnType<typeof setInterval> | undefined;
  return (activeRuns) => {
    if (activeRuns > 0 && timer === undefined) {
      timer = setInterval(() => void browser.runtime.getPlatformInfo(), 20_000);
    } else if (activeRuns === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** "Capture visible tab", only ever on the user's click (activeTab). */
import { browser } from 'wxt/browser';

/** A refused capture: `detail` is the browser's own words (the page says what to do). */
export async function captureVisibleTab(): Promise<{ ok: true; dataUrl: string } | { ok: false; problem: 'capture_refused'; detail: string }> {
  try {
    const window = await browser.windows.getLastFocused({ windowTypes: ['normal'] });
    const dataUrl = await browser.tabs.captureVisibleTab(window.id ?? browser.windows.WINDOW_ID_CURRENT, { format: 'png' });
    return { ok: true, dataUrl };
  } catch (error) {
    return { ok: false, problem: 'capture_refused', detail: error instanceof Error ? error.message : String(error) };
  }
}

/** "Capture visible tab", only ever on the user's click (activeTab). */
import { browser } from 'wxt/browser';

export async function captureVisibleTab(): Promise<{ ok: true; dataUrl: string } | { ok: false; message: string }> {
  try {
    const window = await browser.windows.getLastFocused({ windowTypes: ['normal'] });
    const dataUrl = await browser.tabs.captureVisibleTab(window.id ?? browser.windows.WINDOW_ID_CURRENT, { format: 'png' });
    return { ok: true, dataUrl };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `The browser did not allow a capture of this tab (${why}). It allows one right after you open Gateway Chat on the tab (toolbar button or Alt+Shift+G); browser pages such as chrome:// cannot be captured.`,
    };
  }
}

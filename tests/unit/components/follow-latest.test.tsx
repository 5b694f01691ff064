// @vitest-environment jsdom
import { act, fireEvent, render, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFollowLatest, type FollowLatest } from '@/components/hooks/useFollowLatest';

describe('useFollowLatest', () => {
  it('follows a view newly shown, and follows it again when it is shown again after another, however it was left', () => {
    const { result, rerender } = renderHook(({ view }) => useFollowLatest(view), { initialProps: { view: 'a' as string | undefined } });
    expect(result.current.following).toBe(true);
    act(() => result.current.stopFollowing());
    expect(result.current.following).toBe(false);
    rerender({ view: 'b' });
    expect(result.current.following).toBe(true);
    rerender({ view: 'a' });
    expect(result.current.following).toBe(true);
  });

  it('keeps a view not followed while it stays shown', () => {
    const { result, rerender } = renderHook(({ view }) => useFollowLatest(view), { initialProps: { view: 'a' as string | undefined } });
    act(() => result.current.stopFollowing());
    rerender({ view: 'a' });
    expect(result.current.following).toBe(false);
    act(() => result.current.jumpToLatest());
    expect(result.current.following).toBe(true);
  });

  it("stopped to show an older message, it is not followed again by the event of its own last scroll to the end, which comes after", () => {
    let api: FollowLatest | undefined;
    function View() {
      api = useFollowLatest('a');
      return <div ref={api.logRef} data-testid="log"><div ref={api.contentRef} /></div>;
    }
    const { getByTestId } = render(<View />);
    // A history 1,000 px tall in a 200 px box (jsdom lays nothing out).
    const log = getByTestId('log');
    let top = 0;
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => 1_000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => 200 });
    Object.defineProperty(log, 'scrollTop', { configurable: true, get: () => top, set: (v: number) => { top = Math.max(0, Math.min(v, 800)); } });
    act(() => api!.jumpToLatest());
    expect(log.scrollTop).toBe(800);
    act(() => api!.stopFollowing());
    // The scroll to the end, reported now.
    act(() => { fireEvent.scroll(log); });
    expect(api!.following).toBe(false);
    // The older message shown, then the reader scrolling back to the end: followed again.
    act(() => { log.scrollTop = 300; fireEvent.scroll(log); });
    expect(api!.following).toBe(false);
    act(() => { log.scrollTop = 800; fireEvent.scroll(log); });
    expect(api!.following).toBe(true);
  });
});

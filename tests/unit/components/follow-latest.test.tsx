// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFollowLatest } from '@/components/hooks/useFollowLatest';

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
});

/**
 * A row of a long conversation that changes size moves the scroll position with it when that keeps
 * what is on screen still: first measured with its top above the view, or measured again wholly
 * above it, whichever way the reader scrolls. A row across the top of the view, or below it, is
 * left alone (a reply streaming grows below its top).
 */
import { describe, expect, it } from 'vitest';
import type { VirtualItem, Virtualizer } from '@tanstack/react-virtual';
import { keepViewStill } from '@/components/chat/VirtualMessages';

/** The view's top at 1,000 px; `measured` are the rows whose size was told before. */
function at(measured: string[]): Virtualizer<HTMLDivElement, Element> {
  return { scrollOffset: 1000, itemSizeCache: new Map(measured.map((key) => [key, 1])) } as unknown as Virtualizer<HTMLDivElement, Element>;
}

const row = (key: string, start: number, size: number): VirtualItem => ({ key, index: 0, start, size, end: start + size, lane: 0 });

describe('keepViewStill', () => {
  it('follows a row measured for the first time whose top is above the view', () => {
    expect(keepViewStill(row('a', 400, 900), 300, at([]))).toBe(true);
    expect(keepViewStill(row('a', 400, 500), -200, at([]))).toBe(true);
  });

  it('leaves a row measured for the first time from the view down', () => {
    expect(keepViewStill(row('a', 1000, 300), 300, at([]))).toBe(false);
    expect(keepViewStill(row('a', 1400, 300), 300, at([]))).toBe(false);
  });

  it('follows a row measured again that lies wholly above the view (what the virtualiser left alone while scrolling up)', () => {
    expect(keepViewStill(row('a', 200, 800), 555, at(['a']))).toBe(true);
    expect(keepViewStill(row('a', 200, 700), -120, at(['a']))).toBe(true);
  });

  it('leaves a row measured again across the top of the view, or below it', () => {
    expect(keepViewStill(row('a', 600, 800), 200, at(['a']))).toBe(false);
    expect(keepViewStill(row('a', 1200, 800), 200, at(['a']))).toBe(false);
  });
});

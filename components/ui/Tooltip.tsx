import { cloneElement, type ReactElement } from 'react';
import { installTooltips, type TipSide } from './tooltip-layer';

/**
 * The attributes that give a control a short label shown on hover and keyboard focus (the page's
 * one tooltip, components/ui/tooltip-layer.ts); the control keeps its own accessible name.
 */
export function tipProps(content: string, side: TipSide = 'bottom'): { 'data-tip': string; 'data-tip-side': TipSide } {
  if (typeof document !== 'undefined') installTooltips(document);
  return { 'data-tip': content, 'data-tip-side': side };
}

/** `child` (one element taking `data-*` attributes) with a tooltip. */
export function Tooltip({ content, children, side }: { content: string; children: ReactElement<Record<string, unknown>>; side?: TipSide }) {
  return cloneElement(children, tipProps(content, side));
}

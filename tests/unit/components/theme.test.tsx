// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ThemeSelect } from '@/components/settings/ThemeSelect';
import { SurfaceMenu } from '@/components/surface/SurfaceMenu';
import { applyTheme, THEME_KEY } from '@/components/theme';
import { defaultSettings } from '@/lib/settings/schema';
import { loadSettings } from '@/lib/settings/storage.adapter';

beforeEach(() => {
  fakeBrowser.reset();
  localStorage.clear();
  document.documentElement.removeAttribute('style');
  delete document.documentElement.dataset.theme;
});

describe('the theme switch', () => {
  it('in a surface menu: a radio group named Theme; a choice applies at once', async () => {
    const user = userEvent.setup();
    await fakeBrowser.storage.local.set({ settings: defaultSettings() });
    render(<SurfaceMenu settings={defaultSettings()} />);
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    const group = await screen.findByRole('group', { name: 'Theme' });
    expect(within(group).getAllByRole('menuitemradio').map((o) => o.textContent)).toEqual(['System', 'Light', 'Dark']);
    expect(within(group).getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
    await user.click(within(group).getByRole('menuitemradio', { name: 'Light' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    await expect.poll(async () => (await loadSettings()).settings.appearance.theme).toBe('light');
  });

  it('is named Theme with Light, Dark and System; a choice applies at once, is saved, and is kept for the next open', async () => {
    await fakeBrowser.storage.local.set({ settings: defaultSettings() });
    const user = userEvent.setup();
    render(<ThemeSelect settings={defaultSettings()} />);
    const select = screen.getByRole('combobox', { name: 'Theme' });
    expect(select).toHaveTextContent('System');
    await user.click(select);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['System', 'Light', 'Dark']);
    await user.click(screen.getByRole('option', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    await expect.poll(async () => (await loadSettings()).settings.appearance.theme).toBe('dark');
    // By keyboard too: open with Enter, move with the arrows, choose with Enter.
    select.focus();
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('option', { name: 'Light' }));
    expect(document.documentElement.style.colorScheme).toBe('light');
  });
  it('System hands the choice back to the browser', () => {
    applyTheme('dark');
    applyTheme('system');
    expect(document.documentElement.style.colorScheme).toBe('light dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('system');
  });
});

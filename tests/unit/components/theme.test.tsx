// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ThemeSelect } from '@/components/settings/ThemeSelect';
import { THEME_KEY } from '@/components/theme';
import { defaultSettings } from '@/lib/settings/schema';
import { loadSettings } from '@/lib/settings/storage.adapter';

beforeEach(() => {
  fakeBrowser.reset();
  localStorage.clear();
  document.documentElement.removeAttribute('style');
  delete document.documentElement.dataset.theme;
});

describe('the theme switch', () => {
  it('is named Theme with Light, Dark and System; a choice applies at once, is saved, and is kept for the next open', async () => {
    await fakeBrowser.storage.local.set({ settings: defaultSettings() });
    render(<ThemeSelect settings={defaultSettings()} />);
    const select = screen.getByRole('combobox', { name: 'Theme' });
    expect(select).toHaveValue('system');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['System', 'Light', 'Dark']);
    await userEvent.selectOptions(select, 'Dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(document.documentElement.style.colorScheme).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    await expect.poll(async () => (await loadSettings()).settings.appearance.theme).toBe('dark');
    await userEvent.selectOptions(select, 'System');
    expect(document.documentElement.style.colorScheme).toBe('light dark');
  });
});

// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OptionsApp } from '@/components/settings/OptionsApp';
import { useSettingsStore } from '@/components/stores/settings';
import { defaultSettings } from '@/lib/settings/schema';

beforeEach(() => {
  fakeBrowser.reset();
  // The About section names the version.
  fakeBrowser.runtime.getManifest = () => ({ manifest_version: 3, name: 'Gateway Chat', version: '1.0.0' });
  // The sidebar follows the section in view (jsdom has no layout).
  (globalThis as Record<string, unknown>).IntersectionObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
});

describe('the options page', () => {
  it('has the wait for an image model\'s answer among the deadlines: 180 s unless set', async () => {
    useSettingsStore.setState({ parsed: { ok: true, settings: defaultSettings() } as never });
    render(<OptionsApp />);
    const field = await screen.findByRole('spinbutton', { name: 'Wait for an image (seconds)' });
    expect(field).toHaveValue(180);
    expect(field).toHaveAccessibleDescription('Image models may take a minute or more before answering.');
  });
});

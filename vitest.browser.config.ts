import { defineConfig } from 'vitest/config';

// Browser tests: the built extension (`npm run build:e2e`) in Debian's Chromium, driven by
// playwright-core, against the reference gateway on 127.0.0.1. One file at a time: each
// launches its own browser, and this machine has two cores.
export default defineConfig({
  test: {
    // CI also writes a JSON report, from which .ci/run prints one 'N passed, N failed' line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/browser.json' }]] : ['default'],
    include: ['tests/browser/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});

import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';
import { sanitiserFingerprint } from './scripts/sanitiser-fingerprint';

// Unit tests: lib/ in Node, components under jsdom (per-file `@vitest-environment jsdom`).
export default defineConfig({
  plugins: [WxtVitest()],
  // As the extension's build defines it (wxt.config.ts).
  define: { __SANITISER__: JSON.stringify(sanitiserFingerprint()) },
  test: {
    // CI also writes a JSON report, from which .ci/run prints one 'N passed, N failed' line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/unit.json' }]] : ['default'],
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    environment: 'node',
    setupFiles: ['tests/unit/setup.ts'],
    testTimeout: 20_000,
  },
});

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['.output/**', '.wxt/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Advice for the React Compiler, which this project does not use.
      'react-hooks/incompatible-library': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // lib/ is framework-free: no React, no extension APIs (thin adapters excepted, by name).
    files: ['lib/**/*.ts'],
    ignores: ['lib/**/*.adapter.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', 'react/*', 'wxt/*', '@/components/*', '@/entrypoints/*'] }],
      'no-restricted-globals': ['error', 'browser', 'chrome', 'window', 'document'],
    },
  },
  {
    // A lazily loaded component comes with the more words (lib/i18n/messages.ts): lazyWithWords, not React's lazy.
    files: ['components/**/*.{ts,tsx}', 'entrypoints/**/*.{ts,tsx}'],
    ignores: ['components/i18n/words.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'react', importNames: ['lazy'], message: 'Use lazyWithWords (components/i18n/words.ts): the popup loads the words its lazily loaded parts say with their code.' }] }],
    },
  },
  {
    // Command-line tools print to the console on purpose.
    files: ['tests/gateway/cli.ts', 'tests/bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);

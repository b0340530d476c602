// Lint runs in `npm test` after Prettier's check (formatting is Prettier's alone); this checks correctness.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { capabilityBoundaries } from './eslint/capability-boundaries.js';
import { decoratorBoundaries } from './eslint/decorator-boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  { files: ['src/cli/**', 'bench/**', 'bin/**', 'scripts/**'], rules: { 'no-console': 'off' } },
  // The pages' scripts run in the browser.
  {
    files: ['src/http/assets/**/*.js'],
    languageOptions: {
      globals: {
        document: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        URLSearchParams: 'readonly',
        TextDecoder: 'readonly',
        setTimeout: 'readonly',
        FormData: 'readonly',
        DOMParser: 'readonly',
      },
    },
  },
  ...capabilityBoundaries(),
  ...decoratorBoundaries(),
);

// ESLint flat config: typescript-eslint's `recommended` rules (not the type-checked set: tsc already checks
// types, and type-aware linting would build the whole program again on every run) over the TS and JS sources.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Build output, dependencies, caches and benchmark data, as in .gitignore and .prettierignore.
    ignores: [
      'dist/',
      'node_modules/',
      'web/dist/',
      'web/node_modules/',
      'bench/results/',
      '.gpu/',
      '.gl/',
      '.whl/',
      '.cache/',
      'out/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (placeholders in destructuring, required callback parameters).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
        },
      ],
    },
  },
  {
    // The library (also run in browsers, behind feature checks on globalThis), its tests, benchmarks and
    // scripts run on Node.
    files: ['src/**', 'test/**', 'bench/**', 'scripts/**', 'cjs/**', '*.js', 'web/vite.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    // The demo page, and the browser tests' page.evaluate / waitForFunction callbacks, which run in the page.
    files: ['web/src/**', 'test/browser/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The hand-written CommonJS entry point: require() and module.exports are its interface.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

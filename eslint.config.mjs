// Lint config: typescript-eslint's recommended rules over src, test and bench.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'scratch/**', 'node_modules/**', 'test/.harness/**', 'test/output/**', 'bench/output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/core/**', 'src/api/**', 'src/emulator/**', 'src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'Only src/extension may import vscode.' }] }] },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly', fetch: 'readonly', document: 'readonly', window: 'readonly', acquireVsCodeApi: 'readonly' } },
  },
);

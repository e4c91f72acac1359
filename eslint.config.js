import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', 'coverage/**', 'dist/**', 'clients/typescript/schema.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['app/**', 'test/**', 'migrations/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read response bodies as loosely typed JSON.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Invoices and bill runs change state only through their aggregates in core/domain, where
    // every transition is table-tested; anywhere else, writing `state` or `phase` is an error.
    files: ['core/billing/**', 'core/payments/**', 'core/persistence/billing/**', 'core/persistence/payments/**', 'rest/**', 'graphql/**', 'app/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'AssignmentExpression > MemberExpression.left[property.name=/^(state|phase)$/]',
          message: 'Change an invoice or bill run through its aggregate in core/domain (e.g. invoice.issue(), run.finishPhase()).',
        },
        {
          selector: "CallExpression[callee.object.name='Object'][callee.property.name='assign'] Property[key.name=/^(state|phase)$/]",
          message: 'Change an invoice or bill run through its aggregate in core/domain (e.g. invoice.issue(), run.finishPhase()).',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
);

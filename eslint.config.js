import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'bench/results/**', 'bench/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // The boundaries of web/ (web/README.md): a feature imports its own files, web/components, web/lib and core/,
  // never another feature or web/app; web/components and web/lib import neither. The rule sees only the import
  // string: from a file `depth` folders below web/features/<name>/ (1 for api/ and components/), `depth + 1` steps
  // up is web/features/, and every way down from there is another feature (its own files a feature imports from
  // closer by); one step more is web/, where features/ and app/ are refused by name.
  ...[0, 1, 2, 3].map((depth) => {
    const toFeatures = '../'.repeat(depth + 1);
    return {
      files: [`web/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: [`${toFeatures}*`, `!${toFeatures}..`, '**/features/*', '**/app/*'],
                message:
                  'A feature imports its own files, web/components, web/lib and core/; never another feature or web/app.',
              },
            ],
          },
        ],
      },
    };
  }),
  {
    files: ['web/components/**/*.{ts,tsx}', 'web/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/*', '**/app/*'],
              message: 'web/components and web/lib are shared code: they import neither web/features nor web/app.',
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['node:*', 'react', 'react-*', '../server/*', '../web/*'] },
      ],
    },
  },
);

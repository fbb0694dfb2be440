import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/**
 * The boundaries of server/ (docs/architecture.md, docs/decisions/013). Features are layered: each may import
 * only the features listed for it (their services), so no two features import each other. Within a feature a
 * repository imports only server/db and core/; a service never imports server/http nor another feature's
 * repository; only *.routes.ts touch server/http. server/db, server/http and the shared top-level files import
 * no feature. The answer cache (server/http/answer-cache.ts, decision 034) is declared by routes and installed by
 * app.ts: no service, repository, server/db or core/ file imports it. Tests may reach anywhere. The rule sees only the import string, hence the regular expressions.
 */
const FEATURE_LAYERS = {
  mail: [],
  users: ['mail'],
  shoes: [],
  goals: [],
  auth: ['mail', 'oidc', 'two-factor', 'users'],
  accounts: ['auth', 'mail', 'users'],
  tokens: ['users'],
  entries: ['shoes', 'users'],
  stats: ['entries', 'users'],
  demo: ['entries', 'users'],
  health: [],
  insights: ['entries', 'users'],
  tracks: ['entries', 'users'],
  imports: ['entries', 'goals', 'shoes', 'tracks', 'users'],
  exports: ['entries', 'goals', 'imports', 'shoes', 'tracks', 'users'],
  calendar: ['entries', 'users'],
  routes: ['entries', 'tracks', 'users'],
  'two-factor': ['users'],
  oidc: ['two-factor', 'users'],
  webhooks: ['users'],
  inbox: ['calendar', 'imports', 'users'],
};
const restricted = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const answerCache = {
  regex: '(^|/)answer-cache(\\.js)?$',
  message:
    'Only routes (config: { cache: true }) and app.ts know the answer cache; services, repositories, server/db and core/ never import it (decision 034).',
};
const serverBoundaries = Object.entries(FEATURE_LAYERS).flatMap(([feature, below]) => {
  const otherFeatures = {
    regex: below.length > 0 ? `^\\.\\./(?!(${below.join('|')})/)[^./][^/]*/` : '^\\.\\./[^./][^/]*/',
    message:
      below.length > 0
        ? `server/features/${feature} may import only the services of ${below.join(', ')} (features are layered without circles).`
        : `server/features/${feature} imports no other feature (features are layered without circles).`,
  };
  const foreignRepository = {
    regex: '^\\.\\./[^./][^/]*/.*\\.(repository|routes)(\\.js)?$',
    message: 'A feature reaches another feature through its service, never its repository or routes.',
  };
  const http = {
    regex: '^\\.\\./\\.\\./http/',
    message:
      "Only a feature's *.routes.ts touches server/http; services and repositories throw AppError (server/errors.ts).",
  };
  const beyondDbAndCore = {
    regex: '^\\.\\./(?!\\.\\./db/|\\.\\./\\.\\./core/)|^\\./.*\\.(service|routes)(\\.js)?$',
    message: "A repository imports only server/db, core/ and its own feature's repositories.",
  };
  const dir = `server/features/${feature}`;
  return [
    {
      files: [`${dir}/**/*.ts`],
      ignores: ['**/*.test.ts'],
      rules: restricted(answerCache, otherFeatures, foreignRepository, http),
    },
    {
      files: [`${dir}/**/*.routes.ts`],
      ignores: ['**/*.test.ts'],
      rules: restricted(otherFeatures, foreignRepository),
    },
    { files: [`${dir}/**/*.repository.ts`], rules: restricted(answerCache, beyondDbAndCore) },
  ];
});

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
  ...serverBoundaries,
  {
    files: ['server/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restricted(answerCache, {
      regex: '^\\.\\./(?!\\.\\./core/)',
      message: 'server/db is the bottom layer: it imports only its own files and core/.',
    }),
  },
  {
    files: ['server/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: restricted({
      regex: '^\\.\\./(features/|(app|main|jobs)(\\.js)?$)',
      message: 'server/http knows no feature: app.ts hands it what it needs (the authenticator).',
    }),
  },
  {
    files: ['server/config.ts', 'server/context.ts', 'server/errors.ts'],
    rules: restricted(answerCache, {
      regex: '^\\./(features|http)/',
      message: 'The shared top-level files import no feature and no HTTP code.',
    }),
  },
  {
    files: ['core/**/*.ts'],
    rules: restricted(answerCache, {
      group: ['node:*', 'react', 'react-*', '../server/*', '../web/*'],
      message: 'core/ is shared by both sides: it imports no Node.js, React, server or web code.',
    }),
  },
);

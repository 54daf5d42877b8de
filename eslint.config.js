import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// What differs between SQLite and PostgreSQL lives in src/database/ (its Dialect): nowhere else
// names a driver or asks which database it runs on.
const DRIVER_IMPORTS = [
  {
    group: ['better-sqlite3', 'pg', 'pg-*', 'typeorm/driver/*'],
    message: "Database drivers are the data layer's: ask the Dialect (src/database/dialect/).",
  },
];
const DATABASE_CHECKS = [
  {
    selector: "MemberExpression[property.name='type'][object.property.name='options']",
    message: "Which database it is is the Dialect's to know (src/database/dialect/).",
  },
  {
    selector: 'Literal[value=/^(sqlite|postgres|better-sqlite3)$/]',
    message: "Which database it is is the Dialect's to know (src/database/dialect/).",
  },
];
// Every query is its table's repository's (src/database/repositories/): features call them.
const SQL_TEXT = String.raw`/\b(SELECT|INSERT INTO|DELETE FROM|WITH RECURSIVE|UPDATE \S+ SET)\b/`;
const QUERIES_MESSAGE =
  "Queries are the data layer's: call its repository (src/database/repositories/).";
const QUERIES = [
  { selector: `Literal[value=${SQL_TEXT}]`, message: QUERIES_MESSAGE },
  { selector: `TemplateElement[value.raw=${SQL_TEXT}]`, message: QUERIES_MESSAGE },
  {
    selector:
      'CallExpression[callee.property.name=/^(query|createQueryBuilder|getRepository|transaction)$/]',
    message: QUERIES_MESSAGE,
  },
];
const QUERY_IMPORTS = [
  { group: ['typeorm', 'typeorm/*', '@nestjs/typeorm'], message: QUERIES_MESSAGE },
];
const HTTP_EXCEPTIONS = [
  {
    group: ['@nestjs/common'],
    importNamePattern: 'Exception$',
    message:
      'Throw a domain error from src/common/errors/: AllExceptionsFilter alone maps it to an HTTP status.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'web/dist/',
      '.e2e-dist/',
      'coverage/',
      'data/',
      'node_modules/',
      '**/*.cjs',
      'jest.config.js',
      // Type-checked by its test (openapi-client.e2e-spec.ts), against types generated there.
      'test/fixtures/openapi-client/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] } },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Nest classes are routinely empty (modules) or decorator-only.
      '@typescript-eslint/no-extraneous-class': 'off',
      // A parameter that only carries a decorator (a pipe that checks the query) is named `_x`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    // The data layer, and the configuration that reads DATABASE_URL.
    ignores: ['src/database/**', 'src/config/**', 'src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...DRIVER_IMPORTS, ...QUERY_IMPORTS] }],
      'no-restricted-syntax': ['error', ...DATABASE_CHECKS, ...QUERIES],
    },
  },
  {
    // The domain throws domain errors (src/common/errors/); only the edge speaks HTTP.
    files: [
      'src/**/*.service.ts',
      'src/ingest/plan/**/*.ts',
      'src/ingest/validate/**/*.ts',
      'src/ingest/match/**/*.ts',
      'src/ingest/apply/**/*.ts',
      'src/ingest/formats/**/*.ts',
      'src/ingest/parse/**/*.ts',
      'src/common/errors/**/*.ts',
      'src/common/field-rules/**/*.ts',
      'src/assets/asset-cursor.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...DRIVER_IMPORTS, ...QUERY_IMPORTS, ...HTTP_EXCEPTIONS] },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: {
      // HTTP answers under test are untyped JSON.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Table-driven cases share an async signature whether or not they await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Benchmark and tooling scripts are plain JavaScript run by Node; no type information there.
    files: ['bench/**/*.mjs', 'scripts/**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      parserOptions: { projectService: false, project: false },
      globals: {
        console: 'readonly',
        process: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  {
    files: ['src/database/migrations/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  prettier,
);

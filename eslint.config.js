// ESLint for dial (`npm run lint`). What it holds, besides the usual checks:
// - the layers: src/core imports neither src/ui, src/commands nor Ink, React or Commander, and
//   src/ui does not import src/commands (rule `dial/layers` below; folder cycles are checked by
//   scripts/check-cycles.mjs, which `npm run lint` runs too);
// - src/core does no terminal or process work: no console, no process.exit/argv/stdout/stderr;
// - type-aware checks: no floating promises, exhaustive switches over unions;
// - no function over 120 lines in src/;
// - an eslint-disable comment says why, on its line (`-- reason`).
import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import reactHooks from 'eslint-plugin-react-hooks';

const root = dirname(new URL(import.meta.url).pathname);

/** Which layer a file of src/ is in: core, ui, commands, or undefined (src/cli.ts, src/start.ts and friends). */
function layerOf(file) {
  const path = relative(resolve(root, 'src'), file).split(sep);
  return path.length > 1 && ['core', 'ui', 'commands'].includes(path[0]) ? path[0] : undefined;
}

/** Packages each layer must not import (the UI libraries and the argument parser). */
const forbiddenPackages = {
  core: /^(ink|ink-[\w-]+|react|react-dom|react\/.*|commander)$/,
  ui: /^commander$/,
};
/** Layers each layer must not import: commands → ui → core, never back. */
const forbiddenLayers = { core: ['ui', 'commands'], ui: ['commands'] };

const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'keeps the layers one-way: commands → ui → core' },
    schema: [],
    messages: {
      layer:
        "src/{{from}} must not import src/{{to}} ('{{source}}'): dependencies go commands → ui → core (docs/architecture.md)",
      package:
        "src/{{from}} must not import '{{source}}': core is UI-free and knows no command line (docs/architecture.md)",
    },
  },
  create(context) {
    const from = layerOf(context.filename);
    if (!from || !forbiddenLayers[from]) return {};
    const check = (node, source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const specifier = source.value;
      if (specifier.startsWith('.')) {
        const to = layerOf(resolve(dirname(context.filename), specifier));
        if (to && forbiddenLayers[from].includes(to))
          context.report({ node, messageId: 'layer', data: { from, to, source: specifier } });
      } else if (forbiddenPackages[from]?.test(specifier)) {
        context.report({ node, messageId: 'package', data: { from, source: specifier } });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
    };
  },
};

export default tseslint.config(
  // tests/fixtures holds scripts dial's sandbox runs (their globals are `client`, `request`…).
  {
    ignores: [
      'dist/**',
      'dist.*/**',
      'node_modules/**',
      'coverage/**',
      'bench/**',
      'tests/fixtures/**',
      'tests/compat/cases/**',
    ],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  comments.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: root },
    },
    plugins: { dial: { rules: { layers: layersRule } } },
    rules: {
      'dial/layers': 'error',
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }],
      '@eslint-community/eslint-comments/disable-enable-pair': ['error', { allowWholeFile: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // dial matches terminal escapes (ANSI, OSC 52) on purpose; a control character in a regex is the job here.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'tests/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // Tests cast server internals and raw sockets to reach what the public types hide.
    files: ['tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs', 'bin/**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Scripts and config files run on Node without a TypeScript project.
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
      },
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  {
    // The core does no terminal or process work: commands print and choose exit codes.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...['exit', 'exitCode', 'argv', 'stdout', 'stderr', 'stdin', 'chdir'].map((property) => ({
          object: 'process',
          property,
          message:
            'src/core does no process or terminal work: take a writer or an option from the command (docs/architecture.md)',
        })),
      ],
      // The environment and the current folder are read only as defaults a caller can override
      // (`env = process.env`, `options.cwd ?? process.cwd()`), so tests and front ends pass their own.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.name='process'][property.name='env']:not(AssignmentPattern > MemberExpression, LogicalExpression[operator='??'] > MemberExpression.right)",
          message: 'src/core reads process.env only as an overridable default: take the environment as an option',
        },
        {
          selector:
            "CallExpression[callee.object.name='process'][callee.property.name='cwd']:not(AssignmentPattern > CallExpression, LogicalExpression[operator='??'] > CallExpression.right)",
          message: 'src/core reads the current folder only as an overridable default: take `cwd` as an option',
        },
      ],
    },
  },
);

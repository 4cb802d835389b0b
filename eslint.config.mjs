// Lint: typescript-eslint's recommended rules, and the dependency rule of ARCHITECTURE.md (imports point inward),
// one `no-restricted-imports` block per layer so a wrong import fails `npx eslint --max-warnings 0 .`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';

const layers = ['model', 'kustomize', 'analysis', 'rules', 'engine', 'features', 'project', 'workspace', 'lsp', 'cli'];
const nodeBuiltins = builtinModules.filter((m) => !m.startsWith('_'));

/** Node's globals, for the plain-JavaScript build and test scripts. */
const nodeGlobals = Object.fromEntries(
  [...Object.getOwnPropertyNames(globalThis), '__dirname', '__filename', 'require', 'module', 'exports']
    .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))
    .map((name) => [name, 'readonly']),
);

/** A relative import that reaches into one of the given sibling folders of server/src (or protocol.ts). */
function sibling(names) {
  return `^(\\.\\./)+(${names.join('|')})(/|$)`;
}

/** Patterns for a server layer that may import only `allowed` layers, plus `external` bare modules. */
function layer(allowed, { external = null, builtins = false, protocol = false } = {}) {
  const forbidden = layers.filter((l) => !allowed.includes(l));
  const patterns = [{ regex: sibling(forbidden), message: 'ARCHITECTURE.md dependency rule: this layer may not import that one.' }];
  if (!protocol) {
    // The trace graph is data shared with the client and the webview: inner layers may name its types, nothing more.
    patterns.push({
      regex: sibling(['protocol']),
      allowTypeImports: true,
      message: 'ARCHITECTURE.md dependency rule: inner layers use only types from protocol.ts (`import type`).',
    });
  }
  if (external !== null) {
    const allowedBare = [...external, ...(builtins ? nodeBuiltins.flatMap((m) => [m, `node:${m}`]) : [])];
    const escaped = allowedBare.map((m) => m.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    patterns.push({
      regex: `^(?!\\.)(?!(${escaped.join('|')})(/|$))`,
      message: `ARCHITECTURE.md dependency rule: this layer imports only ${external.length ? external.join(', ') : 'its inner layers'}${builtins ? ' and Node built-ins' : ''}.`,
    });
  }
  return patterns;
}

function restrict(files, patterns) {
  return {
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
  };
}

const noVscode = {
  group: ['vscode', 'vscode-*', '@vscode/*'],
  message: 'ARCHITECTURE.md: only client/ (vscode) and server/src/lsp (vscode-languageserver) import VS Code packages.',
};
const serverInternals = {
  regex: '(^|/)server/src/(?!protocol$)',
  message: 'ARCHITECTURE.md: the client and the webview use protocol.ts only, never server internals.',
};

/** What git ignores, ESLint ignores too (build output, installs, scratch folders), plus the YAML-only fixtures. */
function ignoredByGit() {
  const lines = existsSync('.gitignore') ? readFileSync('.gitignore', 'utf8').split('\n') : [];
  return lines
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('!'))
    .map((l) => {
      const anchored = l.startsWith('/') || l.replace(/\/$/, '').includes('/');
      const body = l.replace(/^\//, '').replace(/\/$/, '');
      const glob = anchored ? body : `**/${body}`;
      return l.endsWith('/') ? `${glob}/**` : glob;
    });
}

export default tseslint.config(
  {
    ignores: [...ignoredByGit(), '**/node_modules/**', 'test/fixtures/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // model → yaml
  restrict(['server/src/model/**/*.ts'], layer(['model'], { external: ['yaml'] })),
  // kustomize → model, yaml (a pure renderer: no fs, no path, no Node built-ins)
  restrict(['server/src/kustomize/**/*.ts'], layer(['model', 'kustomize'], { external: ['yaml'] })),
  // analysis → model
  restrict(['server/src/analysis/**/*.ts'], layer(['model', 'analysis'], { external: [] })),
  // rules → model, analysis
  restrict(['server/src/rules/**/*.ts'], layer(['model', 'analysis', 'rules'], { external: [] })),
  // features → model, analysis, rules, protocol (types only)
  restrict(['server/src/engine/**/*.ts'], layer(['model', 'analysis', 'rules', 'engine'], { external: [] })),
  restrict(['server/src/features/**/*.ts'], layer(['model', 'kustomize', 'analysis', 'rules', 'engine', 'features'], { external: [] })),
  // project → every pure layer (the source map of a snapshot: findings, places, the trace, hovers on renders)
  restrict(['server/src/project/**/*.ts'], layer(['model', 'kustomize', 'analysis', 'rules', 'engine', 'features', 'project'], { external: [] })),
  // workspace → model, analysis (it owns the file reading, so Node built-ins are allowed)
  restrict(['server/src/workspace/**/*.ts'], layer(['model', 'kustomize', 'analysis', 'workspace'], { external: [], builtins: true })),
  // lsp → workspace, features, project, protocol, vscode-languageserver*
  restrict(
    ['server/src/lsp/**/*.ts'],
    layer(['workspace', 'features', 'project', 'lsp'], {
      external: ['vscode-languageserver', 'vscode-languageserver-textdocument', 'vscode-languageserver-protocol', 'vscode-uri'],
      builtins: true,
      protocol: true,
    }),
  ),
  // cli → workspace, features, project, model, node built-ins
  restrict(['server/src/cli/**/*.ts'], layer(['workspace', 'features', 'project', 'model', 'kustomize', 'cli'], { external: [], builtins: true })),
  // l10n → nothing but its bundles (every layer may import it)
  restrict(['server/src/l10n/**/*.ts'], layer([], { external: [] })),
  // protocol.ts is shared with the client and the webview: it imports nothing.
  restrict(['server/src/protocol.ts'], [{ regex: '.*', message: 'protocol.ts is types and names only; it imports nothing.' }]),
  // client → vscode, vscode-languageclient, protocol (types only); never server internals
  restrict(
    ['client/src/**/*.ts'],
    [
      serverInternals,
      {
        group: ['vscode-languageserver', 'vscode-languageserver/*', 'vscode-languageserver-textdocument'],
        message: 'The client talks to the server over LSP only (vscode-languageclient).',
      },
      { group: ['yaml', 'elkjs', 'elkjs/*'], message: 'The client hosts the view; parsing and layout happen in the server and the webview.' },
    ],
  ),
  // webview → protocol (types only); never vscode, never node
  restrict(
    ['client/webview/**/*.ts'],
    [
      serverInternals,
      noVscode,
      { regex: sibling(['src']), message: 'The webview is browser code: it never imports the extension host side.' },
      { regex: '(^|/)server/src/protocol$', allowTypeImports: true, message: 'The webview imports only types from protocol.ts; data arrives by postMessage.' },
      { regex: `^(node:.*|(${nodeBuiltins.join('|')})(/.*)?)$`, message: 'The webview runs in a browser: no Node built-ins.' },
    ],
  ),
);

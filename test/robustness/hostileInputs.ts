// Every class of hostile or broken input the server must survive, generated in memory (big ones are never committed),
// each with the outcome docs/robustness.md promises: a silent skip, a clear diagnostic, or a normal analysis.

export type Outcome =
  | { readonly kind: 'skipped'; readonly reason: 'template' | 'too-deep' | 'binary'; readonly diagnostic: boolean }
  | { readonly kind: 'syntax-error' }
  | { readonly kind: 'analysed'; readonly minResources: number }
  | { readonly kind: 'not-a-manifest' };

export interface HostileInput {
  readonly name: string;
  /** A file name safe on every disk; the server test writes it into the workspace folder. */
  readonly file: string;
  readonly text: string;
  readonly outcome: Outcome;
}

const cm = (name: string, extra = '') => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${extra}`;

/** `- - - … b`, `[[[…]]]` and their relatives: the shapes that make the YAML parser exhaust the stack. */
export function deepShapes(n: number): { name: string; text: string }[] {
  const lines = (f: (i: number) => string, sep = '\n') => Array.from({ length: n }, (_, i) => f(i)).join(sep) + sep;
  return [
    { name: 'block sequences on one line', text: '- '.repeat(n) + 'b\n' },
    { name: 'block sequences one per line', text: lines((i) => ' '.repeat(i) + '-') },
    { name: 'block mappings indented by one space', text: lines((i) => ' '.repeat(i) + 'a:') },
    { name: 'flow sequences', text: 'a: ' + '['.repeat(n) + ']'.repeat(n) + '\n' },
    { name: 'flow mappings', text: 'a: ' + '{a: '.repeat(n) + 'b' + '}'.repeat(n) + '\n' },
    { name: 'mixed block and flow', text: '- '.repeat(n / 2) + '[' + '{a: ['.repeat(n / 4) + 'x\n' },
    { name: 'explicit keys', text: '? '.repeat(n) + 'b\n' },
    { name: 'sequence dashes separated by tabs', text: '-\t'.repeat(n) + 'b\n' },
    { name: 'CRLF line ends', text: lines((i) => ' '.repeat(i) + '-', '\r\n') },
    { name: 'after a quoted string ending in an escaped backslash', text: 'a: ["x\\\\", ' + '['.repeat(n) + ']'.repeat(n) + ']\n' },
    { name: 'after an apostrophe inside a plain word', text: "a: [don't, " + '['.repeat(n) + ']'.repeat(n) + ']\n' },
    { name: 'after a comment holding a quote', text: 'a: [ # "\n' + '['.repeat(n) + ']'.repeat(n) + ']\n' },
    { name: 'inside a Kubernetes object', text: cm('deep', 'data:\n  x: ' + '['.repeat(n) + ']'.repeat(n) + '\n') },
    { name: 'in the second document', text: cm('first') + '---\n' + '- '.repeat(n) + 'b\n' },
  ];
}

function billionLaughs(): string {
  let t = cm('laughs', 'data:\n  a0: &a0 "lol"\n');
  for (let i = 1; i <= 9; i++)
    t += `  a${i}: &a${i} [${Array(9)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  return t;
}

function manyAliases(n: number): string {
  let t = cm('aliases', '  labels: &l {app: x}\n  annotations:\n');
  for (let i = 0; i < n; i++) t += `    k${i}: *l\n`;
  return t;
}

function manyDocuments(n: number): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++) docs.push(cm(`cm-${i}`));
  return docs.join('---\n');
}

function hugeMapping(n: number): string {
  let t = cm('huge', 'data:\n');
  for (let i = 0; i < n; i++) t += `  key${i % (n / 2)}: v\n`; // half the keys are duplicates
  return t;
}

export function hostileInputs(): HostileInput[] {
  const deep = deepShapes(1000).map((s, i): HostileInput => ({
    name: `deep nesting: ${s.name}`,
    file: `deep-${i}.yaml`,
    text: s.text,
    outcome: { kind: 'skipped', reason: 'too-deep', diagnostic: true },
  }));
  const svc = (name: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector:\n    app: ${name}\n  ports:\n  - port: 80\n`;
  return [
    ...deep,
    { name: 'billion laughs (refused: aliases expand past the budget)', file: 'laughs.yaml', text: billionLaughs(), outcome: { kind: 'syntax-error' } },
    { name: '5,000 aliases of one anchor', file: 'aliases.yaml', text: manyAliases(5000), outcome: { kind: 'analysed', minResources: 1 } },
    {
      name: 'circular alias',
      file: 'cycle.yaml',
      text: cm('cycle', '  labels: &l\n    app: x\n    self: *l\n') + 'data: &d {a: *d}\n',
      outcome: { kind: 'analysed', minResources: 1 },
    },
    {
      name: 'circular merge keys',
      file: 'merge.yaml',
      text: cm('merge', '  labels: &l\n    <<: *l\n    app: x\n'),
      outcome: { kind: 'analysed', minResources: 1 },
    },
    { name: 'unresolved alias', file: 'unresolved.yaml', text: cm('unresolved', '  labels: *nowhere\n'), outcome: { kind: 'syntax-error' } },
    { name: '10,000 documents', file: 'many-docs.yaml', text: manyDocuments(10000), outcome: { kind: 'analysed', minResources: 10000 } },
    { name: 'mapping with 20,000 keys, half duplicates', file: 'huge-map.yaml', text: hugeMapping(20000), outcome: { kind: 'analysed', minResources: 1 } },
    ...['', '\n', '---', '...', '---\n---\n', '~', 'null', '- ', ':', '[', '{', '"', '&', '*', '!', '%YAML 9.9\n---\n', '\uFEFF'].map(
      (text, i): HostileInput => ({
        name: `degenerate ${JSON.stringify(text)}`,
        file: `degenerate-${i}.yaml`,
        text,
        outcome: text === '[' || text === '{' || text === '"' || text === '*' || text === '&' ? { kind: 'syntax-error' } : { kind: 'not-a-manifest' },
      }),
    ),
    {
      name: 'PNG image renamed .yaml',
      file: 'image.yaml',
      text: '\u0089PNG\r\n\u001a\n\u0000\u0000\u0000\rIHDR\u0000\u0000',
      outcome: { kind: 'skipped', reason: 'binary', diagnostic: false },
    },
    {
      name: 'UTF-16 text',
      file: 'utf16.yaml',
      text: Buffer.from('\uFEFFkind: ConfigMap\n', 'utf16le').toString('latin1'),
      outcome: { kind: 'skipped', reason: 'binary', diagnostic: false },
    },
    {
      name: 'binary garbage without NULs',
      file: 'garbage.yaml',
      text: Array.from({ length: 4096 }, (_, i) => String.fromCharCode(1 + ((i * 7919) % 0xd7ff))).join(''),
      outcome: { kind: 'not-a-manifest' },
    },
    {
      name: 'Helm template',
      file: 'helm.yaml',
      text: 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n{{- if .Values.x }}\nspec: {{ toYaml .Values.spec | nindent 2 }}\n{{- end }}\n',
      outcome: { kind: 'skipped', reason: 'template', diagnostic: false },
    },
    {
      name: 'git conflict markers',
      file: 'conflict.yaml',
      text: cm('conflict', '<<<<<<< HEAD\n  labels: {a: b}\n=======\n  labels: {a: c}\n>>>>>>> branch\n'),
      outcome: { kind: 'syntax-error' },
    },
    {
      name: 'GitHub workflow',
      file: 'workflow.yaml',
      text: 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n    - uses: actions/checkout@v4\n',
      outcome: { kind: 'not-a-manifest' },
    },
    { name: 'compose file', file: 'compose.yaml', text: 'services:\n  web:\n    image: nginx\n    ports: ["80:80"]\n', outcome: { kind: 'not-a-manifest' } },
    {
      name: 'lock file',
      file: 'pnpm-lock.yaml',
      text: "lockfileVersion: '9.0'\npackages:\n  yaml@2.9.1:\n    resolution: {integrity: sha512-x}\n",
      outcome: { kind: 'not-a-manifest' },
    },
    {
      name: 'one broken document among good ones',
      file: 'mixed-docs.yaml',
      text: svc('good-a') + '---\nkind: [ConfigMap\n---\n' + svc('good-b'),
      outcome: { kind: 'syntax-error' },
    },
    { name: 'BOM and CRLF', file: 'bom-crlf.yaml', text: '\uFEFF' + svc('bom').replace(/\n/g, '\r\n'), outcome: { kind: 'analysed', minResources: 1 } },
    {
      name: 'bidi overrides and zero-width characters in names',
      file: 'bidi.yaml',
      text: svc('"web\u202Egnp.exe\u200B\u2066x"'),
      outcome: { kind: 'analysed', minResources: 1 },
    },
    { name: 'tabs for indentation', file: 'tabs.yaml', text: 'apiVersion: v1\nkind: Service\nmetadata:\n\tname: tabs\n', outcome: { kind: 'syntax-error' } },
    { name: 'bad escape', file: 'escape.yaml', text: cm('"bad\\qescape"'), outcome: { kind: 'syntax-error' } },
    {
      name: '2,000-character key',
      file: 'long-key.yaml',
      text: cm('long-key', `data:\n  ${'k'.repeat(2000)}: v\n`),
      outcome: { kind: 'analysed', minResources: 1 },
    },
    {
      name: 'wrong types in every field',
      file: 'wrong-types.yaml',
      text: 'apiVersion: v1\nkind: Service\nmetadata: []\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: 1.10\n  labels: [a]\nspec:\n  selector: "x"\n  ports: [{port: "eighty", targetPort: [], name: 7}, 5, null]\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1e400\n  selector: {matchLabels: []}\n  template: {metadata: {labels: 5}, spec: {containers: {a: b}}}\n',
      outcome: { kind: 'analysed', minResources: 1 },
    },
    {
      name: '__proto__ and constructor keys in labels and selectors',
      file: 'proto.yaml',
      text: `apiVersion: v1\nkind: Service\nmetadata:\n  name: proto\n  labels: {__proto__: {polluted: yes}, constructor: x}\nspec:\n  selector:\n    __proto__: x\n    constructor: y\n    toString: z\n  ports:\n  - port: 80\n`,
      outcome: { kind: 'analysed', minResources: 1 },
    },
    {
      name: 'custom and unsafe tags',
      file: 'tags.yaml',
      text: cm(
        'tags',
        'data:\n  f: !!js/function "function () { globalThis.pwned = true }"\n  p: !!python/object:os.system ["touch /tmp/pwned"]\n  c: !custom {a: b}\n',
      ),
      outcome: { kind: 'analysed', minResources: 1 },
    },
    {
      name: 'one 2 MB line',
      file: 'long-line.yaml',
      text: cm('long-line', `data:\n  x: ${'a'.repeat(2 * 1024 * 1024)}\n`),
      outcome: { kind: 'analysed', minResources: 1 },
    },
    {
      name: 'regex-hostile strings in DNS and selector fields',
      file: 'regex.yaml',
      text: `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${'a-'.repeat(30000)}!\nspec:\n  selector: {app: "${'a.'.repeat(30000)}!"}\n  externalName: ${'a.'.repeat(30000)}.svc.cluster.local.!\n  ports: [{port: 80, targetPort: "${'a-'.repeat(20000)}"}]\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: env}\ndata:\n  URL: http://${'a.'.repeat(30000)}svc:80/${'%'.repeat(30000)}\n`,
      outcome: { kind: 'analysed', minResources: 2 },
    },
    {
      name: 'diagnostic flood',
      file: 'flood.yaml',
      text: Array.from({ length: 600 }, (_, i) => `${svc(`flood-${i}`)}    protocol: tcp\n`).join('---\n'),
      outcome: { kind: 'analysed', minResources: 600 },
    },
    {
      name: 'syntax-error flood',
      file: 'error-flood.yaml',
      text: Array.from({ length: 20000 }, (_, i) => `k${i}: "\\q"\n`).join(''),
      outcome: { kind: 'syntax-error' },
    },
  ];
}

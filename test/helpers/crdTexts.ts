// CustomResourceDefinition texts shaped like controller-gen's output (written for the tests, no third-party text):
// deep openAPIV3Schema properties whose descriptions are long texts wrapped as go-yaml wraps them (multi-line plain
// scalars continued two columns right of their key, single-quoted ones when the text holds `: ` or starts with a quote,
// `|-` blocks for texts of several paragraphs, `|2-` for one starting with an empty line), `pattern: ^…$` regular
// expressions, enums, `anyOf` items and `x-kubernetes-*` flags.

const words = [
  'the',
  'name',
  'of',
  'resource',
  'defines',
  'configuration',
  'for',
  'dataset',
  'initialization',
  'and',
  'pre-processing.',
  'If',
  'unset,',
  'defaults',
  'to',
  '"1".',
  'e.g.',
  '(case-sensitive)',
  'more',
  'https://kubernetes.io/docs/concepts/overview/working-with-objects/names',
  '`kubectl apply`',
  "it's",
  '[optional]',
  'x-y.z',
  '50%',
  'a#b',
  '*',
  '&',
  '{key}',
  '<none>',
  '100m',
  'spec.containers[*].ports',
  'ünïcode',
  'non\u00a0breaking',
  'pod-template-hash',
  '1.25',
  'true',
  'null',
];

/** A deterministic random number source (the same text for the same seed). */
function random(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    return ((state >>> 8) & 0xffff) / 0x10000;
  };
}

/** A controller-gen-like CRD of about `properties` schema properties. */
export function controllerGenCrd(seed: number, properties: number): string {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const sentence = (n: number) => Array.from({ length: n }, () => pick(words)).join(' ');
  const out: string[] = [];
  // lines of at most 80 columns, broken at spaces as go-yaml breaks long scalars
  const wrap = (text: string, first: number, width = 80): string[] => {
    const lines: string[] = [];
    let line = '';
    let room = width - first;
    for (const w of text.split(' ')) {
      if (line && line.length + 1 + w.length > room) {
        lines.push(line);
        line = w;
        room = width;
      } else line = line ? `${line} ${w}` : w;
    }
    lines.push(line);
    return lines;
  };
  const description = (pad: string) => {
    const r = rnd();
    if (r < 0.2) {
      // several paragraphs: a literal block
      out.push(`${pad}description: |-`);
      const paragraphs = 1 + Math.floor(rnd() * 3);
      for (let i = 0; i < paragraphs; i++) {
        if (i) out.push('');
        for (const l of wrap(sentence(5 + Math.floor(rnd() * 30)), pad.length + 2)) out.push(`${pad}  ${l}`);
      }
    } else if (r < 0.25) {
      // a text starting with empty lines: an indentation indicator
      out.push(`${pad}description: |2-`, '', '');
      out.push(`${pad}  Valid Options: ${sentence(6)}`);
    } else if (r < 0.4) {
      // a text holding `: ` is written in single quotes, wrapped the same way
      const text = `'${`${sentence(3)}: ${sentence(10 + Math.floor(rnd() * 20))}`.replace(/'/g, "''")}'`;
      const lines = wrap(text, pad.length + 13);
      out.push(`${pad}description: ${lines[0]}`);
      for (const l of lines.slice(1)) out.push(`${pad}  ${l}`);
    } else {
      // a plain text; go-yaml quotes one that starts with a quote or holds ` #`, which these words never make
      let text = `${pick(['Name', 'Dataset', 'Defines', 'Resources'])} ${sentence(3 + Math.floor(rnd() * 40))}`;
      if (text.includes(' #')) text = text.replace(/ #/g, ' no.');
      const lines = wrap(text, pad.length + 13);
      out.push(`${pad}description: ${lines[0]}`);
      for (const l of lines.slice(1)) out.push(`${pad}  ${l}`);
    }
  };
  let left = properties;
  const schema = (pad: string, depth: number) => {
    description(pad);
    if (depth >= 6 || left <= 0 || rnd() < 0.3) {
      left--;
      const kind = pick(['string', 'integer', 'boolean', 'quantity', 'enum', 'pattern', 'array']);
      if (kind === 'quantity') {
        out.push(`${pad}anyOf:`, `${pad}- type: integer`, `${pad}- type: string`);
        out.push(`${pad}pattern: ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$`);
        out.push(`${pad}x-kubernetes-int-or-string: true`);
      } else if (kind === 'enum') {
        out.push(`${pad}enum:`, `${pad}- Always`, `${pad}- Never`, `${pad}- IfNotPresent`, `${pad}type: string`);
      } else if (kind === 'pattern') {
        // istio's generator writes a long pattern on the line below its key
        if (rnd() < 0.5) out.push(`${pad}pattern: ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`);
        else out.push(`${pad}pattern: `, `${pad}  ^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`);
        out.push(`${pad}maxLength: 253`, `${pad}type: string`);
      } else if (kind === 'array') {
        out.push(`${pad}items:`, `${pad}  type: string`, `${pad}type: array`, `${pad}x-kubernetes-list-type: atomic`);
      } else {
        if (kind === 'integer') out.push(`${pad}format: int32`, `${pad}default: ${Math.floor(rnd() * 100)}`);
        out.push(`${pad}type: ${kind}`);
      }
      return;
    }
    out.push(`${pad}properties:`);
    const names = new Set<string>();
    const count = 1 + Math.floor(rnd() * 5);
    while (names.size < count) names.add(`${pick(['spec', 'name', 'dataset', 'template', 'resources', 'limits', 'port', 'selector', 'volume'])}${names.size}`);
    for (const n of names) {
      out.push(`${pad}  ${n}:`);
      schema(`${pad}    `, depth + 1);
    }
    if (rnd() < 0.4) out.push(`${pad}required:`, `${pad}- ${[...names][0]}`);
    out.push(`${pad}type: object`);
  };
  out.push(
    '---',
    'apiVersion: apiextensions.k8s.io/v1',
    'kind: CustomResourceDefinition',
    'metadata:',
    '  annotations:',
    '    controller-gen.kubebuilder.io/version: v0.16.1',
    '    "helm.sh/resource-policy": keep',
    `  name: things${seed}.example.com`,
    'spec:',
    '  group: example.com',
    '  names:',
    '    kind: Thing',
    '    listKind: ThingList',
    '    plural: things',
    '    singular: thing',
    '  scope: Namespaced',
    '  versions:',
    '  - additionalPrinterColumns:',
    '    - jsonPath: .status.conditions[?(@.type=="Ready")].status',
    '      name: Ready',
    '      type: string',
    '    name: v1',
    '    schema:',
    '      openAPIV3Schema:',
  );
  // the schema's top: an object with as many properties as it takes
  description('        ');
  out.push('        properties:');
  for (let i = 0; left > 0; i++) {
    out.push(`          field${i}:`);
    schema('            ', 1);
  }
  out.push('        type: object');
  out.push('    served: true', '    storage: true', '    subresources:', '      status: {}');
  return `${out.join('\n')}\n`;
}

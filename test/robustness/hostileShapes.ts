// Generated hostile inputs of the second round (issue 17): alias graphs in every collection style, many copies of one
// object, very long and many near-identical names, duplicate keys, hostile globs. Sizes are bounded (at most a few
// hundred kilobytes) and nothing is committed.

/** The collection styles an alias graph can be written in. */
export type AliasStyle = 'list-block' | 'list-flow' | 'nested-list' | 'block-seq' | 'block-map' | 'flow-seq' | 'flow-map' | 'merge';
export const aliasStyles: readonly AliasStyle[] = ['list-block', 'list-flow', 'nested-list', 'block-seq', 'block-map', 'flow-seq', 'flow-map', 'merge'];

/**
 * `levels` anchors, each referring `fanOut` times to the one before: the document expands to fanOut^levels nodes while
 * the text stays a few hundred bytes.
 */
export function aliasGraph(style: AliasStyle, levels: number, fanOut: number): string {
  const refs = (i: number, sep: string) => Array.from({ length: fanOut }, () => `*a${i - 1}`).join(sep);
  const svc = '{apiVersion: v1, kind: Service, metadata: {name: x}, spec: {selector: {app: x}, ports: [{port: 80}]}}';
  let t = '';
  switch (style) {
    case 'list-block':
      t = `apiVersion: v1\nkind: List\nitems:\n- &a0 ${svc}\n`;
      for (let i = 1; i < levels; i++)
        t += `- &a${i}\n  apiVersion: v1\n  kind: List\n  items:\n${Array.from({ length: fanOut }, () => `  - *a${i - 1}\n`).join('')}`;
      return t;
    case 'list-flow':
      t = `apiVersion: v1\nkind: List\nitems:\n- &a0 ${svc}\n`;
      for (let i = 1; i < levels; i++) t += `- &a${i} {apiVersion: v1, kind: List, items: [${refs(i, ', ')}]}\n`;
      return t;
    case 'nested-list': {
      // Lists inside Lists inside Lists, each holding the previous one several times
      t = `x0: &a0 ${svc}\n`;
      for (let i = 1; i < levels; i++) t += `x${i}: &a${i} {apiVersion: v1, kind: ServiceList, items: [${refs(i, ', ')}]}\n`;
      return `apiVersion: v1\nkind: List\nmetadata:\n  anchors:\n${t.replace(/^/gm, '    ').trimEnd()}\nitems: [*a${levels - 1}]\n`;
    }
    case 'block-seq':
      t = '  a0: &a0 [x, y]\n';
      for (let i = 1; i < levels; i++) t += `  a${i}: &a${i}\n${Array.from({ length: fanOut }, () => `    - *a${i - 1}\n`).join('')}`;
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: seq}\ndata:\n${t}`;
    case 'block-map':
      t = '  a0: &a0 {k: v}\n';
      for (let i = 1; i < levels; i++) t += `  a${i}: &a${i}\n${Array.from({ length: fanOut }, (_, k) => `    k${k}: *a${i - 1}\n`).join('')}`;
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: map}\ndata:\n${t}`;
    case 'flow-seq':
      t = '  a0: &a0 [x]\n';
      for (let i = 1; i < levels; i++) t += `  a${i}: &a${i} [${refs(i, ',')}]\n`;
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fseq}\ndata:\n${t}`;
    case 'flow-map':
      t = '  a0: &a0 {k: v}\n';
      for (let i = 1; i < levels; i++) t += `  a${i}: &a${i} {${Array.from({ length: fanOut }, (_, k) => `k${k}: *a${i - 1}`).join(', ')}}\n`;
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fmap}\ndata:\n${t}`;
    case 'merge':
      // every map merges the previous one: copying entries is quadratic in the chain length
      t = '  m0: &a0 {k0: 0}\n';
      for (let i = 1; i < Math.min(levels ** 4, 3000); i++) t += `  m${i}: &a${i} {<<: *a${i - 1}, k${i}: ${i}}\n`;
      return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: merge}\ndata:\n${t}`;
  }
}

/** `n` copies of one Service in one file (the shape that was quadratic in copies). */
export function manyCopies(n: number): string {
  const one = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: copy\nspec:\n  selector: {app: copy}\n  ports: [{port: 80, targetPort: http}]\n';
  return Array.from({ length: n }, () => one).join('---\n');
}

/** A Service with a name of `length` characters, and references to near misses of it (suggestions compare them). */
export function longNames(length: number): string {
  const name = 'a'.repeat(length);
  const near = `${'a'.repeat(length >> 1)}b${'a'.repeat(length - (length >> 1) - 1)}`;
  return (
    `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec: {clusterIP: None, selector: {app: db}, ports: [{port: 80}]}\n---\n` +
    `apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: ${near}\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: c, env: [{name: U, value: "http://${near}:80"}]}]}\n---\n` +
    `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ing}\nspec:\n  rules:\n  - http:\n      paths:\n      - {path: /, pathType: Prefix, backend: {service: {name: ${near}, port: {number: 80}}}}\n`
  );
}

/** `n` Services with names one edit apart, and `refs` references to names that are none of them (each asks for a suggestion). */
export function nearIdenticalNames(n: number, refs: number): string {
  const docs: string[] = [];
  for (let i = 0; i < n; i++)
    docs.push(`apiVersion: v1\nkind: Service\nmetadata: {name: web-${String(i).padStart(5, '0')}}\nspec: {selector: {app: web}, ports: [{port: 80}]}\n`);
  const paths = Array.from(
    { length: refs },
    (_, i) => `      - {path: /p${i}, pathType: Prefix, backend: {service: {name: web-${String(i).padStart(5, '0')}x, port: {number: 80}}}}`,
  ).join('\n');
  docs.push(`apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ing}\nspec:\n  rules:\n  - http:\n      paths:\n${paths}\n`);
  return docs.join('---\n');
}

/** A mapping key written twice: the name, and a selector key. */
export const duplicateKeys =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: first\n  name: second\nspec:\n  selector:\n    app: one\n    app: two\n  ports: [{port: 80}]\n';

/** Glob patterns that make a backtracking matcher run for minutes, and invalid ones. */
export const hostileGlobs = {
  include: ['**/*.yaml', `${'**/'.repeat(60)}${'*a'.repeat(40)}b.yaml`, `${'a/'.repeat(300)}**/*.yaml`, 'deploy/{a,b'],
  exclude: ['**/node_modules/**', `${'*'.repeat(200)}x`, `{${Array.from({ length: 10 }, (_, i) => `{a${i},b${i}}`).join('')}}`],
};

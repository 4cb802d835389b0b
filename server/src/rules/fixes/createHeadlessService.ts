// The quick fix that creates a missing headless Service for a workload's pods (StatefulSet serviceName, pod subdomain).

import type { Workload } from '../../model/resources';
import type { TextEdit } from '../finding';
import { lineEndOf, lineStartOf } from '../insertMapEntry';
import { yamlScalar } from '../yamlScalar';

/**
 * A new YAML document right after the workload's: a headless Service selecting its pods by the workload's
 * matchLabels (falling back to the pod template's labels), with one port per named or numbered container port.
 * Used for a StatefulSet's missing governing Service and for a pod's missing subdomain Service.
 */
export function createHeadlessService(sts: Workload, name: string, text: string): TextEdit | undefined {
  const root = sts.span;
  // Objects inside a `kind: List` are not documents of their own; a new document cannot go next to them.
  if (root.start !== lineStartOf(text, root.start)) return undefined;
  const labels = sts.selector?.matchLabels.size ? sts.selector.matchLabels : sts.template.labels;
  if (!labels.size) return undefined;
  const lines = ['---', 'apiVersion: v1', 'kind: Service', 'metadata:', `  name: ${yamlScalar(name)}`];
  if (sts.namespaceExplicit) lines.push(`  namespace: ${yamlScalar(sts.namespace)}`);
  lines.push('spec:', '  clusterIP: None', '  selector:');
  for (const [k, v] of labels) lines.push(`    ${yamlScalar(k)}: ${yamlScalar(v)}`);
  const ports = sts.template.containers.flatMap((c) => c.ports).filter((p) => p.containerPort !== undefined);
  const seen = new Set<string>();
  const portLines: string[] = [];
  for (const p of ports) {
    const portName = p.name ?? (ports.length > 1 ? `${p.protocol.toLowerCase()}-${p.containerPort}` : undefined);
    const key = `${p.containerPort}/${p.protocol}`;
    if (seen.has(key) || (portName && seen.has(portName))) continue;
    seen.add(key);
    if (portName) seen.add(portName);
    const fields = [
      ...(portName ? [`name: ${yamlScalar(portName)}`] : []),
      `port: ${p.containerPort}`,
      ...(p.protocol !== 'TCP' ? [`protocol: ${p.protocol}`] : []),
    ];
    portLines.push(...fields.map((f, i) => `${i === 0 ? '    - ' : '      '}${f}`));
  }
  if (portLines.length) lines.push('  ports:', ...portLines);
  const eol = lineEndOf(text);
  const block = lines.join(eol) + eol;
  let offset = root.end;
  if (text[offset - 1] !== '\n') {
    const nl = text.indexOf('\n', offset);
    offset = nl < 0 ? text.length : nl + 1;
  }
  const newText = offset === text.length && text.length && !text.endsWith('\n') ? `${eol}${block}` : block;
  return { uri: sts.uri, span: { start: offset, end: offset }, newText };
}

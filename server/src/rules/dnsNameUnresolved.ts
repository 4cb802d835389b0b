// dns-name-unresolved: a cluster DNS name written in a container's env/command/args or in ConfigMap data that no
// record answers from that namespace, or whose port the Service does not have (semantics §2, §3.2, §3.3).

import { findClusterNames, type WrittenName } from '../analysis/clusterNames';
import { zoneOf } from '../analysis/dnsRecords';
import type { ResourceBase, TextValue } from '../model/resources';
import type { Span } from '../model/span';
import type { FindingDraft } from './finding';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const dnsNameUnresolved = defineRule({
  code: 'dns-name-unresolved',
  subjects: ['workloads', 'configMaps'],
  defaultSeverity: 'warning',
  title: 'A cluster DNS name that nothing answers, or a port its Service lacks',
  description:
    'Looks at names containing `.svc` in container env values, command and args, and ConfigMap data, and resolves each one the way the pod\'s resolver does: ' +
    'the search list `<ns>.svc.<zone> svc.<zone> <zone>` with ndots 5 (network-semantics §3.2, §3.3), then CoreDNS\'s records (§2). ' +
    'It warns when no Service, namespace or per-pod record answers (a typo in the Service or namespace, a StatefulSet pod name whose Service is not its governing headless Service, ' +
    'an ExternalName with an IP), or when the name carries a `:port` the Service does not expose. Names outside the cluster domain are left alone.\n\n' +
    'Stays quiet when the answer is unknown (network-semantics §9): a namespace no manifest in scope declares or populates (created by another repository or `kubectl create namespace`), ' +
    'unless its name is one typo away from a namespace that is described; a Service that an operator may create (a custom resource in that namespace) or that is written without a namespace ' +
    '(so it lands wherever it is applied); a headless Service whose pods an operator makes; a value holding a placeholder (`${VAR}`, `{{ }}`). ' +
    'A Service the API server rejects is reported as such: it never exists, so nothing answers its name.',
  examples: {
    bad: `apiVersion: v1
kind: Service
metadata: {name: mysql, namespace: db}
spec: {selector: {app: mysql}, ports: [{port: 3306}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app, namespace: db}
data:
  DATABASE_URL: mysql://app@mysqll.db.svc.cluster.local:3306/app`,
    good: `apiVersion: v1
kind: Service
metadata: {name: mysql, namespace: db}
spec: {selector: {app: mysql}, ports: [{port: 3306}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app, namespace: db}
data:
  DATABASE_URL: mysql://app@mysql.db.svc.cluster.local:3306/app`,
  },
  *check({ subjects, lookup, config }) {
    const zone = zoneOf(config);
    for (const w of subjects.workloads) {
      for (const c of w.template.containers) {
        for (const list of [c.env, c.command, c.args]) {
          for (const v of list) if (namesIn(v, zone).length) yield* checkValue(lookup, w, v, `${v.where} of container "${c.name}"`, zone, lookup.fileText(w.uri));
        }
      }
    }
    for (const cm of subjects.configMaps) {
      for (const v of cm.data) if (namesIn(v, zone).length) yield* checkValue(lookup, cm, v, `key "${v.key}"`, zone, lookup.fileText(cm.uri));
    }
  },
});

/** The names in each value, kept with the value: a file that did not change keeps its value objects across edits. */
const namesOfValue = new WeakMap<TextValue, { readonly zone: string; readonly names: readonly WrittenName[] }>();

function namesIn(value: TextValue, zone: string): readonly WrittenName[] {
  const known = namesOfValue.get(value);
  if (known && known.zone === zone) return known.names;
  // Most values name nothing: skip the pattern unless `.svc` occurs at all (any case).
  const names = /\.svc/i.test(value.value) ? findClusterNames(value.value, zone) : [];
  namesOfValue.set(value, { zone, names });
  return names;
}

function* checkValue(lookup: Lookup, owner: ResourceBase, value: TextValue, where: string, zone: string, fileText: string | undefined): Generator<FindingDraft> {
  for (const name of namesIn(value, zone)) {
    const r = lookup.resolveName(name.text, owner.namespace);
    if (r.unknown) continue;
    if (r.resolves && r.portKnown !== false) continue;
    const span = spanOfName(fileText, value, name);
    const what = r.resolves ? `"${name.text}" (${where}) resolves, but the port is wrong: ` : `"${name.host}" (${where}) does not resolve from namespace "${owner.namespace}": `;
    const message = what + (r.reason ?? 'no DNS record answers it.');
    const fixes = r.suggestion && span.precise
      ? [{ title: `Change to "${r.suggestion}"`, isPreferred: true, edits: [{ uri: owner.uri, span: { start: span.span.start, end: span.span.start + name.host.length }, newText: r.suggestion }] }]
      : undefined;
    yield { uri: owner.uri, span: span.span, message, resource: refOf(owner), ...(fixes ? { fixes } : {}) };
  }
}

/**
 * The name's place in the file. A plain or quoted scalar without escapes holds the value verbatim; otherwise (block
 * scalars, escapes, folded lines) the n-th occurrence of the name in the source is used when the source has exactly as
 * many occurrences as the value, and the whole value otherwise.
 */
function spanOfName(fileText: string | undefined, value: TextValue, name: WrittenName): { span: Span; precise: boolean } {
  const whole = { span: value.span, precise: false };
  if (fileText === undefined) return whole;
  const raw = fileText.slice(value.span.start, value.span.end);
  const len = name.text.length;
  if (raw === value.value) return { span: { start: value.span.start + name.index, end: value.span.start + name.index + len }, precise: true };
  const q = raw[0];
  if ((q === '"' || q === "'") && raw.length >= 2 && raw[raw.length - 1] === q && raw.slice(1, -1) === value.value) {
    const start = value.span.start + 1 + name.index;
    return { span: { start, end: start + len }, precise: true };
  }
  const inValue = occurrences(value.value, name.text);
  const inRaw = occurrences(raw, name.text);
  if (inValue.length !== inRaw.length) return whole;
  const k = inValue.indexOf(name.index);
  if (k < 0) return whole;
  const start = value.span.start + inRaw[k];
  return { span: { start, end: start + len }, precise: true };
}

function occurrences(s: string, sub: string): number[] {
  const out: number[] = [];
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) out.push(i);
  return out;
}

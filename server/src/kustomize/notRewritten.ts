// What Kustomize does not rewrite. Its name references cover fields (a Service name in an Ingress backend), never
// strings: a DNS name in an env value, an argument or ConfigMap data keeps the name and namespace the base wrote,
// and Gateway API routes are not in its configuration at all. After a build renamed or moved a Service, such a
// reference resolves in the base and nowhere in the overlay (semantics §8: `<service>.<namespace>.svc.<domain>`).
// Reported only when the build holds no Service the old name still reaches (precision over recall).

import { phrase, worded, type Phrase } from '../l10n/l10n';
import type { RenderProblem } from '../model/rendered';
import { get, str, type KMap, type KNode } from './tree';

export interface BuiltObject {
  readonly node: KMap;
  /** Earlier identities, oldest first (as Kustomize records them). */
  readonly prevIds: readonly { readonly gvk: { readonly kind: string }; readonly name: string; readonly namespace: string }[];
}

interface Moved {
  readonly kind: string;
  /** Every identity the object had before this build's last step: the base's, and each overlay's on the way. */
  readonly before: readonly { readonly name: string; readonly ns: string }[];
  readonly name: string;
  readonly ns: string;
}

function meta(node: KNode, key: string): string {
  return str(get(get(node, 'metadata'), key)) ?? '';
}

const orNamespace = (ns: string) => ns || 'default';

/** The problems of one build; `label` names the build for people (`overlays/prod`). */
export function notRewritten(objects: readonly BuiltObject[], label: string): RenderProblem[] {
  const moved: Moved[] = [];
  const services = new Set<string>();
  const gateways = new Set<string>();
  const namespaces = new Set<string>();
  for (const o of objects) {
    const kind = str(get(o.node, 'kind')) ?? '';
    const ns = orNamespace(meta(o.node, 'namespace'));
    if (kind !== 'Namespace') namespaces.add(ns);
    if (kind === 'Service') services.add(`${ns}/${meta(o.node, 'name')}`);
    if (kind === 'Gateway') gateways.add(`${ns}/${meta(o.node, 'name')}`);
    if (!o.prevIds.length || (kind !== 'Service' && kind !== 'Gateway')) continue;
    const name = meta(o.node, 'name');
    const before = o.prevIds.map((p) => ({ name: p.name, ns: orNamespace(p.namespace) })).filter((p) => p.name !== name || p.ns !== ns);
    if (before.length) moved.push({ kind, before, name, ns });
  }
  if (!moved.length) return [];
  const movedNamespaces = new Set(moved.flatMap((m) => m.before.map((b) => b.ns)).filter((ns) => !namespaces.has(ns)));
  const out: RenderProblem[] = [];
  const seen = new Set<string>();
  const report = (n: KNode, said: Phrase) => {
    if (!n.src || n.src.via) return;
    const w = worded(said);
    const key = `${n.src.uri}\u0000${n.src.span.start}\u0000${w.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ uri: n.src.uri, span: n.src.span, severity: 'warning', code: 'kustomize-name-not-rewritten', ...w });
  };
  for (const o of objects) {
    const kind = str(get(o.node, 'kind')) ?? '';
    const ns = orNamespace(meta(o.node, 'namespace'));
    const wasIn = o.prevIds.map((p) => orNamespace(p.namespace));
    if (kind === 'ConfigMap') {
      const data = get(o.node, 'data');
      if (data?.t === 'm') for (const e of data.e) checkString(e.v, ns, wasIn);
    }
    visitContainers(o.node, (c) => {
      const env = get(c, 'env');
      if (env?.t === 'q') for (const e of env.items) checkString(get(e, 'value'), ns, wasIn);
      for (const key of ['args', 'command']) {
        const list = get(c, key);
        if (list?.t === 'q') for (const a of list.items) checkString(a, ns, wasIn);
      }
    });
    if (/^(HTTP|GRPC|TCP|TLS|UDP)Route$/.test(kind)) checkRoute(o.node, ns);
    if (kind === 'NetworkPolicy') checkPolicy(o.node);
  }
  return out.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.span.start - b.span.start));

  /** `ns`: the namespace the string's object is in now; `wasIn`: the ones it had on the way. */
  function checkString(n: KNode | undefined, ns: string, wasIn: readonly string[]): void {
    const value = str(n);
    if (!n || value === undefined) return;
    // `<name>.<namespace>.svc[.<domain>]`, and a bare `<name>` as a URL host or `<name>:<port>`.
    for (const m of value.matchAll(
      /(?<![-a-z0-9.])([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\.svc(?:\.[a-z0-9.-]*[a-z0-9])?(?![-a-z0-9])/g,
    )) {
      const [written, name, wroteNs] = m;
      if (services.has(`${wroteNs}/${name}`)) continue;
      const hit = moved.find((x) => x.kind === 'Service' && x.before.some((b) => b.name === name && b.ns === wroteNs));
      if (hit) report(n, message(written, hit, { name, ns: wroteNs }, `${hit.name}.${hit.ns}.svc${written.slice(written.indexOf('.svc') + 4)}`));
    }
    // A bare `<name>` as a URL's host (`--backend=http://api:80/v1`), or a whole value `<name>:<port>`.
    const hosts = [...value.matchAll(/[a-z][a-z0-9+.-]*:\/\/([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)(?=[:/?#\s"']|$)/g)].map((m) => m[1]);
    const hostPort = /^([a-z0-9](?:[-a-z0-9]*[a-z0-9])?):[0-9]{1,5}$/.exec(value);
    if (hostPort) hosts.push(hostPort[1]);
    for (const name of hosts) {
      if (services.has(`${ns}/${name}`)) continue;
      const hit = moved.find((x) => x.kind === 'Service' && x.ns === ns && x.before.some((b) => b.name === name && wasIn.includes(b.ns)));
      if (hit)
        report(
          n,
          phrase(
            '"{0}" names Service {1} of its own namespace as the base defines it, but the build of {2} renamed that Service to {3}; Kustomize does not rewrite names inside strings, so there it resolves to nothing (it would be {4}).',
            name,
            name,
            label,
            hit.name,
            hit.name,
          ),
        );
    }
  }

  function message(written: string, m: Moved, was: { name: string; ns: string }, instead: string): Phrase {
    if (was.name !== m.name && was.ns !== m.ns)
      return phrase(
        '"{0}" names {1} {2} in namespace {3} as the base defines it, but the build of {4} renamed it to {5} and moved it to namespace {6}; Kustomize does not rewrite names inside strings, so there it resolves to nothing (it would be {7}).',
        written,
        m.kind,
        was.name,
        was.ns,
        label,
        m.name,
        m.ns,
        instead,
      );
    if (was.name !== m.name)
      return phrase(
        '"{0}" names {1} {2} in namespace {3} as the base defines it, but the build of {4} renamed it to {5}; Kustomize does not rewrite names inside strings, so there it resolves to nothing (it would be {6}).',
        written,
        m.kind,
        was.name,
        was.ns,
        label,
        m.name,
        instead,
      );
    return phrase(
      '"{0}" names {1} {2} in namespace {3} as the base defines it, but the build of {4} moved it to namespace {5}; Kustomize does not rewrite names inside strings, so there it resolves to nothing (it would be {6}).',
      written,
      m.kind,
      was.name,
      was.ns,
      label,
      m.ns,
      instead,
    );
  }

  function checkRoute(node: KNode, ns: string): void {
    const rules = get(get(node, 'spec'), 'rules');
    if (rules?.t === 'q')
      for (const r of rules.items) {
        const refs = get(r, 'backendRefs');
        if (refs?.t === 'q') for (const ref of refs.items) checkRef(ref, ns, 'Service', services);
      }
    const parents = get(get(node, 'spec'), 'parentRefs');
    if (parents?.t === 'q') for (const ref of parents.items) checkRef(ref, ns, 'Gateway', gateways);
  }

  function checkRef(ref: KNode, ns: string, defaultKind: string, existing: ReadonlySet<string>): void {
    const kind = str(get(ref, 'kind')) ?? defaultKind;
    const nameNode = get(ref, 'name');
    const name = str(nameNode);
    if (kind !== defaultKind || !nameNode || !name) return;
    const target = orNamespace(str(get(ref, 'namespace')) ?? ns);
    if (existing.has(`${target}/${name}`)) return;
    const hit = moved.find((x) => x.kind === kind && x.before.some((b) => b.name === name && (b.ns === target || x.ns === target)));
    if (!hit) return;
    report(
      nameNode,
      phrase(
        'The {0} reference "{1}" is the name the base gives it, but the build of {2} renamed the {3} to {4}; Kustomize does not rewrite Gateway API references, so the route points at nothing there.',
        kind,
        name,
        label,
        kind,
        hit.name,
      ),
    );
  }

  function checkPolicy(node: KNode): void {
    for (const dir of ['ingress', 'egress']) {
      const rules = get(get(node, 'spec'), dir);
      if (rules?.t !== 'q') continue;
      for (const r of rules.items) {
        const peers = get(r, dir === 'ingress' ? 'from' : 'to');
        if (peers?.t !== 'q') continue;
        for (const p of peers.items) {
          const v = get(get(get(p, 'namespaceSelector'), 'matchLabels'), 'kubernetes.io/metadata.name');
          const ns = str(v);
          if (!v || !ns || !movedNamespaces.has(ns)) continue;
          const to = moved.find((m) => m.before.some((b) => b.ns === ns))!.ns;
          report(
            v,
            phrase(
              'The namespace selector names namespace {0}, where the base puts its objects, but the build of {1} moved them to namespace {2}; Kustomize does not rewrite label values, so this selects a namespace nothing of this build runs in.',
              ns,
              label,
              to,
            ),
          );
        }
      }
    }
  }
}

function visitContainers(node: KNode, visit: (container: KNode) => void, depth = 0): void {
  if (depth > 60) return;
  if (node.t === 'q') for (const i of node.items) visitContainers(i, visit, depth + 1);
  if (node.t !== 'm') return;
  for (const e of node.e) {
    if ((e.k === 'containers' || e.k === 'initContainers') && e.v.t === 'q') for (const c of e.v.items) visit(c);
    else visitContainers(e.v, visit, depth + 1);
  }
}

// The mistake classes of the recall harness: for each, which objects are candidates (the reference works as
// written, by the harness's own reading, see manifests.ts) and the one text edit that plants the mistake.
// Every mutation changes one place of one file and keeps the number of lines, so the findings of the mutated run
// can be compared line for line with the baseline.

import {
  isWorkload,
  keyNode,
  nodeAt,
  podTemplate,
  scalarValueSpan,
  seqLength,
  stringMap,
  subsetOf,
  templatePath,
  lineStarts,
  lineOf,
  type Edit,
  type ManifestObject,
} from './manifests';

export const classes = [
  'selector-value-typo',
  'selector-key-swap',
  'dns-short-typo',
  'netpol-podselector-typo',
  'netpol-peer-typo',
  'targetport-name-typo',
  'sts-servicename-typo',
  'sts-governing-not-headless',
  'ingress-backend-name-typo',
  'ingress-backend-port',
  'workload-selector-typo',
  'port-name-typo',
  'gateway-parent-typo',
  'pod-subdomain-typo',
] as const;
export type MistakeClass = (typeof classes)[number];

/** A place where a mistake is planted. */
export interface Candidate {
  readonly cls: MistakeClass;
  /** The object the edit changes. */
  readonly object: ManifestObject;
  readonly edit: Edit;
  /** 0-based line of the edit. */
  readonly line: number;
  readonly before: string;
  readonly after: string;
  /** Objects the mistake breaks the reference with (a finding there counts too, reported as such). */
  readonly counterparts: readonly ManifestObject[];
}

/** Two adjacent distinct letters swapped, at the first such pair after the first character; undefined if none. */
export function swapLetters(value: string, minLength = 4): string | undefined {
  if (value.length < minLength) return undefined;
  for (let i = 1; i + 1 < value.length; i++) {
    const a = value[i];
    const b = value[i + 1];
    if (/[a-zA-Z]/.test(a) && /[a-zA-Z]/.test(b) && a !== b) return value.slice(0, i) + b + a + value.slice(i + 2);
  }
  return undefined;
}

type Path = (string | number)[];

interface Index {
  readonly all: readonly ManifestObject[];
  byGroup(o: ManifestObject): readonly ManifestObject[];
}

function index(objects: readonly ManifestObject[]): Index {
  const groups = new Map<string, ManifestObject[]>();
  const add = (k: string, o: ManifestObject) => {
    const g = groups.get(k) ?? [];
    g.push(o);
    groups.set(k, g);
  };
  for (const o of objects) {
    add(`g:${o.group}`, o);
    if (o.top !== o.group) add(`t:${o.top}`, o);
  }
  const seen = new Map<ManifestObject, ManifestObject[]>();
  return {
    all: objects,
    byGroup: (o) => {
      let v = seen.get(o);
      if (!v) {
        v = [...new Set([...(groups.get(`g:${o.group}`) ?? []), ...(groups.get(`g:${o.top}`) ?? []), ...(groups.get(`t:${o.top}`) ?? [])])];
        seen.set(o, v);
      }
      return v;
    },
  };
}

function peers(ix: Index, o: ManifestObject, kind: string | ((x: ManifestObject) => boolean), namespace = o.namespace): ManifestObject[] {
  const test = typeof kind === 'string' ? (x: ManifestObject) => x.kind === kind : kind;
  return ix.byGroup(o).filter((x) => x !== o && x.namespace === namespace && test(x));
}

function candidate(
  cls: MistakeClass,
  object: ManifestObject,
  start: number,
  end: number,
  replacement: string,
  counterparts: readonly ManifestObject[] = [],
  shown?: { before: string; after: string },
): Candidate {
  const before = shown?.before ?? object.text.slice(start, end);
  const after = shown?.after ?? replacement;
  return { cls, object, edit: { start, end, replacement }, line: lineOf(lineStarts(object.text), start), before, after, counterparts };
}

/** A typo in the scalar at `path` (a string value of length ≥ 4); `taken` are names the typo must not hit. */
function scalarTypo(
  cls: MistakeClass,
  o: ManifestObject,
  path: Path,
  counterparts: readonly ManifestObject[] = [],
  taken: ReadonlySet<string> = new Set(),
): Candidate | undefined {
  const span = scalarValueSpan(o.text, nodeAt(o.doc, path));
  if (!span) return undefined;
  const typo = swapLetters(span.value);
  if (!typo || taken.has(typo)) return undefined;
  return candidate(cls, o, span.start, span.end, typo, counterparts);
}

function workloadsSelected(ix: Index, o: ManifestObject, selector: Record<string, string>, namespace = o.namespace): ManifestObject[] {
  return peers(ix, o, isWorkload, namespace).filter((w) => {
    const t = podTemplate(w);
    return t !== undefined && subsetOf(selector, t.labels);
  });
}

function serviceSelector(o: ManifestObject): Record<string, string> | undefined {
  if (o.kind !== 'Service' || o.js.spec?.type === 'ExternalName') return undefined;
  const sel = stringMap(o.js.spec?.selector);
  return sel && Object.keys(sel).length ? sel : undefined;
}

function isGatewayApi(o: ManifestObject): boolean {
  return typeof o.js.apiVersion === 'string' && o.js.apiVersion.startsWith('gateway.networking.k8s.io/');
}

function isHeadless(o: ManifestObject): boolean {
  return o.kind === 'Service' && o.js.spec?.clusterIP === 'None';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function containers(spec: any): { path: Path; c: any }[] {
  const out: { path: Path; c: any }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (const list of ['containers', 'initContainers']) {
    const cs = spec?.[list];
    if (Array.isArray(cs)) cs.forEach((c, i) => out.push({ path: ['spec', list, i], c }));
  }
  return out;
}

const keySwaps: Record<string, string> = {
  app: 'app.kubernetes.io/name',
  'app.kubernetes.io/name': 'app',
  name: 'app',
  'k8s-app': 'app',
};

const hostVariable = /(HOST|ADDR|SERVER|ENDPOINT|URL|URI|SVC|SERVICE_NAME)$/i;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where a Service name is written as a host in a value: offset of the name in the value, or -1. */
export function serviceHostOffset(value: string, service: string, serviceNs: string, clientNs: string, bare = true): number {
  const name = escapeRe(service);
  const sameNs = serviceNs === clientNs;
  // `svc.ns`, `svc.ns.svc…` with the Service's explicit namespace
  if (serviceNs) {
    const re = new RegExp(`(^|://|@|=|,)${name}\\.${escapeRe(serviceNs)}(\\.svc(\\.[a-z0-9.-]*)?)?(?=$|:\\d|/|,)`);
    const m = re.exec(value);
    if (m) return m.index + m[1].length;
  }
  if (!sameNs) return -1;
  // `http://svc:port/…`, `svc:port`; a bare `svc` only where `bare` (the whole value of a host variable)
  const re = new RegExp(`(^|://|@|=|,)${name}(?=:\\d|/)`);
  const m = re.exec(value);
  if (m) return m.index + m[1].length;
  return bare && value === service ? 0 : -1;
}

/** Every candidate of every class in a repository's objects, in file and offset order. */
export function findCandidates(objects: readonly ManifestObject[]): Candidate[] {
  const ix = index(objects);
  const out: Candidate[] = [];
  const push = (c: Candidate | undefined) => {
    if (c) out.push(c);
  };
  const serviceNames = new Set(objects.filter((o) => o.kind === 'Service').map((o) => o.name));
  for (const o of objects) {
    const spec = o.js.spec;
    // 1, 2, 6: Services whose selector matches pods of the same folder tree
    const sel = serviceSelector(o);
    if (sel) {
      const selected = workloadsSelected(ix, o, sel);
      if (selected.length) {
        const key = Object.keys(sel).find((k) => sel[k].length >= 4 && swapLetters(sel[k]));
        if (key !== undefined) push(scalarTypo('selector-value-typo', o, ['spec', 'selector', key], selected));
        const swapKey = Object.keys(sel).find((k) => k in keySwaps && !(keySwaps[k] in sel));
        if (swapKey !== undefined) {
          const newKey = keySwaps[swapKey];
          const swapped = { ...sel, [newKey]: sel[swapKey] };
          delete swapped[swapKey];
          const k = keyNode(o.doc, ['spec', 'selector'], swapKey);
          if (k?.range && o.text.slice(k.range[0], k.range[1]) === swapKey && !workloadsSelected(ix, o, swapped).length) {
            push(candidate('selector-key-swap', o, k.range[0], k.range[1], newKey, selected));
          }
        }
        const ports = Array.isArray(spec?.ports) ? spec.ports : [];
        ports.forEach((p: { targetPort?: unknown }, i: number) => {
          if (typeof p?.targetPort !== 'string') return;
          const declared = selected.some((w) =>
            containers(podTemplate(w)?.spec).some(({ c }) => Array.isArray(c?.ports) && c.ports.some((cp: { name?: unknown }) => cp?.name === p.targetPort)),
          );
          if (declared) push(scalarTypo('targetport-name-typo', o, ['spec', 'ports', i, 'targetPort'], selected));
        });
      }
    }
    if (isWorkload(o)) {
      const tpath = templatePath(o)!;
      const t = podTemplate(o)!;
      if (t) {
        // 3: env values and args naming a Service
        const group = ix.byGroup(o).filter((x) => x.kind === 'Service' && x.js.spec?.type !== 'ExternalName');
        for (const { path, c } of containers(t.spec)) {
          // [path, whether a bare name counts]: a bare value is a host only in a variable named like one (not a
          // WEBHOOK_NAME, a MINIO_ACCESS_KEY or a `-service=` flag that merely mention the name)
          const values: [Path, boolean][] = [];
          if (Array.isArray(c?.env))
            c.env.forEach(
              (e: { name?: unknown; value?: unknown }, i: number) =>
                typeof e?.value === 'string' && values.push([[...path, 'env', i, 'value'], hostVariable.test(String(e.name ?? ''))]),
            );
          if (Array.isArray(c?.args)) c.args.forEach((a: unknown, i: number) => typeof a === 'string' && values.push([[...path, 'args', i], false]));
          for (const [vp, bare] of values) {
            const full = [...tpath, ...vp];
            const span = scalarValueSpan(o.text, nodeAt(o.doc, full));
            if (!span) continue;
            // the longest Service name that matches (so `redis-cart` wins over `redis`)
            const hits = group
              .filter((s) => s.name.length >= 4)
              .map((s) => ({ s, at: serviceHostOffset(span.value, s.name, s.namespace, o.namespace, bare) }))
              .filter((h) => h.at >= 0)
              .sort((a, b) => b.s.name.length - a.s.name.length);
            const hit = hits[0];
            if (!hit) continue;
            const typo = swapLetters(hit.s.name);
            if (!typo || serviceNames.has(typo)) continue;
            const start = span.start + hit.at;
            push(candidate('dns-short-typo', o, start, start + hit.s.name.length, typo, [hit.s]));
            break;
          }
        }
        // 11: container port names a Service targetPort names
        for (const { path, c } of containers(t.spec)) {
          if (!Array.isArray(c?.ports)) continue;
          c.ports.forEach((cp: { name?: unknown }, i: number) => {
            if (typeof cp?.name !== 'string') return;
            const users = peers(ix, o, 'Service').filter((s) => {
              const ss = serviceSelector(s);
              return (
                ss &&
                subsetOf(ss, t.labels) &&
                Array.isArray(s.js.spec?.ports) &&
                s.js.spec.ports.some((p: { targetPort?: unknown }) => p?.targetPort === cp.name)
              );
            });
            if (users.length) push(scalarTypo('port-name-typo', o, [...tpath, ...path, 'ports', i, 'name'], users));
          });
        }
        // 13: subdomain naming a headless Service
        if (typeof t.spec?.subdomain === 'string') {
          const hs = peers(ix, o, (x) => isHeadless(x) && x.name === t.spec.subdomain);
          if (hs.length) push(scalarTypo('pod-subdomain-typo', o, [...tpath, 'spec', 'subdomain'], hs, serviceNames));
        }
      }
      // 10: the workload's own selector
      if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'].includes(o.kind)) {
        const ml = stringMap(spec?.selector?.matchLabels);
        if (ml && t && subsetOf(ml, t.labels)) {
          const key = Object.keys(ml).find((k) => swapLetters(ml[k]));
          if (key !== undefined) push(scalarTypo('workload-selector-typo', o, ['spec', 'selector', 'matchLabels', key]));
        }
      }
      // 7, 8: the governing Service of a StatefulSet
      if (o.kind === 'StatefulSet' && typeof spec?.serviceName === 'string') {
        const gov = peers(ix, o, (x) => isHeadless(x) && x.name === spec.serviceName);
        if (gov.length) {
          push(scalarTypo('sts-servicename-typo', o, ['spec', 'serviceName'], gov, serviceNames));
          const g = gov[0];
          const k = keyNode(g.doc, ['spec'], 'clusterIP');
          if (gov.length === 1 && k?.range) {
            const starts = lineStarts(g.text);
            const lineStart = starts[lineOf(starts, k.range[0])];
            if (/^\s*$/.test(g.text.slice(lineStart, k.range[0])))
              out.push(
                candidate('sts-governing-not-headless', g, k.range[0], k.range[0], '# ', [o], { before: 'clusterIP: None', after: '# clusterIP: None' }),
              );
          }
        }
      }
    }
    // 4, 5: NetworkPolicies
    if (o.kind === 'NetworkPolicy') {
      const ps = stringMap(spec?.podSelector?.matchLabels);
      if (ps && Object.keys(ps).length && workloadsSelected(ix, o, ps).length) {
        const key = Object.keys(ps).find((k) => swapLetters(ps[k]));
        if (key !== undefined) push(scalarTypo('netpol-podselector-typo', o, ['spec', 'podSelector', 'matchLabels', key], workloadsSelected(ix, o, ps)));
      }
      for (const [dir, peerKey] of [
        ['ingress', 'from'],
        ['egress', 'to'],
      ] as const) {
        const rules = Array.isArray(spec?.[dir]) ? spec[dir] : [];
        rules.forEach((r: Record<string, unknown>, ri: number) => {
          const peersList = Array.isArray(r?.[peerKey]) ? (r[peerKey] as Record<string, unknown>[]) : [];
          peersList.forEach((p, pi) => {
            if (!p || p.namespaceSelector) return;
            const ml = stringMap((p.podSelector as { matchLabels?: unknown })?.matchLabels);
            if (!ml || !Object.keys(ml).length) return;
            const sel = workloadsSelected(ix, o, ml);
            if (!sel.length) return;
            const key = Object.keys(ml).find((k) => swapLetters(ml[k]));
            if (key !== undefined) push(scalarTypo('netpol-peer-typo', o, ['spec', dir, ri, peerKey, pi, 'podSelector', 'matchLabels', key], sel));
          });
        });
      }
    }
    // 9: Ingress backends
    if (o.kind === 'Ingress') {
      const backends: Path[] = [];
      if (spec?.defaultBackend) backends.push(['spec', 'defaultBackend']);
      if (spec?.backend) backends.push(['spec', 'backend']);
      (Array.isArray(spec?.rules) ? spec.rules : []).forEach((r: { http?: { paths?: unknown[] } }, ri: number) => {
        const n = seqLength(o.doc, ['spec', 'rules', ri, 'http', 'paths']);
        for (let pi = 0; pi < n; pi++) if (r?.http?.paths?.[pi]) backends.push(['spec', 'rules', ri, 'http', 'paths', pi, 'backend']);
      });
      for (const bp of backends) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const b = bp.reduce((v: any, k) => v?.[k], o.js);
        const v1 = b?.service && typeof b.service.name === 'string';
        const svcName = v1 ? b.service.name : b?.serviceName;
        if (typeof svcName !== 'string') continue;
        const svcs = peers(ix, o, (x) => x.kind === 'Service' && x.name === svcName);
        if (!svcs.length) continue;
        const svc = svcs[0];
        push(scalarTypo('ingress-backend-name-typo', o, v1 ? [...bp, 'service', 'name'] : [...bp, 'serviceName'], svcs, serviceNames));
        const sports: { port?: unknown; name?: unknown }[] = Array.isArray(svc.js.spec?.ports) ? svc.js.spec.ports : [];
        const portPath = v1 ? [...bp, 'service', 'port'] : [...bp, 'servicePort'];
        const port = v1 ? (b.service.port?.number ?? b.service.port?.name) : b.servicePort;
        if (typeof port === 'number' && sports.some((p) => p.port === port)) {
          const span = scalarValueSpan(o.text, nodeAt(o.doc, v1 ? [...portPath, 'number'] : portPath));
          if (span) {
            let n = port + 1;
            while (sports.some((p) => p.port === n)) n++;
            push(candidate('ingress-backend-port', o, span.start, span.end, String(n), svcs));
          }
        } else if (typeof port === 'string' && sports.some((p) => p.name === port)) {
          const names = new Set(sports.map((p) => String(p.name)));
          push(scalarTypo('ingress-backend-port', o, v1 ? [...portPath, 'name'] : portPath, svcs, names));
        }
      }
    }
    // 12: HTTPRoute parents
    if (o.kind === 'HTTPRoute' && isGatewayApi(o)) {
      const refs = Array.isArray(spec?.parentRefs) ? spec.parentRefs : [];
      const gatewayNames = new Set(objects.filter((x) => x.kind === 'Gateway').map((x) => x.name));
      refs.forEach((r: { name?: unknown; namespace?: unknown; kind?: unknown }, i: number) => {
        if (typeof r?.name !== 'string' || (r.kind !== undefined && r.kind !== 'Gateway')) return;
        const ns = typeof r.namespace === 'string' ? r.namespace : o.namespace;
        // a Gateway API Gateway: Istio's networking.istio.io Gateway of the same name is no parent
        const gws = peers(ix, o, (x) => x.kind === 'Gateway' && isGatewayApi(x) && x.name === r.name, ns);
        if (gws.length) push(scalarTypo('gateway-parent-typo', o, ['spec', 'parentRefs', i, 'name'], gws, gatewayNames));
      });
    }
  }
  return out.sort((a, b) => (a.object.file < b.object.file ? -1 : a.object.file > b.object.file ? 1 : a.edit.start - b.edit.start));
}

/** Up to `n` candidates of one class, spread evenly over the sorted list (deterministic). */
export function pick<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(list[Math.floor((i * list.length) / n)]);
  return out;
}

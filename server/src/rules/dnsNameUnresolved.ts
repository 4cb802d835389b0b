// dns-name-unresolved: a cluster DNS name written in a container's env/command/args or in ConfigMap data that no
// record answers from that namespace, or whose port the Service does not have (semantics §2, §3.2, §3.3).

import { messages, type Msg } from '../l10n/l10n';
import type { NameResolution } from '../analysis/analysis';
import { findClusterNames, findShortNames, type ShortForm, type WrittenName } from '../analysis/clusterNames';
import { zoneOf } from '../analysis/dnsRecords';
import type { ResourceBase, TextValue } from '../model/resources';
import type { Span } from '../model/span';
import type { FindingDraft } from './finding';
import { closestName, isTypo } from './closestName';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const dnsNameUnresolved = defineRule({
  code: 'dns-name-unresolved',
  subjects: ['workloads', 'configMaps'],
  defaultSeverity: 'warning',
  title: 'A cluster DNS name that nothing answers, or a port its Service lacks',
  description:
    'Looks at the host names a pod looks up, in container env values, command and args, and ConfigMap data: names containing `.svc`, ' +
    'and short names written in a URL (`http://orders:8080/`), as `host:port` (`orders:8080`, also in lists) or as the whole value of a variable ' +
    "whose name says it holds a host (`ORDERS_HOST: orders`). Each is resolved the way the pod's resolver does: " +
    "the search list `<ns>.svc.<zone> svc.<zone> <zone>` with ndots 5 (network-semantics §3.2, §3.3), then CoreDNS's records (§2). " +
    'It warns when no Service, namespace or per-pod record answers (a typo in the Service or namespace, a StatefulSet pod name whose Service is not its governing headless Service, ' +
    'an ExternalName with an IP), or when the name carries a `:port` the Service does not expose. Names outside the cluster domain are left alone.\n\n' +
    'A single-label short name (`orders`) is reported only when it is one typo away from a Service of the namespace (`ordres` for `orders`): ' +
    'such a name may also be answered by `/etc/hosts`, a sidecar or a Service another repository deploys (network-semantics §9.3). ' +
    'A short name with its namespace (`orders.shop`) is judged like a full name. A wrong port of a short name is reported only in a URL (`name:1` may be an image tag).\n\n' +
    'Stays quiet when the answer is unknown (network-semantics §9): a namespace no manifest in scope declares or populates (created by another repository or `kubectl create namespace`), ' +
    'unless its name is one typo away from a namespace that is described; a Service that an operator may create (a custom resource in that namespace that makes pods) or that is written without a namespace ' +
    "(so it lands wherever it is applied); a name of a Helm release installed apart from these manifests (a custom resource in that namespace carries `release: R`, by which that release finds it, and the name is `R-…`, while none of the release's own objects are here); an unrendered chart written beside the name's file (one elsewhere in the repository does not count); a name in kube-system or another namespace of the cluster's own or its provider's (GKE's `gke-managed-*`) that is no typo of a Service written here (the installer or provider makes Services there); " +
    'a headless Service whose pods an operator makes; a value holding a placeholder (`${VAR}`, `{{ }}`); `localhost`; a variable that holds a TLS server name or certificate name (`*_SERVER_NAME`, `*_SNI`), which is never looked up. ' +
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
    const msg = messages(config.locale);
    const zone = zoneOf(config);
    for (const w of subjects.workloads) {
      for (const c of w.template.containers) {
        for (const v of c.env)
          if (!notLookup.test(v.name) && namesIn(v, zone, v.name).length)
            yield* checkValue(lookup, w, v, msg('{0} of container "{1}"', v.where, c.name), zone, msg, v.name);
        for (const list of [c.command, c.args]) {
          for (const v of list) if (namesIn(v, zone).length) yield* checkValue(lookup, w, v, msg('{0} of container "{1}"', v.where, c.name), zone, msg);
        }
      }
    }
    for (const cm of subjects.configMaps) {
      for (const v of cm.data)
        if (!notLookup.test(v.key) && namesIn(v, zone, v.key).length) yield* checkValue(lookup, cm, v, msg('key "{0}"', v.key), zone, msg, v.key);
    }
  },
});

/**
 * Variables and keys whose value names a host without looking it up (semantics §9.3): a TLS server name or SNI that a
 * certificate is checked against, a certificate's subject names.
 */
const notLookup = /(?:^|[_.-])(?:SNI|SERVER_?NAME|SERVERNAME|TLS_?(?:HOST|NAME|SERVER)|CERT_?(?:CN|HOST|NAME|SANS?)|SANS?|CN)$/i;

/** A name found in a value: a cluster name with `.svc`, or a short name and how it was written. */
type FoundName = WrittenName & { readonly form?: ShortForm };

/** The names in each value, kept with the value: a file that did not change keeps its value objects across edits. */
const namesOfValue = new WeakMap<TextValue, { readonly zone: string; readonly names: readonly FoundName[] }>();

/** The cluster names and short names written in a value (memoized per value object); `variable`: the env variable's or key's name. */
export function namesIn(value: TextValue, zone: string, variable?: string): readonly FoundName[] {
  const known = namesOfValue.get(value);
  if (known && known.zone === zone) return known.names;
  // Most values name nothing: skip the patterns unless `.svc` occurs at all (any case), or a short name may.
  const full: FoundName[] = /\.svc/i.test(value.value) ? findClusterNames(value.value, zone) : [];
  const short = value.value.includes(':') || variable !== undefined ? findShortNames(value.value, variable) : [];
  const names = short.length ? [...full, ...short.filter((n) => !full.some((f) => n.index >= f.index && n.index < f.index + f.text.length))] : full;
  namesOfValue.set(value, { zone, names });
  return names;
}

function* checkValue(lookup: Lookup, owner: ResourceBase, value: TextValue, where: string, zone: string, msg: Msg, variable?: string): Generator<FindingDraft> {
  const fileText = lookup.fileText(owner.uri);
  for (const name of namesIn(value, zone, variable)) {
    const r = lookup.resolveName(name.text, owner.namespace, owner.uri);
    // A single label that no Service in scope comes near may be a typo of a Service applied apart from this file (a
    // Kustomize build of the same namespace, a variant): the cluster the pods run in holds both. A typo of a Service
    // that is there is decisive, whatever may supply names this scope does not see (semantics §9.0, §9.3).
    const single = name.form && !r.resolves && !r.suggestion && !name.host.includes('.');
    const apart = single ? typoOfServiceApart(lookup, name.host, owner.namespace) : undefined;
    // A typo of a Service written without a namespace, which lands in whatever namespace it is applied to (semantics
    // §9.3), so also in this one: the name it was meant to be resolves there once applied; this one never does.
    const floating = single && !apart ? typoOfFloatingService(lookup, name.host, owner.namespace) : undefined;
    if (r.unknown && !apart) continue;
    if (r.resolves && r.portKnown !== false) continue;
    // A Service of that name applied apart from this file (another Kustomize build or variant, in the namespace the
    // name points at) answers it in the cluster both are applied to: not a miss of this scope's (semantics §9.0).
    if (!r.resolves && definedApart(lookup, name.host, owner.namespace, zone)) continue;
    if (name.form && !apart && !floating && !shortNameFinding(name, r)) continue;
    const span = spanOfName(fileText, value, name);
    const why = apart
      ? msg(
          'no Service "{0}" is in these manifests; did you mean "{1}"? A Service of that name is defined in {2}, applied apart from this file.',
          name.host,
          apart.name,
          placeOf(apart.uri, msg),
        )
      : floating
        ? msg(
            'no Service "{0}" is in these manifests; did you mean "{1}"? Service "{1}" is written without a namespace, so it lands in the namespace it is applied to, and this name never resolves there.',
            name.host,
            floating.name,
          )
        : (r.reason ?? msg('no DNS record answers it.'));
    const message = r.resolves
      ? msg('"{0}" ({1}) resolves, but the port is wrong: {2}', name.text, where, why)
      : msg('"{0}" ({1}) does not resolve from namespace "{2}": {3}', name.host, where, owner.namespace, why);
    const suggestion = apart?.name ?? floating?.name ?? r.suggestion;
    const fixes =
      suggestion && span.precise
        ? [
            {
              title: msg('Change to "{0}"', suggestion),
              isPreferred: true,
              edits: [{ uri: owner.uri, span: { start: span.span.start, end: span.span.start + name.host.length }, newText: suggestion }],
            },
          ]
        : undefined;
    yield { uri: owner.uri, span: span.span, message, resource: refOf(owner), ...(fixes ? { fixes } : {}) };
  }
}

/**
 * Whether a Service the name may mean (`svc`, `svc.ns`, `svc.ns.svc[.zone]`, or a per-pod `pod.svc.ns.svc[.zone]`)
 * is defined in another scope of the workspace.
 */
function definedApart(lookup: Lookup, host: string, namespace: string, zone: string): boolean {
  const labels = host.replace(/\.$/, '').toLowerCase().split('.');
  const zoneLabels = zone.toLowerCase().split('.');
  const svcAt = labels.indexOf('svc');
  const core = svcAt >= 0 && labels.slice(svcAt + 1).join('.') === zoneLabels.slice(0, labels.length - svcAt - 1).join('.') ? labels.slice(0, svcAt) : labels;
  const pairs: [string, string][] =
    core.length === 1 ? [[core[0], namespace]] : core.length === 2 ? [[core[0], core[1]]] : core.length === 3 ? [[core[1], core[2]]] : [];
  return pairs.some(([service, ns]) => lookup.servicesInVariants(ns).some((s) => s.name === service));
}

/** `app.yaml`, or `the build of folder "overlay"` for a render (whose URI stands for its folder). */
function placeOf(uri: string, msg: Msg): string {
  const hash = uri.indexOf('#');
  const path = hash < 0 ? uri : uri.slice(0, hash).replace(/\/$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  return hash < 0 ? name : uri.includes('#helm') ? msg('the render of folder "{0}"', name) : msg('the build of folder "{0}"', name);
}

/** The Service of another scope whose name `host` is a typo of (and none is spelt `host`), for a single-label name. */
function typoOfServiceApart(lookup: Lookup, host: string, namespace: string): { readonly name: string; readonly uri: string } | undefined {
  const apart = lookup.servicesInVariants(namespace);
  if (!apart.length || apart.some((s) => s.name === host)) return undefined;
  const guess = closestName(
    host,
    apart.map((s) => s.name),
  );
  if (!guess || !isTypo(host, guess.name)) return undefined;
  const service = apart.find((s) => s.name === guess.name)!;
  return { name: service.name, uri: service.uri };
}

/**
 * The Service written without a namespace, anywhere in scope, whose name `host` is a typo of (and none is spelt
 * `host` there), for a single-label name seen from `namespace`.
 */
function typoOfFloatingService(lookup: Lookup, host: string, namespace: string): { readonly name: string } | undefined {
  const floating = [...lookup.namespaces()].filter((ns) => ns !== namespace).flatMap((ns) => lookup.servicesIn(ns).filter((s) => !s.namespaceExplicit));
  if (!floating.length || floating.some((s) => s.name === host)) return undefined;
  const guess = closestName(host, [...new Set(floating.map((s) => s.name))]);
  return guess && isTypo(host, guess.name) ? { name: guess.name } : undefined;
}

/**
 * Whether a miss of a short name is reported (semantics §9.3): a single label may be answered by /etc/hosts, a
 * sidecar or a Service of another repository, so only a near miss of a Service (a typo) is evidence; a name with
 * its namespace (`orders.shop`) is judged like a full name. A wrong port counts only in a URL: `name:1` may be an
 * image tag.
 */
function shortNameFinding(name: FoundName, r: NameResolution): boolean {
  if (r.resolves) return name.form === 'url';
  if (name.host.includes('.')) return true;
  return r.suggestion !== undefined && isTypo(name.host, r.suggestion);
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

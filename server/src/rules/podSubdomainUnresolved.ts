// pod-subdomain-unresolved: a pod's `subdomain` that no headless Service of that name selects, so its per-pod DNS name never resolves (semantics §2.2 P2).

import { joinSentences, messages, type Msg } from '../l10n/l10n';
import { selectsPods } from '../model/podLabels';
import type { Service, Workload } from '../model/resources';
import type { Fix, RelatedInfo } from './finding';
import { createHeadlessService } from './fixes/createHeadlessService';
import { refOf } from './refOf';
import { defineRule, type Lookup } from './rule';

export const podSubdomainUnresolved = defineRule({
  code: 'pod-subdomain-unresolved',
  subjects: ['workloads'],
  defaultSeverity: 'warning',
  title: "A pod's subdomain has no headless Service that selects it",
  description: `A pod with \`hostname: h\` and \`subdomain: s\` gets the DNS name \`h.s.<namespace>.svc.<zone>\` only when a Service named
\`s\` exists in the same namespace, is headless (\`clusterIP: None\`), is not ExternalName, and selects the pod with its selector (or
lists the hostname in manual Endpoints). Nothing checks this when the pod is created: the name just never resolves
(network-semantics §2.2 P2). Without \`hostname\`, the pod gets no per-pod name at all. StatefulSets set these fields themselves
from \`serviceName\`; their own rules cover them.`,
  examples: {
    bad: `apiVersion: v1
kind: Pod
metadata: {name: worker-a, labels: {app: worker}}
spec:
  hostname: worker-a
  subdomain: workers
  containers: [{name: w, image: busybox}]`,
    good: `apiVersion: v1
kind: Service
metadata: {name: workers}
spec: {clusterIP: None, selector: {app: worker}}
---
apiVersion: v1
kind: Pod
metadata: {name: worker-a, labels: {app: worker}}
spec:
  hostname: worker-a
  subdomain: workers
  containers: [{name: w, image: busybox}]`,
  },
  *check({ subjects, lookup, config }) {
    const msg = messages(config.locale);
    for (const w of subjects.workloads) {
      const t = w.template;
      if (w.kind === 'StatefulSet' || !t.subdomain || !t.subdomainSpan) continue;
      const problem = whyUnresolved(lookup, w, msg);
      if (!problem) continue;
      const name = t.hostname ? `${t.hostname}.${t.subdomain}.${w.namespace}.svc.${config.clusterDomain}` : undefined;
      const consequence = name ? msg('The name {0} will not resolve.', name) : msg('The pod also sets no hostname, so it has no per-pod DNS name in any case.');
      yield {
        uri: w.uri,
        span: t.subdomainSpan,
        message: joinSentences([msg('subdomain "{0}": {1}. {2}', t.subdomain, problem.reason, consequence), ...(problem.hint ? [problem.hint] : [])]),
        resource: refOf(w),
        related: problem.related,
        fixes: problem.fixes,
      };
    }
  },
});

interface Problem {
  readonly reason: string;
  readonly hint?: string;
  readonly related?: readonly RelatedInfo[];
  readonly fixes?: readonly Fix[];
}

function whyUnresolved(lookup: Lookup, w: Workload, msg: Msg): Problem | undefined {
  const t = w.template;
  const sub = t.subdomain!;
  const svc = lookup.service(w.namespace, sub);
  const at = (s: Service, message: string): RelatedInfo[] => [{ uri: s.uri, span: s.nameSpan, message }];
  if (!svc) {
    const candidates = lookup.servicesIn(w.namespace).filter((s) => s.headless && s.type !== 'ExternalName' && selects(s, w));
    return {
      reason: msg('no Service named "{0}" exists in namespace "{1}"', sub, w.namespace),
      hint: candidates.length
        ? candidates.length > 1
          ? msg('The headless Services {0} select this pod.', candidates.map((c) => `"${c.name}"`).join(', '))
          : msg('The headless Service {0} selects this pod.', `"${candidates[0].name}"`)
        : msg('Create a headless Service named "{0}" whose selector matches the pod labels.', sub),
      fixes: [
        ...candidates.slice(0, 3).map((c, i) => ({
          title: msg('Set subdomain to "{0}"', c.name),
          edits: [{ uri: w.uri, span: t.subdomainSpan!, newText: c.name }],
          isPreferred: i === 0 && candidates.length === 1,
        })),
        ...createFix(lookup, w, sub, msg),
      ],
    };
  }
  if (svc.type === 'ExternalName') {
    return {
      reason: msg('Service "{0}" is an ExternalName Service (a DNS alias), which has no per-pod names', sub),
      related: at(svc, msg('The ExternalName Service with this name')),
    };
  }
  if (!svc.headless) {
    return {
      reason: msg(
        'Service "{0}" has a cluster IP; per-pod names belong to headless Services (clusterIP: None), and DNS servers other than CoreDNS never answer them',
        sub,
      ),
      hint: msg('Make the Service headless, or use a separate headless Service for per-pod names.'),
      related: at(svc, msg('This Service is not headless')),
    };
  }
  if (!svc.selector) {
    if (t.hostname && hasManualHostname(lookup, svc, t.hostname)) return undefined;
    const reason = t.hostname
      ? msg('the headless Service "{0}" has no selector and none of its manual endpoints lists hostname "{1}"', sub, t.hostname)
      : msg('the headless Service "{0}" has no selector and none of its manual endpoints lists this pod', sub);
    return { reason, related: at(svc, msg('This headless Service has no selector')) };
  }
  if (selects(svc, w)) return undefined;
  const terms = [...svc.selector].map(([k, v]) => `${k}=${v}`).join(', ');
  return {
    reason: msg('the headless Service "{0}" selects {1}, which this pod\'s labels do not match', sub, terms),
    related: [{ uri: svc.uri, span: svc.selectorSpan ?? svc.nameSpan, message: msg('The selector of Service "{0}"', sub) }],
  };
}

/** The headless Service the subdomain prescribes, selecting the pod by its labels, like the StatefulSet rule offers. */
function createFix(lookup: Lookup, w: Workload, name: string, msg: Msg): Fix[] {
  const text = lookup.fileText(w.uri);
  const edit = text ? createHeadlessService(w, name, text) : undefined;
  return edit ? [{ title: msg('Create headless Service "{0}" selecting {1} "{2}"', name, w.kind, w.name), edits: [edit] }] : [];
}

/** A Service's equality selector selects the pods when every pair is among their labels (semantics §1.1, §9.1). */
function selects(s: Service, w: Workload): boolean {
  return s.selector !== undefined && selectsPods(w, s.selector);
}

/** Manual Endpoints or EndpointSlices of a selector-less Service can carry hostnames themselves (semantics §1.2, §2.2 P2). */
function hasManualHostname(lookup: Lookup, svc: Service, hostname: string): boolean {
  const endpoints = lookup.endpointsNamed(svc.namespace, svc.name);
  if (endpoints.some((e) => e.subsets.some((s) => s.addresses.some((a) => a.hostname === hostname)))) return true;
  return lookup.slicesFor(svc.namespace, svc.name).some((s) => s.endpoints.some((a) => a.hostname === hostname));
}

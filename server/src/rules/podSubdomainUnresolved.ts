// pod-subdomain-unresolved: a pod's `subdomain` that no headless Service of that name selects, so its per-pod DNS name never resolves (semantics §2.2 P2).

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
    for (const w of subjects.workloads) {
      const t = w.template;
      if (w.kind === 'StatefulSet' || !t.subdomain || !t.subdomainSpan) continue;
      const problem = whyUnresolved(lookup, w);
      if (!problem) continue;
      const name = t.hostname ? `${t.hostname}.${t.subdomain}.${w.namespace}.svc.${config.clusterDomain}` : undefined;
      const consequence = name
        ? `The name ${name} will not resolve.`
        : 'The pod also sets no hostname, so it has no per-pod DNS name in any case.';
      yield {
        uri: w.uri,
        span: t.subdomainSpan,
        message: `subdomain "${t.subdomain}": ${problem.reason}. ${consequence}${problem.hint ? ` ${problem.hint}` : ''}`,
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

function whyUnresolved(lookup: Lookup, w: Workload): Problem | undefined {
  const t = w.template;
  const sub = t.subdomain!;
  const svc = lookup.service(w.namespace, sub);
  const at = (s: Service, message: string): RelatedInfo[] => [{ uri: s.uri, span: s.nameSpan, message }];
  if (!svc) {
    const candidates = lookup.servicesIn(w.namespace).filter((s) => s.headless && s.type !== 'ExternalName' && selects(s, w));
    return {
      reason: `no Service named "${sub}" exists in namespace "${w.namespace}"`,
      hint: candidates.length ? `The headless Service${candidates.length > 1 ? 's' : ''} ${candidates.map((c) => `"${c.name}"`).join(', ')} select${candidates.length > 1 ? '' : 's'} this pod.` : `Create a headless Service named "${sub}" whose selector matches the pod labels.`,
      fixes: [
        ...candidates.slice(0, 3).map((c, i) => ({ title: `Set subdomain to "${c.name}"`, edits: [{ uri: w.uri, span: t.subdomainSpan!, newText: c.name }], isPreferred: i === 0 && candidates.length === 1 })),
        ...createFix(lookup, w, sub),
      ],
    };
  }
  if (svc.type === 'ExternalName') {
    return { reason: `Service "${sub}" is an ExternalName Service (a DNS alias), which has no per-pod names`, related: at(svc, 'The ExternalName Service with this name') };
  }
  if (!svc.headless) {
    return {
      reason: `Service "${sub}" has a cluster IP; per-pod names belong to headless Services (clusterIP: None), and DNS servers other than CoreDNS never answer them`,
      hint: 'Make the Service headless, or use a separate headless Service for per-pod names.',
      related: at(svc, 'This Service is not headless'),
    };
  }
  if (!svc.selector) {
    if (t.hostname && hasManualHostname(lookup, svc, t.hostname)) return undefined;
    const listed = t.hostname ? `hostname "${t.hostname}"` : 'this pod';
    return { reason: `the headless Service "${sub}" has no selector and none of its manual endpoints lists ${listed}`, related: at(svc, 'This headless Service has no selector') };
  }
  if (selects(svc, w)) return undefined;
  const terms = [...svc.selector].map(([k, v]) => `${k}=${v}`).join(', ');
  return {
    reason: `the headless Service "${sub}" selects ${terms}, which this pod's labels do not match`,
    related: [{ uri: svc.uri, span: svc.selectorSpan ?? svc.nameSpan, message: `The selector of Service "${sub}"` }],
  };
}

/** The headless Service the subdomain prescribes, selecting the pod by its labels, like the StatefulSet rule offers. */
function createFix(lookup: Lookup, w: Workload, name: string): Fix[] {
  const text = lookup.fileText(w.uri);
  const edit = text ? createHeadlessService(w, name, text) : undefined;
  return edit ? [{ title: `Create headless Service "${name}" selecting ${w.kind} "${w.name}"`, edits: [edit] }] : [];
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


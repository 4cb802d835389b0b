// cert-manager objects (cert-manager.io/v1): a Certificate's `secretName`, the TLS Secret cert-manager writes in the
// Certificate's namespace, and the annotations with which cert-manager's ingress-shim makes a Certificate for an
// Ingress or a Gateway (whatever Secret names its TLS entries give). Readers never throw.

import type { ResourceBase } from './resources';
import type { Span } from './span';
import { at, text, type YMap } from './yamlTree';

export const certManagerGroup = 'cert-manager.io';

export interface Certificate extends ResourceBase {
  readonly kind: 'Certificate';
  readonly secretName?: string;
  readonly secretNameSpan?: Span;
}

export function isCertManagerVersion(apiVersion: string): boolean {
  return apiVersion.startsWith(`${certManagerGroup}/`);
}

export function isCertificate(r: ResourceBase): r is Certificate {
  return r.kind === 'Certificate' && isCertManagerVersion(r.apiVersion) && 'secretName' in r;
}

export function readCertManager(base: ResourceBase, root: YMap): Certificate | undefined {
  if (base.kind !== 'Certificate') return undefined;
  const n = at(root, 'spec', 'secretName');
  return { ...base, kind: 'Certificate', secretName: text(n) || undefined, secretNameSpan: n?.span };
}

/**
 * Whether cert-manager's ingress-shim makes a Certificate for the object's TLS entries (`cert-manager.io/issuer`,
 * `cert-manager.io/cluster-issuer`, and the legacy `kubernetes.io/tls-acme: "true"`), so each names a Secret it writes.
 */
export function shimIssues(annotations: ReadonlyMap<string, string>): boolean {
  return annotations.has('cert-manager.io/issuer') || annotations.has('cert-manager.io/cluster-issuer') || annotations.get('kubernetes.io/tls-acme') === 'true';
}

const picked = new WeakMap<readonly ResourceBase[], readonly Certificate[]>();

/** The Certificates of a namespace's objects, picked out once per list. */
export function certificatesOf(resources: readonly ResourceBase[] | undefined): readonly Certificate[] {
  if (!resources?.length) return [];
  let found = picked.get(resources);
  if (!found) picked.set(resources, (found = resources.filter(isCertificate)));
  return found;
}

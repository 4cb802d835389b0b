// metadata checks the API server applies to every object: the name's format for its kind, the namespace, label and annotation types.

import type { ResourceBase } from '../../model/resources';
import { at } from '../../model/yamlTree';
import { dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, qualifiedNameErrors } from './formats';
import { invalid, readMap, readString, readStringMap, type ValidationContext } from './violation';
import { treeOf } from '../../model/trees';
import { phrase, type Phrase } from '../../l10n/l10n';

/** Name formats by kind: Services are DNS-1035 labels (semantics §6.1), StatefulSets and Namespaces DNS-1123 labels (§6.4), the rest subdomains. */
const nameFormat: Readonly<Record<string, { check: (v: string) => readonly string[]; why: Phrase }>> = {
  Service: { check: dns1035LabelErrors, why: phrase('a Service name becomes a DNS label and an environment variable prefix, so it must start with a letter') },
  StatefulSet: {
    check: dns1123LabelErrors,
    why: phrase('StatefulSet pods are named <name>-<ordinal> and use it as their hostname, which must be a single DNS label'),
  },
  Namespace: { check: dns1123LabelErrors, why: phrase('a namespace is one label of every DNS name in it') },
};
const subdomainKinds = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'DaemonSet',
  'ReplicationController',
  'Job',
  'CronJob',
  'Endpoints',
  'EndpointSlice',
  'Ingress',
  'NetworkPolicy',
  'ConfigMap',
]);

export function validateMetadata(ctx: ValidationContext, r: ResourceBase): void {
  const metadata = readMap(ctx, at(treeOf(r), 'metadata'), 'metadata');
  if (!metadata) return;
  const nameNode = at(metadata, 'name');
  const name = readString(ctx, nameNode, 'metadata.name');
  if (name !== undefined && nameNode) {
    const format = nameFormat[r.kind];
    if (format) invalid(ctx, 'metadata.name', nameNode.span, name, format.check(name), format.why);
    else if (subdomainKinds.has(r.kind)) invalid(ctx, 'metadata.name', nameNode.span, name, dns1123SubdomainErrors(name));
    // CronJob names get an 11-character suffix for each Job they create (APPSVAL ValidateCronJob).
    if (r.kind === 'CronJob' && name.length > 52)
      invalid(
        ctx,
        'metadata.name',
        nameNode.span,
        name,
        ['must be no more than 52 characters'],
        phrase('each Job gets the CronJob name plus an 11-character suffix, which must still fit in 63 characters'),
      );
  }
  const nsNode = at(metadata, 'namespace');
  const ns = readString(ctx, nsNode, 'metadata.namespace');
  if (ns && nsNode) invalid(ctx, 'metadata.namespace', nsNode.span, ns, dns1123LabelErrors(ns));
  for (const [key, { value, node, keySpan }] of readStringMap(ctx, at(metadata, 'labels'), 'metadata.labels')) {
    invalid(ctx, 'metadata.labels', keySpan, key, qualifiedNameErrors(key));
    const valueErrors = labelValueErrors(value);
    if (valueErrors.length) invalid(ctx, `metadata.labels[${key}]`, node.span, value, valueErrors);
  }
  readStringMap(ctx, at(metadata, 'annotations'), 'metadata.annotations');
}

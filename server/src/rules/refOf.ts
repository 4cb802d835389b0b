// The kind/namespace/name triple a finding is attached to.

import type { ResourceBase } from '../model/resources';
import type { ResourceRef } from './finding';

export function refOf(r: ResourceBase): ResourceRef {
  return { kind: r.kind, namespace: r.namespace, name: r.name };
}
